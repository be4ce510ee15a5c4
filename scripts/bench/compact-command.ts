// One timed compaction as a user asks for it: `<agent> --mode rpc --session FILE`, then the RPC
// command `{"type":"compact"}`, from the spawn until the summary request reaches the fake LLM
// server. Each run works on a fresh copy of the session (a compaction appends to it), and the
// process is stopped as soon as the request is in: what is timed is start-up, the open, the
// preparation and the serialisation, everything before the model is asked.
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest } from "../../test/helpers/fake-llm/server.ts";

export interface CompactSide {
  cmd: readonly string[];
  env: Record<string, string | undefined>;
  cwd: string;
}

export interface CompactSample {
  ms: number;
  /** Characters of the summary request's JSON body: the same work on every side makes it similar. */
  bodyChars: number;
}

/** Request arrivals as the benchmark's fake LLM server reports them (wire `onRequest` to `arrived`). */
export class RequestWaiter {
  private waiting: ((r: { at: number; request: RecordedRequest }) => void) | undefined;

  arrived(request: RecordedRequest): void {
    const at = performance.now();
    this.waiting?.({ at, request });
    this.waiting = undefined;
  }

  next(): Promise<{ at: number; request: RecordedRequest }> {
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }
}

export async function timeCompactCommand(side: CompactSide, session: string, scratch: string, waiter: RequestWaiter, run: number): Promise<CompactSample> {
  const copy = join(scratch, `compact-run-${run}.jsonl`);
  copyFileSync(session, copy);
  try {
    const cmd = [...side.cmd, "--mode", "rpc", "--session", copy];
    const arrival = waiter.next();
    const start = performance.now();
    const proc = Bun.spawn(cmd, { env: side.env, cwd: side.cwd, stdin: "pipe", stdout: "ignore", stderr: "pipe" });
    const stderr = new Response(proc.stderr).text();
    proc.stdin.write(`${JSON.stringify({ id: "bench-compact", type: "compact" })}\n`);
    proc.stdin.flush();
    const first = await Promise.race([arrival, proc.exited.then((code) => ({ exited: code }))]);
    if ("exited" in first) throw new Error(`${cmd.join(" ")} exited with ${first.exited} before asking for a summary:\n${(await stderr).slice(-2000)}`);
    proc.kill("SIGKILL");
    await proc.exited;
    return { ms: first.at - start, bodyChars: JSON.stringify(first.request.body).length };
  } finally {
    rmSync(copy, { force: true });
  }
}
