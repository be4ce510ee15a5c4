// Is this build slower to start than an older commit? Builds REV's pig once (cached by commit in
// a private per-user dir under the temp dir), then races it with dist/pig (or --pig PATH) on
// `pig -p hello` in interleaved rounds and prints both medians and the difference. `--turns N`
// also races a run of N `bash true` tool turns: the gap between two requests (the tool's process
// and pig's own work around it) and the CPU a turn adds over `-p hello`.
//   node_modules/.bin/bun scripts/bench/guard.ts --against main [--runs 30] [--turns 20] [--check 10]
// `--check PCT` exits 1 when this build's median wall time, CPU time or (with --turns) turn gap is
// more than PCT % above REV's. A benchmark, not a test: run it on a machine that is otherwise quiet.
import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { userDir } from "../../src/util/process-dir.ts";
import { requirePig } from "./measure.ts";
import { medianOf, RACE_METRICS, racePig } from "./race-pig.ts";

const ROOT = resolve(import.meta.dir, "..", "..");

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    against: { type: "string" },
    runs: { type: "string", default: "30" },
    warmup: { type: "string", default: "3" },
    check: { type: "string" },
    pig: { type: "string" },
    "no-session": { type: "boolean", default: false },
    turns: { type: "string", default: "0" },
  },
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const checkPct = values.check === undefined ? undefined : Number(values.check);
const turns = Number(values.turns);
if (values.against === undefined || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmup) || warmup < 0 || (checkPct !== undefined && !(checkPct >= 0)) || !Number.isInteger(turns) || turns < 0) {
  console.error("usage: bun scripts/bench/guard.ts --against REV [--runs N] [--warmup N] [--turns N] [--check PCT] [--pig PATH] [--no-session]");
  process.exit(2);
}
const current = requirePig({ pigBin: values.pig });
const commit = git(["rev-parse", "--verify", `${values.against}^{commit}`]);
const older = buildAt(commit);
const args = values["no-session"] ? ["--no-session", "-p", "hello"] : ["-p", "hello"];
const race = await racePig([older, current], args, runs, warmup);

const label = `${values.against} (${commit.slice(0, 9)})`;
console.log(`| metric | ${label} | this build | difference |\n|---|---|---|---|`);
const slower: string[] = [];
for (const metric of RACE_METRICS) {
  const before = medianOf(race.samples[0]!, metric.pick);
  const after = medianOf(race.samples[1]!, metric.pick);
  const pct = ((after - before) / before) * 100;
  console.log(`| ${metric.label} | ${before.toFixed(1)} ${metric.unit} | ${after.toFixed(1)} ${metric.unit} | ${pct >= 0 ? "+" : ""}${pct.toFixed(1)} % |`);
  const guarded = metric.label === "wall time" || metric.label.startsWith("CPU");
  if (guarded && checkPct !== undefined && pct > checkPct) slower.push(`${metric.label} +${pct.toFixed(1)} %`);
}
if (turns > 0) {
  // The same binaries on a tool loop; a turn's CPU is the loop's CPU less the one-turn run's, over the turns.
  const loop = await racePig([older, current], args, runs, warmup, turns);
  const perTurn = (i: number) => ({
    gap: medianOf(loop.samples[i]!, (s) => s.turnGapMs ?? Number.NaN),
    cpu: (medianOf(loop.samples[i]!, (s) => s.cpuMs) - medianOf(race.samples[i]!, (s) => s.cpuMs)) / turns,
  });
  const [before, after] = [perTurn(0), perTurn(1)];
  for (const [label, a, b] of [[`${turns} \`bash true\` turns: request → request (median gap)`, before.gap, after.gap], ["CPU a turn adds over `-p hello` (pig and the shell it starts)", before.cpu, after.cpu]] as const) {
    const pct = ((b - a) / a) * 100;
    console.log(`| ${label} | ${a.toFixed(2)} ms | ${b.toFixed(2)} ms | ${pct >= 0 ? "+" : ""}${pct.toFixed(1)} % |`);
    if (label.includes("request → request") && checkPct !== undefined && pct > checkPct) slower.push(`turn gap +${pct.toFixed(1)} %`);
  }
}
console.log(`\nMedians of ${runs} interleaved rounds after ${warmup} unmeasured; peak RSS from GNU time's %M, CPU from each run's rusage.`);
for (const command of race.commands) console.log(`- \`${command}\``);
if (slower.length > 0) {
  console.log(`\nslower than ${label} by more than ${checkPct} %: ${slower.join(", ")}`);
  process.exit(1);
}

function git(argv: readonly string[]): string {
  const proc = Bun.spawnSync(["git", ...argv], { cwd: ROOT, stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`git ${argv.join(" ")}: ${proc.stderr.toString().trim()}`);
  return proc.stdout.toString().trim();
}

/**
 * pig as built at `commit`, from the cache when it is there: the commit's tree (`git archive`)
 * with this checkout's node_modules hard-linked in, built by that commit's own `npm run build`.
 */
function buildAt(commit: string): string {
  const cache = userDir(tmpdir(), "pig-guard-builds");
  const binary = join(cache, commit, "pig");
  if (existsSync(binary)) return binary;
  const tree = mkdtempSync(join(cache, `build-${commit.slice(0, 9)}-`));
  try {
    console.error(`[guard] building ${commit} in ${tree}`);
    const archive = Bun.spawnSync(["sh", "-c", `git archive ${commit} | tar -x -C '${tree}'`], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
    if (archive.exitCode !== 0) throw new Error(`git archive ${commit} failed`);
    const link = Bun.spawnSync(["cp", "-al", join(ROOT, "node_modules"), join(tree, "node_modules")], { stdout: "inherit", stderr: "inherit" });
    if (link.exitCode !== 0) throw new Error("hard-linking node_modules failed");
    const build = Bun.spawnSync(["npm", "run", "--silent", "build"], { cwd: tree, stdout: "ignore", stderr: "inherit" });
    if (build.exitCode !== 0) throw new Error(`building ${commit} failed`);
    rmSync(join(cache, commit), { recursive: true, force: true });
    renameSync(join(tree, "dist"), join(cache, commit));
    return binary;
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
