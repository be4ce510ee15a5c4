/**
 * The order pig's bytecode is laid out in, inside the executable. A first build is run the way
 * users run it most: its runtime writes, for each run, which modules and functions it loaded,
 * in the order it loaded them (`BUN_BYTECODE_ORDER_OUT`); the final build gets those files
 * (`--bytecode-order`, most important first) and puts that bytecode together at the front.
 * A run then reads its bytecode from a few adjacent pages instead of from pages spread across the
 * whole embedded program: measured on `pig -p hello` against a local server, 2.1 MB less peak
 * RSS (43.5 → 41.4 MB, the section holding the bytecode 3.7 → 1.4 MB resident) and ~10 % less
 * CPU time, with the same wall time.
 *
 * The files name functions by a hash of their code, not by their place: a recording from one
 * build serves any build of the same sources, for any target (scripts/release.ts records once
 * and builds every platform with it). Functions no recording names keep their usual place after
 * the recorded ones.
 *
 * The recorded runs, most important first:
 *   1. `pig -p hello` against a local server that streams a short answer (the print path);
 *   2. the same with one TypeScript extension: pig's side of the extension host, and the
 *      extension runner, a second process of the same executable (each process writes its own
 *      file: `%p` in the path is its pid);
 *   3. `pig --mode rpc --no-session` answering one `get_state` (what an editor or a script starts);
 *   4. `pig --version`.
 * Each runs in a scratch directory of its own, with an agent dir there: nothing of the user's
 * settings, sessions or credentials is read or written.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFakeAgentDir } from "./bench/fake-agent.ts";
import { settledFiles } from "./settled-files.ts";

/**
 * Calls `build` with the `--bytecode-order` flag for builds of pig's sources, and returns what it
 * returns. `bun build` is run with `buildArgs` (everything but `--outfile`, no `--target`: a
 * build for this machine) into a private scratch directory, and that build's recorded runs give
 * the order; the directory, and the files the flag names, go once `build` is done.
 */
export async function withBytecodeOrder<T>(buildArgs: readonly string[], cwd: string, build: (flag: string) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "pig-bytecode-order-"));
  try {
    const recorder = join(dir, "pig-recording");
    const proc = Bun.spawnSync([process.execPath, "build", ...buildArgs, "--outfile", recorder], { cwd, stdout: "pipe", stderr: "pipe" });
    if (proc.exitCode !== 0) throw new Error(`building the binary that records the bytecode order failed (exit ${proc.exitCode}):\n${proc.stderr.toString()}${proc.stdout.toString()}`);
    const orders = await recordBytecodeOrder(recorder, dir);
    // The recorder (the size of pig) goes now: a build stopped part way leaves only the small order files behind.
    rmSync(recorder, { force: true });
    return await build(`--bytecode-order=${orders.join(",")}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A server answering every chat completions request with a short streamed answer. */
function startAnswerServer(): { url: string; stop: () => void } {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: "order", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const body = chunk({ role: "assistant", content: "ok" }, null) + chunk({}, "stop") + "data: [DONE]\n\n";
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => {
      await request.arrayBuffer();
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, stop: () => void server.stop(true) };
}

/** An extension as users write them: a tool with TypeBox parameters, and an event handler. */
const EXTENSION = `import { Type } from "typebox";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "recorded",
    label: "Recorded",
    description: "Answers ok",
    parameters: Type.Object({ path: Type.String({ description: "A path" }), count: Type.Optional(Type.Number()) }),
    execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
  });
  pi.on("tool_call", () => undefined);
}
`;

interface RecordedRun {
  name: string;
  /** `home`: the run's scratch directory. */
  args: (home: string) => string[];
  stdin?: string;
  /** Files of this run's own (written into `home` before it starts). */
  files?: Record<string, string>;
  /** More than one process of the executable records (one file each). */
  processes?: number;
}

const RUNS: readonly RecordedRun[] = [
  { name: "print", args: () => ["-p", "hello"] },
  { name: "extension", args: (home) => ["-e", join(home, "extension.ts"), "-p", "hello"], files: { "extension.ts": EXTENSION }, processes: 2 },
  { name: "rpc", args: () => ["--mode", "rpc", "--no-session"], stdin: '{"id":"1","type":"get_state"}\n' },
  { name: "version", args: () => ["--version"] },
];

/**
 * Runs `pig` (a build of the sources to be built again) once per recorded run, in `dir`; the
 * order files it wrote, most important first. Throws, naming the run, when one fails or writes
 * no order.
 */
export async function recordBytecodeOrder(pig: string, dir: string): Promise<string[]> {
  const server = startAnswerServer();
  try {
    const files: string[] = [];
    for (const run of RUNS) {
      const home = join(dir, run.name);
      const agentDir = join(home, "agent");
      const cwd = join(home, "cwd");
      mkdirSync(cwd, { recursive: true });
      writeFakeAgentDir(agentDir, server.url);
      for (const [name, text] of Object.entries(run.files ?? {})) writeFileSync(join(home, name), text);
      const args = run.args(home);
      const shown = `pig ${args.join(" ")}`;
      const prefix = `${run.name}-`;
      const out = join(dir, `${prefix}%p.order`);
      const proc = Bun.spawn([pig, ...args], {
        cwd,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PIG_CODING_AGENT_DIR: agentDir, BUN_BYTECODE_ORDER_OUT: out },
        stdin: run.stdin === undefined ? "ignore" : "pipe",
        stdout: "pipe",
        stderr: "pipe",
      });
      if (run.stdin !== undefined && proc.stdin) {
        proc.stdin.write(run.stdin);
        // The answer has come once a line is out: then stdin closes and the process ends.
        const reader = proc.stdout.getReader();
        let seen = "";
        while (!seen.includes("\n")) {
          const { value, done } = await reader.read();
          if (done) break;
          seen += new TextDecoder().decode(value);
        }
        reader.releaseLock();
        await proc.stdin.end();
      }
      const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
      if (code !== 0) throw new Error(`recording the bytecode order: \`${shown}\` exited with ${code}:\n${stderr}`);
      const wanted = run.processes ?? 1;
      // The runner may write its file a moment after pig has exited (settled-files.ts). In pid
      // order: pig's own file, then its runner's, unless pids wrapped between them (either serves).
      const written = (await settledFiles(dir, wanted, (name) => name.startsWith(prefix) && name.endsWith(".order")))
        .filter((name) => statSync(join(dir, name)).size > 0)
        .sort((a, b) => Number(a.slice(prefix.length, -6)) - Number(b.slice(prefix.length, -6)));
      if (written.length !== wanted) {
        throw new Error(`recording the bytecode order: \`${shown}\` wrote ${written.length} order files in ${dir}, not ${wanted}:\n${stderr}`);
      }
      files.push(...written.map((name) => join(dir, name)));
    }
    return files;
  } finally {
    server.stop();
  }
}
