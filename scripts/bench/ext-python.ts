// A Python extension (sdk/python, pig_ext) behind pig's real extension host, in this process:
//   1. spawn → registered: `startExtensionHost` with one `.py` extension until it resolves (the
//      process started with `python3 <file>`, connected, registered and said ready), beside the
//      same for one TypeScript extension in pig's runner, and a bare `python3 -c pass`;
//   2. tool round trip: 2,000 `tool.execute` calls of a Python tool after 200 warm-up, each
//      awaited before the next (median, p95), beside the same TypeScript tool;
//   3. the first `ctx.get_entries()` of a 50 MB session (gen-sessions.ts): timed inside Python,
//      a fresh process each time, with the snapshot read from the file (`session.subscribe
//      {file: true}`, the SDK's default) and sent as text over the socket.
//
//   node_modules/.bin/bun scripts/bench/ext-python.ts [--runs N] [--warmup N] [--pig PATH] [--keep]
//
// No Pi column: upstream Pi has no Python extensions.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ExtensionHost } from "../../src/extensions/host/host.ts";
import { storeSnapshot } from "../../src/runtime/extension-port.ts";
import { SessionStore } from "../../src/session/store.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { writeSession } from "./gen-sessions.ts";
import { BenchHosts, BenchPort, emptySnapshot } from "./ext-host.ts";
import { cleanup, interleave, median, percentile, requirePig } from "./measure.ts";
import { commonArgs } from "./options.ts";
import { fmtMB, fmtMs } from "./report.ts";

const TOOL_CALLS = 2000;
const TOOL_WARMUP = 200;
const SESSION_MB = 50;
const SESSION_ENTRIES = 20_000;
const SDK = resolve(import.meta.dir, "..", "..", "sdk", "python");

const PY_SOURCE = `import sys, time
sys.path.insert(0, ${JSON.stringify(SDK)})
from pig_ext import Extension, ToolResult

ext = Extension("bench", read_session_file=sys.argv[0].endswith("_file.py"))

@ext.tool("echo", "Answers ok", {"type": "object", "properties": {"n": {"type": "number"}}})
def echo(args, ctx):
    return "ok"

@ext.tool("session_read", "Times the first get_entries")
async def session_read(args, ctx):
    t0 = time.perf_counter()
    entries = await ctx.get_entries()
    t1 = time.perf_counter()
    branch = await ctx.get_branch()
    t2 = time.perf_counter()
    return ToolResult("ok", details={"firstMs": (t1 - t0) * 1000, "branchMs": (t2 - t1) * 1000, "count": len(entries), "branch": len(branch)})

ext.run()
`;

const TS_SOURCE = `import { Type } from "typebox";
import type { ExtensionAPI } from "pig/extension";
export default function (pi: ExtensionAPI) {
  pi.registerTool({ name: "echo", label: "Echo", description: "Answers ok", parameters: Type.Object({ n: Type.Number() }),
    execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }) });
}
`;

const EMPTY = new BenchPort(emptySnapshot(), undefined, tmpdir());

const args = commonArgs({ runs: 10, warmup: 1 });
const pig = requirePig(args);
const work = mkdtempSync(join(tmpdir(), "pig-bench-py-"));
const cwd = join(work, "cwd");
mkdirSync(cwd);
const agentDir = join(work, "agent");
const files = { py: join(work, "bench.py"), pyText: join(work, "bench.py"), pyFile: join(work, "bench_file.py"), ts: join(work, "bench.ts") };
writeFileSync(files.py, PY_SOURCE);
writeFileSync(files.pyFile, PY_SOURCE);
writeFileSync(files.ts, TS_SOURCE);
const hosts = new BenchHosts({ pig, cwd, agentDir, socketBaseDir: work });
const signal = new AbortController().signal;
const toolCtx = { cwd, agentDir } as unknown as Parameters<AnyTool["execute"]>[4];


function toolOf(host: ExtensionHost, name: string) {
  const tool = host.tools().find((t) => t.name === name);
  if (!tool) throw new Error(`${name} not registered; have ${host.tools().map((t) => t.name).join(", ")}`);
  return tool;
}

const textOf = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? "").join("");

