// Where the time of `pig -p hello` with N TypeScript extensions goes, both processes of each run:
// a timeline from the spawn (the extension runner's process start, each extension's module
// evaluated and its factory run, the first request reaching the model, the exit) and the CPU
// profile of pig and of its runner (`BUN_OPTIONS=--cpu-prof`, which reaches the runner through
// its environment). The extensions are extensions.ts's, their tool descriptions stamped with
// those times, which the first request brings back: nothing in pig is instrumented. Profiling
// slows both processes, so each round runs twice: the timeline comes from the plain run, the
// profiles from the other.
//   node_modules/.bin/bun scripts/bench/ext-timeline.ts [--extensions N] [--runs N] [--warmup N] [--pig PATH] [--keep]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { CpuProfileSchema, type CpuProfile, type ProfileSummary, summariseProfiles } from "./cpu-profile.ts";
import { extensionSource, smallBase } from "./ext-files.ts";
import { writeFakeAgentDir } from "./fake-agent.ts";
import { cleanup, median, pigEnv, requirePig } from "./measure.ts";
import { commonArgs } from "./options.ts";
import { fmtMs, shellLine } from "./report.ts";
import { settledFiles } from "../settled-files.ts";

const args = commonArgs({ runs: 5, warmup: 1 }, ["extensions"]);
const count = Number(args.own.extensions ?? 30);
if (!Number.isInteger(count) || count < 1) throw new Error("--extensions takes a whole number ≥ 1");
const pig = requirePig(args);
const work = mkdtempSync(join(smallBase(), "pig-bench-ext-timeline-"));

