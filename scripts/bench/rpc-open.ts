// One timed open of a session as an RPC client does it: `<agent> --mode rpc --session FILE`, then
// one command — `get_state` (what the session is: its id, model, message count) or
// `get_messages` (every message of the branch's context, as JSON) — from the spawn until the
// whole response line has arrived on stdout. The process is then stopped; its peak RSS and the
// CPU time its process tree had used by then are read from /proc just before.
import { treeUsage } from "./tree-cpu.ts";
import { peakRssOf } from "./tree-rss.ts";

export interface RpcOpenSide {
  cmd: readonly string[];
  env: Record<string, string | undefined>;
  cwd: string;
}

export type RpcOpenCommand = "get_state" | "get_messages";

export interface RpcOpenSample {
  ms: number;
  /** User + system CPU time of the process tree from the spawn to the answer (all threads). */
  cpuMs: number;
  maxRssBytes: number;
  /** The response's `data`, when asked for (the untimed same-output check). */
  data?: Record<string, unknown>;
}

export async function timeRpcOpen(side: RpcOpenSide, session: string, command: RpcOpenCommand, keepData = false): Promise<RpcOpenSample> {
  const REQUEST = `${JSON.stringify({ id: "bench-open", type: command })}\n`;
  const cmd = [...side.cmd, "--mode", "rpc", "--session", session];
  const start = performance.now();
  const proc = Bun.spawn(cmd, { env: side.env, cwd: side.cwd, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const stderr = new Response(proc.stderr).text();
  proc.stdin.write(REQUEST);
  proc.stdin.flush();
  let line: string | undefined;
  const reader = proc.stdout.getReader();
  try {
    // Bytes kept as they come and joined once a newline ends a line: a 50 MB answer is one line.
    let parts: Uint8Array[] = [];
    while (line === undefined) {
      const { value, done } = await reader.read();
      if (done) break;
      let chunk = value;
      let nl = chunk.indexOf(10);
      while (nl >= 0 && line === undefined) {
        parts.push(chunk.subarray(0, nl));
        const candidate = Buffer.concat(parts).toString("utf8");
        parts = [];
        // Events and notices may come first; the answer names its id.
        if (candidate.includes('"bench-open"')) line = candidate;
        chunk = chunk.subarray(nl + 1);
        nl = chunk.indexOf(10);
      }
      if (line === undefined && chunk.length > 0) parts.push(chunk);
    }
    const ms = performance.now() - start;
    if (line === undefined) throw new Error(`${cmd.join(" ")} ended (exit ${await proc.exited}) without answering ${command}:\n${(await stderr).slice(-2000)}`);
    const maxRssBytes = peakRssOf(proc.pid) ?? Number.NaN;
    const { cpuMs } = treeUsage(proc.pid);
    const answer = JSON.parse(line) as { success?: boolean; error?: string; data?: Record<string, unknown> };
    if (answer.success !== true || answer.data === undefined) throw new Error(`${cmd.join(" ")}: ${command} failed: ${line.slice(0, 500)}`);
    return { ms, cpuMs, maxRssBytes, ...(keepData ? { data: answer.data } : {}) };
  } finally {
    reader.releaseLock();
    proc.kill("SIGKILL");
    await proc.exited;
  }
}
