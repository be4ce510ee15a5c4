// Where `pig -p hello` spends its time: runs a built pig (default dist/pig) against the fake LLM
// server in this process, N times per case, under GNU time (CPU, peak RSS), then N times more
// with Bun's sampling profiler (`BUN_OPTIONS=--cpu-prof`), and prints the mean CPU per function,
// per source file and per module's top-level code. Builds nothing. Source file names need a
// binary built with source maps (`bun scripts/build.ts --sourcemap /tmp/pig-sm`); dist/pig shows
// its chunks' names and lines instead.
// `--floor` also builds two programs with pig's build flags and times them the same way: a
// hello-world, and one that makes a single streamed request to the same server (the floor of a
// one-turn run: the runtime's start and one HTTP round trip).
//   node_modules/.bin/bun scripts/bench/profile.ts [--pig PATH] [--runs N] [--top N] [--floor] [--keep]
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import * as v from "valibot";
import { startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { CpuProfileSchema, summariseProfiles, type FunctionTime, type ProfileSummary } from "./cpu-profile.ts";
import { writeFakeAgentDir } from "./fake-agent.ts";
import { dropPageCache, median, pigEnv, requirePig } from "./measure.ts";
import { COMPILE_FLAGS, PIG_FLAGS } from "../build-flags.ts";
import { buildFloor } from "./build-floor.ts";
import { shellLine } from "./report.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    pig: { type: "string" },
    runs: { type: "string", default: "10" },
    top: { type: "string", default: "30" },
    interval: { type: "string", default: "100" },
    keep: { type: "boolean", default: false },
    floor: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const top = Number(values.top);
const intervalUs = Number(values.interval);
if (![runs, top, intervalUs].every((n) => Number.isInteger(n) && n > 0)) {
  console.error("usage: bun scripts/bench/profile.ts [--pig PATH] [--runs N] [--top N] [--interval MICROSECONDS] [--floor] [--keep]");
  process.exit(2);
}
const pig = requirePig({ pigBin: values.pig });
const GNU_TIME = "/usr/bin/time";
if (!existsSync(GNU_TIME)) {
  console.error(`[profile] needs GNU time at ${GNU_TIME} (apt-get install time)`);
  process.exit(1);
}

const CASES = [
  { name: "-p hello", args: ["-p", "hello"] },
  { name: "--no-session -p hello", args: ["--no-session", "-p", "hello"] },
] as const;

const chunkSourceCache = new Map<string, string>();
const SourceMapSchema = v.object({ sources: v.array(v.string()) });

/** The floor's second program: one chat completions request, its streamed answer read whole. */
const FETCH_ONCE = `const response = await fetch(process.argv[2], {
  method: "POST",
  headers: { "content-type": "application/json", authorization: "Bearer fake-key" },
  body: JSON.stringify({ model: "fake-model", stream: true, messages: [{ role: "user", content: "hello" }] }),
});
const text = await response.text();
console.log(text.includes("ok") ? "ok" : text);
`;

interface Usage {
  wallMs: number;
  cpuMs: number;
  userMs: number;
  sysMs: number;
  rssMb: number;
}

const work = mkdtempSync(join(tmpdir(), "pig-bench-profile-"));
let requests = 0;
const llm = await startFakeLlm({ mode: "text", onRequest: () => void requests++ });
try {
  const agentDir = join(work, "agent");
  const cwd = join(work, "cwd");
  writeFakeAgentDir(agentDir, `${llm.url}/v1`);
  mkdirSync(cwd);
  const env = pigEnv(agentDir);
  console.log(`# Profile of ${pig}\n`);
  console.log(`fake LLM at ${llm.url}; agent dir ${agentDir}; ${runs} timed and ${runs} profiled runs per case, sampling every ${intervalUs} µs\n`);
  // As read back from disk, not as a fresh build's large page-cache folios (measure.ts).
  dropPageCache([pig]);
  for (const c of CASES) {
    const cmd = [pig, ...c.args];
    await timedRun(cmd, env, cwd); // warm the page cache
    const usage: Usage[] = [];
    for (let i = 0; i < runs; i++) usage.push(await timedRun(cmd, env, cwd));
    const profileDir = join(work, `profiles-${c.args.length}`);
    const profEnv = { ...env, BUN_OPTIONS: `--cpu-prof --cpu-prof-interval=${intervalUs} --cpu-prof-dir=${profileDir}` };
    for (let i = 0; i < runs; i++) await timedRun(cmd, profEnv, cwd);
    const profiles = readdirSync(profileDir).map((f) => v.parse(CpuProfileSchema, JSON.parse(readFileSync(join(profileDir, f), "utf8"))));
    rmSync(join(agentDir, "sessions"), { recursive: true, force: true });
    printCase(c.name, `PIG_CODING_AGENT_DIR=${agentDir} ${shellLine(cmd)}`, usage, summariseProfiles(profiles));
  }
  if (values.floor) {
    console.log(`## The floor (programs built with pig's flags: ${[...COMPILE_FLAGS, ...PIG_FLAGS].join(" ")})\n`);
    console.log(`| program | wall | CPU (user + sys) | peak RSS |\n|---|---|---|---|`);
    const floors = [
      { name: "hello-world", source: 'console.log("ok");\n', args: [], requests: 0 },
      { name: "one streamed request, then print", source: FETCH_ONCE, args: [`${llm.url}/v1/chat/completions`], requests: 1 },
    ];
    for (const floor of floors) {
      const bin = buildFloor(work, floor.name.replace(/\W+/g, "-"), floor.source);
      dropPageCache([bin]);
      const cmd = [bin, ...floor.args];
      await timedRun(cmd, env, cwd, floor.requests);
      const usage: Usage[] = [];
      for (let i = 0; i < runs; i++) usage.push(await timedRun(cmd, env, cwd, floor.requests));
      const med = (pick: (u: Usage) => number): string => median(usage.map(pick)).toFixed(1);
      console.log(`| ${floor.name}: \`${shellLine(cmd)}\` | ${med((u) => u.wallMs)} ms | ${med((u) => u.cpuMs)} ms | ${med((u) => u.rssMb)} MB |`);
    }
    console.log("");
  }
} finally {
  await llm.close();
  if (values.keep) console.error(`[profile] kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

/** One run under GNU time; checks that it asked the model once and printed the answer. */
async function timedRun(cmd: readonly string[], env: Record<string, string | undefined>, cwd: string, expectRequests = 1): Promise<Usage> {
  const out = join(work, "time.txt");
  const before = requests;
  const start = performance.now();
  const proc = Bun.spawn([GNU_TIME, "-f", "%M", "-o", out, ...cmd], { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const wallMs = performance.now() - start;
  if (code !== 0 || stdout.trim() !== "ok" || requests !== before + expectRequests) {
    throw new Error(`${shellLine(cmd)}: exit ${code}, ${requests - before} requests, stdout ${JSON.stringify(stdout)}\n${stderr.slice(-2000)}`);
  }
  const rssKb = Number(readFileSync(out, "utf8").trim().split("\n").at(-1));
  // The rusage of the waited-for process (GNU time and pig): microseconds, where time prints 10 ms ticks.
  const cpu = proc.resourceUsage()?.cpuTime;
  const userMs = Number(cpu?.user ?? Number.NaN) / 1000;
  const sysMs = Number(cpu?.system ?? Number.NaN) / 1000;
  return { wallMs, userMs, sysMs, cpuMs: userMs + sysMs, rssMb: rssKb / 1024 };
}

function printCase(name: string, command: string, usage: readonly Usage[], summary: ProfileSummary): void {
  const med = (pick: (u: Usage) => number): string => median(usage.map(pick)).toFixed(1);
  console.log(`## ${name}\n\n\`${command}\`\n`);
  console.log(`| wall | CPU (user + sys) | user | sys | peak RSS |\n|---|---|---|---|---|`);
  console.log(`| ${med((u) => u.wallMs)} ms | ${med((u) => u.cpuMs)} ms | ${med((u) => u.userMs)} ms | ${med((u) => u.sysMs)} ms | ${med((u) => u.rssMb)} MB |\n`);
  console.log(`Medians of ${usage.length} runs; CPU from the run's rusage, peak RSS from GNU time's %M.`);
  console.log(`Profiled: ${summary.sampledMs.toFixed(1)} ms sampled per run (mean of ${summary.profiles}); the profiler itself adds time.\n`);
  if (!summary.files.some((f) => f.url.startsWith("src/"))) {
    console.log("(No source maps in this binary: build one with `bun scripts/build.ts --sourcemap /tmp/pig-sm` and pass `--pig /tmp/pig-sm` for source file names.)\n");
  }
  printFunctions(`Self time by function (top ${top}), ms per run`, summary.functions.slice(0, top));
  console.log(`### Self time by source file (top ${top}), ms per run\n\n| ms | file |\n|---|---|`);
  for (const f of summary.files.slice(0, top)) console.log(`| ${f.selfMs.toFixed(2)} | ${f.url} |`);
  console.log("");
  printFunctions(`Module top-level code (evaluation, with what it called; top ${top}), ms per run`, summary.modules.slice(0, top));
}

function printFunctions(title: string, fns: readonly FunctionTime[]): void {
  console.log(`### ${title}\n\n| self | total | function | chunk holds |\n|---|---|---|---|`);
  for (const f of fns) console.log(`| ${f.selfMs.toFixed(2)} | ${f.totalMs.toFixed(2)} | \`${f.key}\` | ${chunkSources(f.url)} |`);
  console.log("");
}

/**
 * What a chunk of the binary was built from, from the `.map` file `--sourcemap` writes beside the
 * binary: a module's top-level code is reported under its chunk's name, not its source file's.
 */
function chunkSources(url: string): string {
  const chunk = /^\$bunfs\/(.+\.js)$/.exec(url)?.[1];
  if (chunk === undefined) return "";
  let label = chunkSourceCache.get(chunk);
  if (label === undefined) {
    const mapFile = join(dirname(pig), `${chunk}.map`);
    const parsed = existsSync(mapFile) ? v.safeParse(SourceMapSchema, JSON.parse(readFileSync(mapFile, "utf8"))) : undefined;
    const sources = parsed?.success ? parsed.output.sources.map((s) => s.replace(/^(\.\.\/)+(.*?\/)?(src|node_modules)\//, "$3/")) : [];
    label = sources.length === 0 ? "" : sources.slice(0, 4).join(", ") + (sources.length > 4 ? ` +${sources.length - 4}` : "");
    chunkSourceCache.set(chunk, label);
  }
  return label;
}

