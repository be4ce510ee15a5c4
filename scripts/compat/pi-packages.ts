// Installs real pi packages from the npm registry, pinned, the way a user would (`pig install
// npm:NAME@VERSION`, and `pi install …` with upstream Pi), then compares what each package does
// relative to each agent's own baseline run (nothing installed), as pi-extensions.ts does for the
// examples: registrations (commands, skills, prompt templates, tools, flags), the system prompt,
// the first request, UI calls, extension errors and its tools' error flags. Prints the Markdown
// of docs/packages.md.
//
//   npm run build && node_modules/.bin/bun scripts/compat/pi-packages.ts              # Pi's latest release
//   node_modules/.bin/bun scripts/compat/pi-packages.ts --pi 0.87.1
//
// Options: --only SUBSTRING (packages whose name contains it), --jobs N (packages compared at
// once, 2 by default), --from-json FILE (compare a saved --json run again, starting nothing),
// --json FILE (the raw observations),
// --write-docs (replace the table in docs/packages.md), --verbose (each agent's stderr), --keep
// (keep the temp dirs). Needs the npm registry; not part of `npm test`. Pi and Node 22 are
// installed into $TMPDIR by scripts/bench/pi-install.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { FakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { ensurePi, PI_RELEASE_NAMES, type PiRelease } from "../bench/pi-install.ts";
import { type Command, compareEffects, effectOf, type Observation, summariseEffect } from "./compare-observations.ts";
import { differencesCell, replaceDocsTable, runLine, type RunTime, runTime } from "./compat-table.ts";
import { explainedDifferences } from "./known-differences.ts";
import { type Agent, makeWorld, observe, placeholders, ranOutOfTime, removeWorld, runIn } from "./observe-agent.ts";
import { SUBJECTS } from "./pi-package-subjects.ts";
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

interface Result {
  /** Why the install failed, if it did. */
  installProblem?: string;
  observation?: Observation;
  at: { world: string; install: string };
}

/** installOnce, again (twice at most) when the run ran out of time. */
async function installAndObserve(llm: FakeLlm, agent: Agent, subject: { name: string; version: string } | undefined, baseline?: Observation): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    const result = await installOnce(llm, agent, subject, baseline);
    if (!result.observation || !ranOutOfTime(result.observation) || attempt >= 3) return result;
    console.error(`[compat] ${subject?.name ?? "baseline"} under ${agent}: ${result.observation.problem}; once more`);
  }
}

async function installOnce(llm: FakeLlm, agent: Agent, subject: { name: string; version: string } | undefined, baseline?: Observation): Promise<Result> {
  const world = makeWorld(llm, agent, pi);
  const at = placeholders(world, pi);
  try {
    if (subject) {
      const source = `npm:${subject.name}@${subject.version}`;
      const { PI_OFFLINE: _offline, ...online } = world.env;
      const installed = await runIn({ ...world, env: online }, [...world.command, "install", source]);
      if (installed.code !== 0) {
        const tail = `${installed.stdout}\n${installed.stderr}`.trim().split("\n").slice(-3).join(" / ");
        return { installProblem: `install exited ${installed.code}: ${tail}`, at };
      }
    }
    const settledBy = agent === "pi" && release === "0.73.1" ? "agent_end" : "agent_settled";
    return { observation: await observe(llm, world, [], { settledBy, ...(baseline ? { baselineTools: baseline.tools } : {}) }), at };
  } finally {
    if (argv.keep) console.error(`[compat] kept ${world.work}`);
    else removeWorld(world);
  }
}

const names = (commands: Command[], source: string) =>
  commands
    .filter((c) => c.source === source)
    .map((c) => c.name.replace(/^skill:/, ""))
    .join(", ") || "–";

interface Compared {
  name: string;
  version: string;
  pig: Result;
  pi: Result;
}
interface Row {
  line: string;
  same: boolean;
  explained: boolean;
}

