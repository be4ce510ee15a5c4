// Runs every example extension shipped with upstream Pi under pig and under Pi itself, each in
// RPC mode against the fake LLM server, and compares what the extension does relative to each
// agent's own baseline run (no extension): the system prompt section by section, the tools
// declared to the model, the rest of the first request, commands and flags, the UI calls before
// and during the prompt, extension errors, and the error flag of each of its tools when the
// scripted model calls them (compare-observations.ts). Prints the Markdown of docs/extensions.md.
//
//   npm run build && node_modules/.bin/bun scripts/compat/pi-extensions.ts              # Pi's latest release
//   node_modules/.bin/bun scripts/compat/pi-extensions.ts --pi 0.87.1                   # an older set
//
// Options: --only SUBSTRING (examples whose name contains it), --jobs N (examples compared at
// once, 2 by default; pig and Pi run side by side in each), --json FILE (the raw observations),
// --from-json FILE (compare a saved --json run again, starting no agent),
// --write-docs (replace the table in docs/extensions.md), --verbose (each agent's stderr), --keep
// (keep the worlds). Pi is installed into $TMPDIR by scripts/bench/pi-install.ts when missing; it
// is never a dependency of pig.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { FakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { ensurePi, PI_RELEASE_NAMES, type PiRelease } from "../bench/pi-install.ts";
import { compareEffects, effectOf, type Observation, summariseEffect } from "./compare-observations.ts";
import { explainedDifferences } from "./known-differences.ts";
import { type Agent, makeWorld, observe, placeholders, ranOutOfTime, removeWorld } from "./observe-agent.ts";
import { differencesCell, replaceDocsTable, runLine, type RunTime, runTime } from "./compat-table.ts";
import { inWorkers, withLlms } from "./workers.ts";

const { values: argv } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    pi: { type: "string", default: "latest" },
    only: { type: "string" },
    json: { type: "string" },
    "write-docs": { type: "boolean", default: false },
    jobs: { type: "string", default: "2" },
    "from-json": { type: "string" },
    verbose: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const release = argv.pi as PiRelease;
if (!PI_RELEASE_NAMES.includes(release)) throw new Error(`--pi must be one of ${PI_RELEASE_NAMES.join(", ")}, got ${argv.pi}`);

const started = Date.now();
const pi = ensurePi(release);
const examplesDir = join(pi.pkgDir, "examples", "extensions");

/** Example entries: single files and directories with an index.ts. */
function examples(): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  for (const name of readdirSync(examplesDir).sort()) {
    const path = join(examplesDir, name);
    if (statSync(path).isDirectory()) {
      if (existsSync(join(path, "index.ts"))) out.push({ name: `${name}/`, path });
    } else if (/\.(ts|js|mjs)$/.test(name)) out.push({ name, path });
  }
  return argv.only ? out.filter((e) => e.name.includes(argv.only!)) : out;
}

interface Run {
  observation: Observation;
  at: { world: string; install: string };
}

/** One example (or none) loaded with `-e`, in a world of its own; again (twice at most) when it ran out of time. */
async function rpcRun(llm: FakeLlm, agent: Agent, example: string | undefined, baseline?: Run, attempt = 1): Promise<Run> {
  const world = makeWorld(llm, agent, pi);
  let run: Run;
  try {
    const settledBy = agent === "pi" && release === "0.73.1" ? "agent_end" : "agent_settled";
    const observation = await observe(llm, world, example ? ["-e", example] : [], { settledBy, ...(baseline ? { baselineTools: baseline.observation.tools } : {}) });
    run = { observation, at: placeholders(world, pi) };
  } finally {
    if (!argv.keep) removeWorld(world);
  }
  if (!ranOutOfTime(run.observation) || attempt >= 3) return run;
  console.error(`[compat] ${example ?? "baseline"} under ${agent}: ${run.observation.problem}; once more`);
  return rpcRun(llm, agent, example, baseline, attempt + 1);
}

