// Packages: what the pinned registry pi packages of scripts/compat/pi-packages.ts cost at start.
// One world per agent holds all of them, installed the way a user does (`pig install npm:X@V`,
// `pi install npm:X@V` with Pi 0.87.1); then, in the same run and interleaved:
//   1. `-p hello` against the fake LLM server (in this process), without the packages (a world of
//      its own, the baseline) and with all of them: wall time and peak RSS of the largest process;
//   2. the time each agent took to install them all (one figure, from the install itself).
//
//   npm run build && node_modules/.bin/bun scripts/bench/packages.ts [--runs N] [--warmup N] [--keep]
//
// Needs the npm registry (installs every run). Not part of `npm test`.
import { parseArgs } from "node:util";
import { startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { SUBJECTS } from "../compat/pi-package-subjects.ts";
import { type Agent, makeWorld, removeWorld, runIn, type World } from "../compat/observe-agent.ts";
import { maxRss, medianMs, type Side, timeSides } from "./measure.ts";
import { ensurePi } from "./pi-install.ts";

const { values: argv } = parseArgs({
  args: Bun.argv.slice(2),
  options: { runs: { type: "string", default: "10" }, warmup: { type: "string", default: "2" }, keep: { type: "boolean", default: false } },
});
const runs = Number(argv.runs);
const warmup = Number(argv.warmup);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmup) || warmup < 0) throw new Error("--runs must be an integer ≥ 1 and --warmup ≥ 0");

const pi = ensurePi("0.87.1");
const llm = await startFakeLlm({ mode: "text" });
const worlds: World[] = [];

/** Installs every subject into `world`; the seconds it took. */
async function installAll(world: World, agent: Agent): Promise<number> {
  const { PI_OFFLINE: _offline, ...online } = world.env;
  const start = performance.now();
  for (const { name, version } of SUBJECTS) {
    const done = await runIn({ ...world, env: online }, [...world.command, "install", `npm:${name}@${version}`]);
    if (done.code !== 0) throw new Error(`${agent} install npm:${name}@${version} exited ${done.code}:\n${done.stderr.slice(-1500)}`);
    process.stderr.write(`[bench] ${agent}: installed ${name}@${version}\n`);
  }
  return (performance.now() - start) / 1000;
}

const hello = (world: World): Side => ({
  cmd: [...world.command, "--provider", "fake", "--model", "fake-model", "--no-session", "-p", "hello"],
  opts: { env: world.env, cwd: world.cwd, rss: true },
});

try {
  const bare = { pig: makeWorld(llm, "pig", pi), pi: makeWorld(llm, "pi", pi) };
  const full = { pig: makeWorld(llm, "pig", pi), pi: makeWorld(llm, "pi", pi) };
  worlds.push(bare.pig, bare.pi, full.pig, full.pi);
  const installSeconds = { pi: await installAll(full.pi, "pi"), pig: await installAll(full.pig, "pig") };

  const sides = new Map<string, Side>([
    ["pig", hello(bare.pig)],
    ["pi", hello(bare.pi)],
    ["pig+packages", hello(full.pig)],
    ["pi+packages", hello(full.pi)],
  ]);
  const samples = await timeSides(`-p hello, ${SUBJECTS.length} packages`, sides, runs, warmup);
  const ms = (key: string) => medianMs(samples.get(key)!);
  const mb = (key: string) => maxRss(samples.get(key)!) / 1024 / 1024;
  const row = (what: string, pigKey: string, piKey: string, f: (k: string) => number, unit: string) =>
    `| ${what} | ${f(pigKey).toFixed(0)} ${unit} | ${f(piKey).toFixed(0)} ${unit} | ${(f(piKey) / f(pigKey)).toFixed(2)}× |`;
  console.log(`| ${SUBJECTS.length} pinned registry packages (${runs} runs, median) | pig | Pi 0.87.1 | Pi / pig |`);
  console.log("|---|---|---|---|");
  console.log(row("`-p hello`, no packages", "pig", "pi", ms, "ms"));
  console.log(row("`-p hello`, with the packages", "pig+packages", "pi+packages", ms, "ms"));
  console.log(row("peak RSS, no packages", "pig", "pi", mb, "MB"));
  console.log(row("peak RSS, with the packages", "pig+packages", "pi+packages", mb, "MB"));
  console.log(`| installing them all (once) | ${installSeconds.pig.toFixed(1)} s | ${installSeconds.pi.toFixed(1)} s | ${(installSeconds.pi / installSeconds.pig).toFixed(2)}× |`);
  console.log(`\nPeak RSS: the largest process of the run (GNU time), the highest of the runs. Packages: ${SUBJECTS.map((s) => `${s.name}@${s.version}`).join(", ")}.`);
} finally {
  await llm.close();
  for (const world of worlds) {
    if (argv.keep) console.error(`[bench] kept ${world.work}`);
    else removeWorld(world);
  }
}