/** The request's tools, as far as the stamps need them. */
const RequestToolsSchema = v.object({ tools: v.array(v.object({ function: v.object({ name: v.string(), description: v.string() }) })) });
const STAMP = /@(\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;

/** One run, in ms after the spawn. */
interface RunTimes {
  runnerBegan: number;
  evaluated: number[];
  factory: number[];
  request: number;
  exit: number;
}

const now = () => performance.timeOrigin + performance.now();

try {
  const extDir = join(work, "ext");
  const cwd = join(work, "cwd");
  mkdirSync(extDir);
  mkdirSync(cwd);
  const files = Array.from({ length: count }, (_, i) => {
    const file = join(extDir, `ext_${i}.ts`);
    writeFileSync(file, extensionSource(i, true));
    return file;
  });
  let arrival = 0;
  const llm = await startFakeLlm({ script: { responses: [{ text: "ok" }] }, onRequest: () => void (arrival ||= now()) });
  const agentDir = join(work, "agent");
  writeFakeAgentDir(agentDir, `${llm.url}/v1`);
  const cmd = [pig, "-p", ...files.flatMap((f) => ["-e", f]), "hello"];
  const runs: RunTimes[] = [];
  const pigProfiles: CpuProfile[] = [];
  const runnerProfiles: CpuProfile[] = [];
  try {
    /** One run; with `profileDir`, profiled into it. */
    const runPig = async (profileDir?: string) => {
      llm.setScript({ responses: [{ text: "ok" }] });
      llm.requests.splice(0);
      arrival = 0;
      const env = profileDir ? { ...pigEnv(agentDir), BUN_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : pigEnv(agentDir);
      const spawned = now();
      const proc = Bun.spawn(cmd, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      const exited = now();
      if (code !== 0 || out.trim() !== "ok") throw new Error(`${shellLine(cmd)} printed ${JSON.stringify(out.trim())} (exit ${code}):\n${err.slice(-2000)}`);
      rmSync(join(agentDir, "sessions"), { recursive: true, force: true });
      return { pid: proc.pid, times: timesOf(llm.requests[0]?.body, spawned, arrival, exited) };
    };
    for (let r = 0; r < args.warmup + args.runs; r++) {
      const plain = await runPig();
      const profileDir = join(work, `profiles-${r}`);
      mkdirSync(profileDir);
      const profiled = await runPig(profileDir);
      if (r < args.warmup) continue;
      runs.push(plain.times);
      // Two profiles: pig's and its runner's, which may be written a moment after pig exits.
      const written = await settledFiles(profileDir, 2, (n) => n.endsWith(".cpuprofile"));
      if (written.length < 2) console.error(`[bench] round ${r}: ${written.length} CPU profiles in ${profileDir}, not 2 (pig's and its runner's)`);
      for (const name of written) {
        const profile = v.parse(CpuProfileSchema, JSON.parse(readFileSync(join(profileDir, name), "utf8")));
        (name.includes(`.${profiled.pid}.`) ? pigProfiles : runnerProfiles).push(profile);
      }
    }
  } finally {
    await llm.close();
  }

  const last = count - 1;
  const at = (pick: (t: RunTimes) => number) => median(runs.map(pick));
  const between = (from: (t: RunTimes) => number, to: (t: RunTimes) => number) => median(runs.map((t) => to(t) - from(t)));
  console.log(`\n## pig -p hello with ${count} TypeScript extensions: timeline (median of ${runs.length} runs without profiling, ms after the spawn)\n`);
  console.log("| event | at (median) | since the previous event (median of each run's) |\n| --- | ---: | ---: |");
  const events: [string, (t: RunTimes) => number][] = [
    ["the runner's process began", (t) => t.runnerBegan],
    ["ext_0's module evaluated", (t) => t.evaluated[0]!],
    ["ext_0's factory ran", (t) => t.factory[0]!],
    [`ext_${last}'s factory ran`, (t) => t.factory[last]!],
    ["the first request reached the model", (t) => t.request],
    ["pig exited", (t) => t.exit],
  ];
  events.forEach(([label, pick], i) => {
    const previous = i === 0 ? () => 0 : events[i - 1]![1];
    console.log(`| ${label} | ${fmtMs(at(pick))} | ${fmtMs(between(previous, pick))} |`);
  });
  if (count > 1) console.log(`\nPer extension after the first (module evaluated → the next's): ${fmtMs(between((t) => t.evaluated[0]!, (t) => t.evaluated[last]!) / last)}`);
  printProfile("pig", summariseProfiles(pigProfiles));
  printProfile("the extension runner", summariseProfiles(runnerProfiles));
  console.log(`\nCommand (BUN_OPTIONS=--cpu-prof… added for the profiled runs):\n  ${shellLine(cmd, { PIG_CODING_AGENT_DIR: agentDir })}`);
} finally {
  cleanup(work, args.keep);
}

function timesOf(body: unknown, spawned: number, arrival: number, exited: number): RunTimes {
  const tools = v.parse(RequestToolsSchema, body).tools;
  const stamps = Array.from({ length: count }, (_, i) => {
    const description = tools.find((t) => t.function.name === `tool_${i}`)?.function.description ?? "";
    const m = STAMP.exec(description);
    if (!m) throw new Error(`tool_${i} is missing from the first request, or its description has no stamp: ${JSON.stringify(description)}`);
    return m.slice(1).map((x) => Number(x) - spawned);
  });
  return {
    runnerBegan: stamps[0]![0]!,
    evaluated: stamps.map((s) => s[1]!),
    factory: stamps.map((s) => s[2]!),
    request: arrival - spawned,
    exit: exited - spawned,
  };
}

function printProfile(who: string, summary: ProfileSummary): void {
  console.log(`\n### CPU profile of ${who}: ${fmtMs(summary.sampledMs)} sampled per run (${summary.profiles} profiles)\n`);
  console.log("| self | total | function |\n| ---: | ---: | --- |");
  for (const f of summary.functions.slice(0, 15)) console.log(`| ${fmtMs(f.selfMs)} | ${fmtMs(f.totalMs)} | ${f.key} |`);
  console.log("\n| self | source |\n| ---: | --- |");
  for (const f of summary.files.slice(0, 8)) console.log(`| ${fmtMs(f.selfMs)} | ${f.url} |`);
}
