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
// Options: --only SUBSTRING (packages whose name contains it), --json FILE (the raw observations),
// --write-docs (replace the table in docs/packages.md), --verbose (each agent's stderr), --keep
// (keep the temp dirs). Needs the npm registry; not part of `npm test`. Pi and Node 22 are
// installed into $TMPDIR by scripts/bench/pi-install.ts.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type FakeLlm, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { ensurePi, PI_RELEASE_NAMES, type PiRelease } from "../bench/pi-install.ts";
import { type Command, compareEffects, effectOf, type Observation, summariseEffect } from "./compare-observations.ts";
import { differencesCell, replaceDocsTable, runLine } from "./compat-table.ts";
import { explainedDifferences } from "./known-differences.ts";
import { type Agent, makeWorld, observe, placeholders, removeWorld, runIn } from "./observe-agent.ts";
import { SUBJECTS } from "./pi-package-subjects.ts";

const { values: argv } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    pi: { type: "string", default: "latest" },
    only: { type: "string" },
    json: { type: "string" },
    "write-docs": { type: "boolean", default: false },
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

async function installAndObserve(llm: FakeLlm, agent: Agent, subject: { name: string; version: string } | undefined, baseline?: Observation): Promise<Result> {
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

const llm = await startFakeLlm({ mode: "text" });
const rows: string[] = [];
const raw: { name: string; version: string; pig: Result; pi: Result }[] = [];
let baselines: { pig: Result; pi: Result } | undefined;
let sameCount = 0;
let explainedCount = 0;
const subjects = argv.only ? SUBJECTS.filter((s) => s.name.includes(argv.only!)) : SUBJECTS;
try {
  const baseline = { pi: await installAndObserve(llm, "pi", undefined), pig: await installAndObserve(llm, "pig", undefined) };
  baselines = baseline;
  for (const subject of subjects) {
    const piRun = await installAndObserve(llm, "pi", subject, baseline.pi.observation);
    const pigRun = await installAndObserve(llm, "pig", subject, baseline.pig.observation);
    raw.push({ name: subject.name, version: subject.version, pig: pigRun, pi: piRun });
    if (argv.verbose) console.error(`--- ${subject.name}\n[pi] ${piRun.observation?.stderr ?? ""}\n[pig] ${pigRun.observation?.stderr ?? ""}`);
    const label = `\`${subject.name}@${subject.version}\``;
    let piSide: string;
    let pigSide: string;
    if (piRun.installProblem || !piRun.observation) {
      piSide = `Pi could not install it: ${piRun.installProblem ?? "?"}`;
      pigSide = pigRun.installProblem ? `could not install it either: ${pigRun.installProblem}` : "–";
    } else if (pigRun.installProblem || !pigRun.observation) {
      piSide = summariseEffect(effectOf(piRun.observation, baseline.pi.observation!, piRun.at, baseline.pi.at));
      pigSide = `**pig could not install it**: ${pigRun.installProblem ?? "?"}`;
    } else {
      const piEffect = effectOf(piRun.observation, baseline.pi.observation!, piRun.at, baseline.pi.at);
      const pigEffect = effectOf(pigRun.observation, baseline.pig.observation!, pigRun.at, baseline.pig.at);
      const registered = [`skills: ${names(piEffect.commands, "skill")}`, `prompts: ${names(piEffect.commands, "prompt")}`].join("; ");
      piSide = piEffect.loaded ? `${summariseEffect(piEffect) || "nothing observable over RPC"}; ${registered}` : `does not load: ${piEffect.problem ?? "?"}`;
      const explained = explainedDifferences(subject.name, compareEffects(pigEffect, piEffect));
      pigSide = differencesCell(explained);
      if (pigSide === "the same") sameCount++;
      else if (explained.unexplained.length === 0) explainedCount++;
    }
    rows.push(`| ${label} | ${piSide} | ${pigSide} |`);
    console.error(`[compat] ${subject.name}@${subject.version}: ${pigSide}`);
  }
} finally {
  await llm.close();
}
if (argv.json) writeFileSync(argv.json, JSON.stringify({ pi: pi.version, baseline: baselines, packages: raw }, null, 2));

const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const table = [
  runLine(`node_modules/.bin/bun scripts/compat/pi-packages.ts${release === "latest" ? "" : ` --pi ${release}`}`, `Pi ${pi.version} and the npm registry`, minutes),
  "",
  `| package | what it does under Pi ${pi.version} | under pig |`,
  "|---|---|---|",
  ...rows,
  "",
  `${subjects.length} packages; ${sameCount} do the same under pig as under Pi, ${explainedCount} more differ only where docs/decisions.md says why.`,
].join("\n");
console.log(table);
if (argv["write-docs"] && !argv.only) replaceDocsTable("docs/packages.md", "pi-packages", table);
