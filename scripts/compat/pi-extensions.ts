// Runs every example extension shipped with upstream Pi under pig and under Pi itself, and
// compares what each registers (tools with their schemas, commands, flags) and what one scripted
// prompt sends to the model. Prints a Markdown table (the one in docs/extensions.md).
//
//   node_modules/.bin/bun scripts/compat/pi-extensions.ts               # Pi 0.87.1's examples
//   node_modules/.bin/bun scripts/compat/pi-extensions.ts --pi 0.73.1   # the older set
//
// Options: --only SUBSTRING (examples whose name contains it), --json FILE (the raw results),
// --verbose (each agent's stderr). Pi is installed into $TMPDIR by scripts/bench/pi-install.ts when
// missing; it is never a dependency of pig. The model is the in-process fake LLM server.
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type FakeLlm, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { ensurePi, type PiRelease } from "../bench/pi-install.ts";
import { type Agent, makeWorld, observe, type Observed, removeWorld, same, withoutBaseline } from "./observe-agent.ts";

const { values: argv } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    pi: { type: "string", default: "0.87.1" },
    only: { type: "string" },
    json: { type: "string" },
    verbose: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const release = argv.pi as PiRelease;
if (release !== "0.87.1" && release !== "0.73.1") throw new Error(`--pi must be 0.87.1 or 0.73.1, got ${argv.pi}`);

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

/** One example (or none) loaded with `-e`, in a world of its own. */
async function rpcRun(llm: FakeLlm, agent: Agent, example: string | undefined): Promise<Observed> {
  const world = makeWorld(llm, agent, pi);
  try {
    return await observe(llm, world, example ? ["-e", example] : []);
  } finally {
    if (!argv.keep) removeWorld(world);
  }
}

const extensionCommands = (run: Observed) => run.commands.filter((c) => c.source === "extension").map((c) => c.name);

function verdict(pigRun: Observed, piRun: Observed): { loads: string; registers: string; behaves: string } {
  if (!piRun.loaded) return { loads: `no (Pi too: ${piRun.problem ?? "?"})`, registers: "–", behaves: "–" };
  if (!pigRun.loaded) return { loads: `**no**: ${pigRun.problem ?? "?"}`, registers: "–", behaves: "–" };
  const diffs: string[] = [];
  if (!same(Object.keys(pigRun.tools).sort(), Object.keys(piRun.tools).sort())) diffs.push(`tools ${Object.keys(pigRun.tools).sort().join(",")} vs ${Object.keys(piRun.tools).sort().join(",")}`);
  else for (const name of Object.keys(piRun.tools)) if (!same(pigRun.tools[name], piRun.tools[name])) diffs.push(`schema of ${name}`);
  if (!same(extensionCommands(pigRun), extensionCommands(piRun))) diffs.push(`commands ${extensionCommands(pigRun).join(",")} vs ${extensionCommands(piRun).join(",")}`);
  if (!same(pigRun.flags, piRun.flags)) diffs.push(`flags ${pigRun.flags.join(",")} vs ${piRun.flags.join(",")}`);
  const behaves = same(pigRun.conversation, piRun.conversation) ? "yes" : "differs";
  return { loads: "yes", registers: diffs.length === 0 ? "yes" : `**no**: ${diffs.join("; ")}`, behaves };
}

const llm = await startFakeLlm({ mode: "text" });
const results: { name: string; pig: Observed; pi: Observed }[] = [];
try {
  const baseline = { pi: await rpcRun(llm, "pi", undefined), pig: await rpcRun(llm, "pig", undefined) };
  for (const example of examples()) {
    const piRun = withoutBaseline(await rpcRun(llm, "pi", example.path), baseline.pi);
    const pigRun = withoutBaseline(await rpcRun(llm, "pig", example.path), baseline.pig);
    results.push({ name: example.name, pig: pigRun, pi: piRun });
    if (argv.verbose) console.error(`--- ${example.name}\n[pi] ${piRun.stderr}\n[pig] ${pigRun.stderr}`);
    const v = verdict(pigRun, piRun);
    console.error(`[compat] ${example.name}: loads ${v.loads}; registers ${v.registers}; behaves ${v.behaves}`);
  }
} finally {
  await llm.close();
}
if (argv.json) writeFileSync(argv.json, JSON.stringify(results, null, 2));

console.log(`| example (Pi ${pi.version}) | loads | registers the same | same request |`);
console.log("|---|---|---|---|");
for (const r of results) {
  const v = verdict(r.pig, r.pi);
  console.log(`| ${r.name} | ${v.loads} | ${v.registers} | ${v.behaves} |`);
}
const counts = results.map((r) => verdict(r.pig, r.pi));
const piLoads = results.filter((r) => r.pi.loaded).length;
const equal = counts.filter((v) => v.registers === "yes").length;
console.log(`\n${results.length} examples; ${piLoads} load in Pi; ${counts.filter((v) => v.loads === "yes").length} of those load in pig; ${equal} register the same.`);
