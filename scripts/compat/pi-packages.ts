// Installs real pi packages from the npm registry, pinned, the way a user would (`pig install
// npm:NAME@VERSION`, and `pi install …` with upstream Pi 0.87.1), then compares what each agent
// registers from them (extension commands, skills, prompt templates, tools with their schemas,
// flags) and what one scripted prompt sends. Prints a Markdown table (the one in docs/packages.md).
//
//   npm run build && node_modules/.bin/bun scripts/compat/pi-packages.ts
//
// Options: --only SUBSTRING (packages whose name contains it), --json FILE (the raw results),
// --verbose (each agent's stderr), --keep (keep the temp dirs). Needs the npm registry; not part
// of `npm test`. Pi and Node 22 are installed into $TMPDIR by scripts/bench/pi-install.ts.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type FakeLlm, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { ensurePi } from "../bench/pi-install.ts";
import { SUBJECTS } from "./pi-package-subjects.ts";
import { type Agent, type Command, makeWorld, observe, type Observed, removeWorld, runIn, same, withoutBaseline } from "./observe-agent.ts";


const { values: argv } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    only: { type: "string" },
    json: { type: "string" },
    verbose: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});

const pi = ensurePi("0.87.1");

interface Result {
  name: string;
  version: string;
  /** Why the install failed, if it did. */
  installProblem?: string;
  observed?: Observed;
}

async function installAndObserve(llm: FakeLlm, agent: Agent, subject: { name: string; version: string } | undefined): Promise<Result> {
  const world = makeWorld(llm, agent, pi);
  const name = subject?.name ?? "(none)";
  const version = subject?.version ?? "";
  try {
    if (subject) {
      const source = `npm:${subject.name}@${subject.version}`;
      const { PI_OFFLINE: _offline, ...online } = world.env;
      const installed = await runIn({ ...world, env: online }, [...world.command, "install", source]);
      if (installed.code !== 0) {
        const tail = `${installed.stdout}\n${installed.stderr}`.trim().split("\n").slice(-3).join(" / ");
        return { name, version, installProblem: `install exited ${installed.code}: ${tail}` };
      }
    }
    return { name, version, observed: await observe(llm, world, []) };
  } finally {
    if (argv.keep) console.error(`[compat] kept ${world.work}`);
    else removeWorld(world);
  }
}

const names = (commands: Command[], source: string) =>
  commands
    .filter((c) => c.source === source)
    .map((c) => c.name)
    .join(", ") || "–";

function registered(run: Observed): string {
  const tools = Object.keys(run.tools).filter((t) => run.tools[t] !== "(built-in)");
  const parts = [
    `commands: ${names(run.commands, "extension")}`,
    `skills: ${names(run.commands, "skill").replaceAll("skill:", "")}`,
    `prompts: ${names(run.commands, "prompt")}`,
    `tools: ${tools.join(", ") || "–"}`,
  ];
  if (run.flags.length > 0) parts.push(`flags: ${run.flags.map((f) => `--${f}`).join(", ")}`);
  return parts.join("; ");
}

function differences(pig: Observed, piRun: Observed): string[] {
  const out: string[] = [];
  for (const source of ["extension", "skill", "prompt"]) {
    if (names(pig.commands, source) !== names(piRun.commands, source)) out.push(`${source} commands: ${names(pig.commands, source)} vs ${names(piRun.commands, source)}`);
  }
  const pigTools = Object.keys(pig.tools).sort();
  const piTools = Object.keys(piRun.tools).sort();
  if (!same(pigTools, piTools)) out.push(`tools: ${pigTools.join(",")} vs ${piTools.join(",")}`);
  else for (const tool of piTools) if (!same(pig.tools[tool], piRun.tools[tool])) out.push(`schema of ${tool}`);
  if (!same(pig.flags, piRun.flags)) out.push(`flags: ${pig.flags.join(",")} vs ${piRun.flags.join(",")}`);
  if (!same(pig.conversation, piRun.conversation)) out.push("the prompt's request differs");
  return out;
}

function verdict(pig: Result, piRun: Result): string {
  if (piRun.installProblem) return `Pi could not install it: ${piRun.installProblem}`;
  if (pig.installProblem) return `**pig could not install it**: ${pig.installProblem}`;
  if (!piRun.observed!.loaded) return `does not load in Pi either: ${piRun.observed!.problem}`;
  if (!pig.observed!.loaded) return `**does not load in pig**: ${pig.observed!.problem}`;
  const diffs = differences(pig.observed!, piRun.observed!);
  return diffs.length === 0 ? "the same" : `**differs**: ${diffs.join("; ")}`;
}

const llm = await startFakeLlm({ mode: "text" });
const results: { name: string; version: string; pig: Result; pi: Result }[] = [];
try {
  const baseline = { pi: await installAndObserve(llm, "pi", undefined), pig: await installAndObserve(llm, "pig", undefined) };
  const subjects = argv.only ? SUBJECTS.filter((s) => s.name.includes(argv.only!)) : SUBJECTS;
  for (const subject of subjects) {
    const piRun = await installAndObserve(llm, "pi", subject);
    const pigRun = await installAndObserve(llm, "pig", subject);
    if (piRun.observed) piRun.observed = withoutBaseline(piRun.observed, baseline.pi.observed!);
    if (pigRun.observed) pigRun.observed = withoutBaseline(pigRun.observed, baseline.pig.observed!);
    results.push({ name: subject.name, version: subject.version, pig: pigRun, pi: piRun });
    if (argv.verbose) console.error(`--- ${subject.name}\n[pi] ${piRun.observed?.stderr ?? ""}\n[pig] ${pigRun.observed?.stderr ?? ""}`);
    console.error(`[compat] ${subject.name}@${subject.version}: ${verdict(pigRun, piRun)}`);
  }
} finally {
  await llm.close();
}
if (argv.json) writeFileSync(argv.json, JSON.stringify(results, null, 2));

console.log(`| package | under Pi ${pi.version} | under pig |`);
console.log("|---|---|---|");
for (const r of results) {
  const piSide = r.pi.observed?.loaded ? registered(r.pi.observed) : (r.pi.installProblem ?? r.pi.observed?.problem ?? "?");
  const v = verdict(r.pig, r.pi);
  const pigSide = v === "the same" ? "the same" : r.pig.observed?.loaded ? `${registered(r.pig.observed)} (${v})` : v;
  console.log(`| \`${r.name}@${r.version}\` | ${piSide} | ${pigSide} |`);
}
const same_ = results.filter((r) => verdict(r.pig, r.pi) === "the same").length;
console.log(`\n${results.length} packages; ${same_} register the same under pig as under Pi.`);