function row(r: Compared, baseline: { pig: Result; pi: Result }): Row {
  const label = `\`${r.name}@${r.version}\``;
  const effect = (run: Result, base: Result) => effectOf(run.observation!, base.observation!, run.at, base.at);
  if (r.pi.installProblem || !r.pi.observation) {
    const pigSide = r.pig.installProblem ? `could not install it either: ${r.pig.installProblem}` : "–";
    return { line: `| ${label} | Pi could not install it: ${r.pi.installProblem ?? "?"} | ${pigSide} |`, same: false, explained: false };
  }
  const piEffect = effect(r.pi, baseline.pi);
  const registered = [`skills: ${names(piEffect.commands, "skill")}`, `prompts: ${names(piEffect.commands, "prompt")}`].join("; ");
  const piSide = piEffect.loaded ? `${summariseEffect(piEffect) || "nothing observable over RPC"}; ${registered}` : `does not load: ${piEffect.problem ?? "?"}`;
  if (r.pig.installProblem || !r.pig.observation) return { line: `| ${label} | ${piSide} | **pig could not install it**: ${r.pig.installProblem ?? "?"} |`, same: false, explained: false };
  const explained = explainedDifferences(r.name, compareEffects(effect(r.pig, baseline.pig), piEffect));
  const pigSide = differencesCell(explained);
  return { line: `| ${label} | ${piSide} | ${pigSide} |`, same: pigSide === "the same", explained: pigSide !== "the same" && explained.unexplained.length === 0 };
}

const subjects = argv.only ? SUBJECTS.filter((s) => s.name.includes(argv.only!)) : SUBJECTS;
let baseline: { pig: Result; pi: Result };
let compared: Compared[];
let savedTime: RunTime | undefined;
if (argv["from-json"]) {
  // A saved run (--json), compared again: no agent is started.
  const saved = JSON.parse(readFileSync(argv["from-json"], "utf8")) as { time?: RunTime; baseline: typeof baseline; packages: Compared[] };
  baseline = saved.baseline;
  savedTime = saved.time;
  compared = saved.packages.filter((p) => subjects.some((s) => s.name === p.name));
} else {
  baseline = await withLlms(async (llms) => {
    const [piRun, pigRun] = await Promise.all([installAndObserve(llms.pi, "pi", undefined), installAndObserve(llms.pig, "pig", undefined)]);
    return { pi: piRun, pig: pigRun };
  });
  compared = await inWorkers(subjects, Number(argv.jobs), async (subject, llms) => {
    const [piRun, pigRun] = await Promise.all([
      installAndObserve(llms.pi, "pi", subject, baseline.pi.observation),
      installAndObserve(llms.pig, "pig", subject, baseline.pig.observation),
    ]);
    if (argv.verbose) console.error(`--- ${subject.name}\n[pi] ${piRun.observation?.stderr ?? ""}\n[pig] ${pigRun.observation?.stderr ?? ""}`);
    const result = { name: subject.name, version: subject.version, pig: pigRun, pi: piRun };
    console.error(`[compat] ${row(result, baseline).line}`);
    return result;
  });
}
const time = savedTime ?? runTime(started);
if (argv.json) writeFileSync(argv.json, JSON.stringify({ pi: pi.version, time, baseline, packages: compared }, null, 2));
const rows = compared.map((r) => row(r, baseline));
const count = (test: (r: Row) => boolean) => rows.filter(test).length;

const table = [
  runLine(`node_modules/.bin/bun scripts/compat/pi-packages.ts${release === "latest" ? "" : ` --pi ${release}`}`, `Pi ${pi.version} and the npm registry`, time),
  "",
  `| package | what it does under Pi ${pi.version} | under pig |`,
  "|---|---|---|",
  ...rows.map((r) => r.line),
  "",
  `${rows.length} packages; ${count((r) => r.same)} do the same under pig as under Pi, ${count((r) => r.explained)} more differ only where the table says why (docs/decisions.md or the subject itself).`,
].join("\n");
console.log(table);
if (argv["write-docs"] && !argv.only) replaceDocsTable("docs/packages.md", "pi-packages", table);
