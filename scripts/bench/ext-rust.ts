// The Rust example extension (examples/extensions/rust/) behind pig's real extension host, in
// this process, beside the TypeScript example that offers the same tool
// (examples/extensions/progress-tool.ts, in the shared runner started from the built binary):
//   1. spawn → registered: from starting the host with the one extension until it is ready and
//      its tool is registered, then the host's shutdown; a fresh process each round;
//   2. one `count_lines` tool round trip (one file, so one `$/progress` and the answer):
//      median and p95 of 2,000 calls after warm-up;
//   3. one `tool_call` event round trip for a bash command: the Rust gate (no UI here, so it
//      answers "blocked" at once) and the TypeScript permission-gate.ts (a harmless command,
//      so it answers "nothing to say");
//   4. the Rust process's resident memory once ready.
// The Rust binary is built first (offline, Debian's cargo; a no-op when it is up to date).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildRustExample, RUST_EXAMPLE_MANIFEST } from "../../examples/extensions/rust/build.ts";
import type { ToolCallHookEvent } from "../../src/agent/hooks.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { BenchHosts, BenchPort, emptySnapshot, timeCalls } from "./ext-host.ts";
import { cleanup, median, percentile, requirePig } from "./measure.ts";
import { commonArgs } from "./options.ts";
import { fmtMB, fmtMs } from "./report.ts";

const TOOL_CALLS = 2000;
const TOOL_WARMUP = 200;
const EXAMPLES = resolve(import.meta.dir, "..", "..", "examples", "extensions");

const args = commonArgs({ runs: 20, warmup: 2 });
const pig = requirePig(args);
process.stderr.write("[bench] building the Rust example (cargo build --offline --release)\n");
buildRustExample();
const work = mkdtempSync(join(tmpdir(), "pig-bench-ext-rust-"));
const cwd = join(work, "cwd");
mkdirSync(cwd);
writeFileSync(join(cwd, "a.txt"), "one\ntwo\nthree\n");
const agentDir = join(work, "agent");
const hosts = new BenchHosts({ pig, cwd, agentDir, socketBaseDir: work });
/** A fresh host with `kind`'s extensions, on an empty session. */
const startHost = (kind: Kind) => hosts.start(kinds[kind].paths, new BenchPort(emptySnapshot(), undefined, cwd));

const kinds = {
  rust: { paths: [RUST_EXAMPLE_MANIFEST], label: "Rust (own process)" },
  ts: { paths: [join(EXAMPLES, "progress-tool.ts"), join(EXAMPLES, "permission-gate.ts")], label: "TypeScript (shared runner)" },
} as const;
type Kind = keyof typeof kinds;


/** The Rust process's pid, from the line it writes to its log (stderr) after the handshake. */
function rustPid(): number {
  const dir = join(agentDir, "extensions", "logs");
  const log = readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8")).join("");
  const pids = [...log.matchAll(/pig-rust-example [^:]*: pid (\d+),/g)].map((m) => Number(m[1]));
  if (pids.length === 0) throw new Error(`no pid in the Rust extension's log:\n${log.slice(-2000)}`);
  return pids[pids.length - 1]!;
}

const rssKb = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN);

try {
  // 1. spawn → registered, interleaved rounds.
  const startMs: Record<Kind, number[]> = { rust: [], ts: [] };
  const stopMs: Record<Kind, number[]> = { rust: [], ts: [] };
  const rss: number[] = [];
  process.stderr.write("[bench] spawn → registered ");
  for (let round = 0; round < args.warmup + args.runs; round++) {
    for (const kind of (round % 2 === 0 ? ["rust", "ts"] : ["ts", "rust"]) as Kind[]) {
      Bun.gc(true);
      const t0 = performance.now();
      const host = await startHost(kind);
      const t1 = performance.now();
      if (!host.tools().some((t) => t.name === "count_lines")) throw new Error(`${kind}: count_lines not registered`);
      if (kind === "rust" && round >= args.warmup) rss.push(rssKb(rustPid()) * 1024);
      const t2 = performance.now();
      await hosts.stop(host);
      const t3 = performance.now();
      if (round >= args.warmup) {
        startMs[kind].push(t1 - t0);
        stopMs[kind].push(t3 - t2);
      }
    }
    process.stderr.write(".");
  }
  process.stderr.write("\n");

  // 2 and 3: the round trips, one host per kind.
  const toolMs: Record<Kind, number[]> = { rust: [], ts: [] };
  const gateMs: Record<Kind, number[]> = { rust: [], ts: [] };
  const signal = new AbortController().signal;
  const toolCtx = { cwd, agentDir } as unknown as Parameters<AnyTool["execute"]>[4];
  for (const kind of ["rust", "ts"] as Kind[]) {
    process.stderr.write(`[bench] round trips, ${kinds[kind].label} `);
    const host = await startHost(kind);
    const tool = host.tools().find((t) => t.name === "count_lines")!;
    let updates = 0;
    toolMs[kind] = await timeCalls(TOOL_WARMUP, TOOL_CALLS, async (i) => {
      const r = await tool.execute(`call_${i}`, { paths: ["a.txt"] }, signal, () => void updates++, toolCtx);
      const first = r.content[0];
      if (first?.type !== "text" || first.text !== "a.txt: 3") throw new Error(`${kind}: count_lines answered ${JSON.stringify(r.content)}`);
    });
    if (updates !== TOOL_WARMUP + TOOL_CALLS) throw new Error(`${kind}: ${updates} progress updates for ${TOOL_WARMUP + TOOL_CALLS} calls`);
    process.stderr.write(".");
    const hooks = host.hooks();
    const command = kind === "rust" ? "rm -rf ./a.txt" : "true";
    gateMs[kind] = await timeCalls(TOOL_WARMUP, TOOL_CALLS, async (i) => {
      const event: ToolCallHookEvent = { toolCallId: `call_${i}`, toolName: "bash", input: { command } };
      const r = await hooks.toolCall(event);
      // No UI: the Rust gate blocks every bash command; permission-gate.ts lets `true` through.
      if ((r?.block === true) !== (kind === "rust")) throw new Error(`${kind}: tool_call answered ${JSON.stringify(r)}`);
    });
    process.stderr.write(".\n");
    await hosts.stop(host);
  }

  const row = (metric: string, xs: Record<Kind, number[]>) =>
    `| ${metric} | ${fmtMs(median(xs.rust))} (p95 ${fmtMs(percentile(xs.rust, 95))}) | ${fmtMs(median(xs.ts))} (p95 ${fmtMs(percentile(xs.ts, 95))}) |`;
  console.log("\n=== the Rust example extension behind pig's host ===");
  console.log(`| metric | ${kinds.rust.label} | ${kinds.ts.label} |`);
  console.log("| --- | --- | --- |");
  console.log(row(`spawn → registered (${args.runs} rounds)`, startMs));
  console.log(row("shutdown", stopMs));
  console.log(row(`count_lines round trip (${TOOL_CALLS} calls)`, toolMs));
  console.log(row(`tool_call round trip (${TOOL_CALLS} calls)`, gateMs));
  console.log(`| resident memory once ready | ${fmtMB(median(rss))} | — |`);
  console.log(`pig: ${pig}, Bun ${Bun.version}; ${(await Bun.$`/usr/bin/rustc --version`.nothrow().quiet().text()).trim() || "rustc"}`);
  console.log(`command: node_modules/.bin/bun scripts/bench/ext-rust.ts${Bun.argv.slice(2).length ? ` ${Bun.argv.slice(2).join(" ")}` : ""}`);
} finally {
  await hosts.stopAll();
  cleanup(work, args.keep);
}