/** What one example's row says, and its counts. */
interface Row {
  line: string;
  piLoads: boolean;
  pigLoads: boolean;
  same: boolean;
  explained: boolean;
}

function row(name: string, piRun: Run, pigRun: Run, baseline: { pi: Run; pig: Run }): Row {
  const piEffect = effectOf(piRun.observation, baseline.pi.observation, piRun.at, baseline.pi.at);
  const pigEffect = effectOf(pigRun.observation, baseline.pig.observation, pigRun.at, baseline.pig.at);
  const explained = explainedDifferences(name, compareEffects(pigEffect, piEffect));
  const loads = !piEffect.loaded ? `no, in Pi neither (${piEffect.problem ?? "?"})` : pigEffect.loaded ? "yes" : `**no**: ${pigEffect.problem ?? "?"}`;
  const does = piEffect.loaded ? summariseEffect(piEffect) || "nothing observable over RPC" : "–";
  const cell = piEffect.loaded && pigEffect.loaded ? differencesCell(explained) : "–";
  return {
    line: `| ${name} | ${loads} | ${does} | ${cell} |`,
    piLoads: piEffect.loaded,
    pigLoads: piEffect.loaded && pigEffect.loaded,
    same: piEffect.loaded && cell === "the same",
    explained: piEffect.loaded && pigEffect.loaded && cell !== "the same" && explained.unexplained.length === 0,
  };
}

const list = examples();
let baseline: { pi: Run; pig: Run };
let raw: { name: string; pig: Run; pi: Run }[];
let savedTime: RunTime | undefined;
if (argv["from-json"]) {
  // A saved run (--json), compared again: no agent is started.
  const saved = JSON.parse(readFileSync(argv["from-json"], "utf8")) as { time?: RunTime; baseline: typeof baseline; examples: typeof raw };
  baseline = saved.baseline;
  savedTime = saved.time;
  raw = list.flatMap((e) => saved.examples.filter((r) => r.name === e.name));
} else {
  baseline = await withLlms(async (llms) => {
    const [piRun, pigRun] = await Promise.all([rpcRun(llms.pi, "pi", undefined), rpcRun(llms.pig, "pig", undefined)]);
    return { pi: piRun, pig: pigRun };
  });
  raw = await inWorkers(list, Number(argv.jobs), async (example, llms) => {
    const [piRun, pigRun] = await Promise.all([rpcRun(llms.pi, "pi", example.path, baseline.pi), rpcRun(llms.pig, "pig", example.path, baseline.pig)]);
    if (argv.verbose) console.error(`--- ${example.name}\n[pi] ${piRun.observation.stderr}\n[pig] ${pigRun.observation.stderr}`);
    console.error(`[compat] ${row(example.name, piRun, pigRun, baseline).line}`);
    return { name: example.name, pig: pigRun, pi: piRun };
  });
}
// With the baselines and placeholders, so the comparison can be made again offline (--from-json).
const time = savedTime ?? runTime(started);
if (argv.json) writeFileSync(argv.json, JSON.stringify({ pi: pi.version, time, baseline, examples: raw }, null, 2));
const rows = raw.map((r) => row(r.name, r.pi, r.pig, baseline));

const count = (test: (r: Row) => boolean) => rows.filter(test).length;
const table = [
  runLine(`node_modules/.bin/bun scripts/compat/pi-extensions.ts${release === "latest" ? "" : ` --pi ${release}`}`, `Pi ${pi.version}`, time),
  "",
  `| example (Pi ${pi.version}) | loads | what it does under Pi | under pig |`,
  "|---|---|---|---|",
  ...rows.map((r) => r.line),
  "",
  `${rows.length} examples; ${count((r) => r.piLoads)} load in Pi; ${count((r) => r.pigLoads)} of those load in pig; ${count((r) => r.same)} do the same, ${count((r) => r.explained)} more differ only where the table says why (docs/decisions.md or the subject itself).`,
].join("\n");
console.log(table);
if (argv["write-docs"] && !argv.only) replaceDocsTable("docs/extensions.md", "pi-extensions", table);