try {
  // 1. spawn → registered. pig runs `python3 <file>` from PATH, which may be a wrapper (a pyenv
  // shim is a shell script): the interpreter it resolves to is timed on its own too.
  const interpreter = (await Bun.$`python3 -c ${"import sys; print(sys.executable)"}`.text()).trim();
  const bare: Record<string, string[]> = {
    "python3 -c pass": ["python3", "-c", "pass"],
    "interpreter -c pass": [interpreter, "-c", "pass"],
    "interpreter, import pig_ext": [interpreter, "-c", `import sys; sys.path.insert(0, ${JSON.stringify(SDK)}); import pig_ext`],
  };
  const kinds = ["python", "typescript", ...Object.keys(bare)];
  const starts = await interleave("spawn → registered", kinds, args.runs, args.warmup, async (kind) => {
    const start = performance.now();
    if (bare[kind]) {
      await Bun.spawn(bare[kind]!).exited;
      return performance.now() - start;
    }
    const host = await hosts.start([kind === "python" ? files.py : files.ts], EMPTY);
    const ms = performance.now() - start;
    toolOf(host, "echo");
    await hosts.stop(host);
    return ms;
  });

  // 2. Tool round trip.
  const roundTrips = new Map<string, number[]>();
  process.stderr.write("[bench] tool round trip: measuring ");
  for (const [kind, file] of [["python", files.py], ["typescript", files.ts]] as const) {
    const host = await hosts.start([file], EMPTY);
    const tool = toolOf(host, "echo");
    const out: number[] = [];
    for (let i = 0; i < TOOL_WARMUP + TOOL_CALLS; i++) {
      const start = performance.now();
      const r = await tool.execute(`call_${i}`, { n: i }, signal, () => {}, toolCtx);
      if (i >= TOOL_WARMUP) out.push(performance.now() - start);
      if (textOf(r) !== "ok") throw new Error(`echo answered ${JSON.stringify(r.content)}`);
    }
    roundTrips.set(kind, out);
    await hosts.stop(host);
    process.stderr.write(".");
  }
  process.stderr.write("\n");

  // 3. First get_entries of a 50 MB session.
  const sessionFile = join(work, "session.jsonl");
  const gen = await writeSession(sessionFile, { targetBytes: SESSION_MB * 1024 * 1024, entries: SESSION_ENTRIES, seed: 1 });
  const store = SessionStore.open(sessionFile);
  const sessionPort = new BenchPort(() => storeSnapshot(store, false), () => storeSnapshot(store, true), tmpdir());
  interface Read {
    firstMs: number;
    branchMs: number;
    count: number;
    toolMs: number;
  }
  const reads = await interleave(`first get_entries, ${SESSION_MB} MB`, ["from the file", "as text"] as const, Math.min(args.runs, 5), args.warmup, async (kind): Promise<Read> => {
    const host = await hosts.start([kind === "from the file" ? files.pyFile : files.pyText], sessionPort);
    const start = performance.now();
    const r = await toolOf(host, "session_read").execute("read", {}, signal, () => {}, toolCtx);
    const toolMs = performance.now() - start;
    await hosts.stop(host);
    const d = r.details as Omit<Read, "toolMs">;
    if (d.count !== gen.lines - 1) throw new Error(`get_entries saw ${d.count} entries, the file has ${gen.lines - 1}: ${textOf(r)}`);
    return { ...d, toolMs };
  });

  const ms = (xs: number[]) => `${fmtMs(median(xs))} (p95 ${fmtMs(percentile(xs, 95))})`;
  const py = (await Bun.$`python3 --version`.text()).trim();
  console.log(`\nPython extension (${py}, sdk/python) behind pig's host; ${args.runs} rounds after ${args.warmup} warm-up\n`);
  console.log("| measure | Python | TypeScript (pig's runner) |");
  console.log("| --- | --- | --- |");
  console.log(`| spawn → registered | ${ms(starts.get("python")!)} | ${ms(starts.get("typescript")!)} |`);
  console.log(`| tool round trip (${TOOL_CALLS} calls) | ${ms(roundTrips.get("python")!)} | ${ms(roundTrips.get("typescript")!)} |`);
  for (const kind of ["from the file", "as text"] as const) {
    const r = reads.get(kind)!;
    console.log(`| first get_entries, ${fmtMB(gen.bytes)}, snapshot ${kind} | ${fmtMs(median(r.map((x) => x.firstMs)))} in Python; tool call ${fmtMs(median(r.map((x) => x.toolMs)))}; get_branch after it ${fmtMs(median(r.map((x) => x.branchMs)))} | — |`);
  }
  console.log(`\n\`python3 -c pass\` (PATH's python3): ${ms(starts.get("python3 -c pass")!)}; the interpreter it runs (${interpreter}) with \`-c pass\`: ${ms(starts.get("interpreter -c pass")!)}, importing pig_ext: ${ms(starts.get("interpreter, import pig_ext")!)}`);
  console.log(`session: ${gen.lines - 1} entries (gen-sessions.ts, seed 1); the port answers as pig's runtime port does (storeSnapshot of a SessionStore on the file)`);
  console.log(`pig: ${pig}; work dir ${work}${args.keep ? " (kept)" : ""}`);
} finally {
  await hosts.stopAll();
  cleanup(work, args.keep);
}
