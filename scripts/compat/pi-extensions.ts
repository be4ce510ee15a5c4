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
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type FakeLlm, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { fakeModelsJson } from "../../test/helpers/fake-models.ts";
import { ensurePi, type PiRelease } from "../bench/pi-install.ts";

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

const REPO = resolve(import.meta.dir, "..", "..");
const PIG_BIN = join(REPO, "dist", "pig");
const pi = ensurePi(release);
const examplesDir = join(pi.pkgDir, "examples", "extensions");

type Json = Record<string, unknown>;
type Agent = "pig" | "pi";

/** What one agent made of one example. */
interface Observed {
  loaded: boolean;
  /** The load error or why the run did not finish. */
  problem?: string;
  tools: Record<string, unknown>;
  commands: string[];
  flags: string[];
  /** Roles and texts of the request's messages after the prompt (system messages left out). */
  conversation: string[];
  stderr: string;
}

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

function world(llm: FakeLlm, agent: Agent): { agentDir: string; cwd: string; env: Record<string, string>; command: string[] } {
  const work = mkdtempSync(join(tmpdir(), `pig-compat-ext-${agent}-`));
  const agentDir = join(work, "agent");
  const cwd = join(work, "cwd");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(fakeModelsJson(llm.url, {}), null, 2));
  const settings: Json = { defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true, enableInstallTelemetry: false };
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings, null, 2));
  const env: Record<string, string> = {
    PATH: `${pi.nodeBinDir}:${process.env.PATH ?? ""}`,
    HOME: work,
    ...(agent === "pig"
      ? { PIG_CODING_AGENT_DIR: agentDir }
      : { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" }),
  };
  const command = agent === "pig" ? [PIG_BIN] : [...pi.cmd];
  return { agentDir, cwd, env, command };
}

/** The names under "Extension CLI Flags:" (Pi) or pig's heading for the same in `--help`. */
function flagsFromHelp(help: string): string[] {
  const lines = help.split("\n");
  const start = lines.findIndex((l) => /^Extension (CLI )?[Ff]lags/.test(l.trim()));
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const m = /^\s+--([\w-]+)/.exec(line);
    if (!m) break;
    out.push(m[1]!);
  }
  return out.sort();
}

async function collect(stream: ReadableStream<Uint8Array>, into: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) into.text += decoder.decode(chunk, { stream: true });
}

/** One RPC run: get_commands, then one prompt until the run ends (or the deadline passes). */
async function rpcRun(llm: FakeLlm, agent: Agent, example: string | undefined): Promise<Observed> {
  const w = world(llm, agent);
  const base = [...w.command, ...(example ? ["-e", example] : []), "--provider", "fake", "--model", "fake-model"];
  const help = Bun.spawn([...base, "--help"], { cwd: w.cwd, env: w.env, stdout: "pipe", stderr: "pipe" });
  const helpOut = { text: "" };
  const helpErr = { text: "" };
  await Promise.all([collect(help.stdout, helpOut), collect(help.stderr, helpErr), help.exited]);
  // 0.73.1 prints its help on stderr, later releases on stdout.
  const flags = flagsFromHelp(`${helpOut.text}\n${helpErr.text}`);

  const before = llm.requests.length;
  const child = Bun.spawn([...base, "--mode", "rpc", "--no-session"], { cwd: w.cwd, env: w.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const stderr = { text: "" };
  void collect(child.stderr, stderr);
  const lines: Json[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        try {
          lines.push(JSON.parse(line) as Json);
        } catch {
          // Not a protocol line (an extension printing to stdout): ignored.
        }
        for (const wake of waiters) wake();
      }
    }
    for (const wake of waiters) wake();
  })();
  let exited = false;
  void child.exited.then(() => {
    exited = true;
    for (const wake of waiters) wake();
  });
  const until = async (test: () => boolean, ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (exited || Date.now() > deadline) return test();
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        setTimeout(wake, 200);
      });
    }
    return true;
  };
  const send = (command: Json) => child.stdin.write(`${JSON.stringify(command)}\n`);
  send({ id: "c", type: "get_commands" });
  const gotCommands = await until(() => lines.some((l) => l.type === "response" && l.id === "c"), 30_000);
  const commandsLine = lines.find((l) => l.type === "response" && l.id === "c");
  const commands = ((commandsLine?.data as { commands?: Json[] } | undefined)?.commands ?? [])
    .filter((c) => c.source === "extension")
    .map((c) => String(c.name))
    .sort();
  let problem: string | undefined;
  if (!gotCommands) problem = exited ? `exited before answering (${stderr.text.trim().split("\n").slice(-1)[0] ?? ""})` : "no answer to get_commands";
  if (!problem) {
    send({ id: "p", type: "prompt", message: "Say ok." });
    const ended = await until(() => lines.some((l) => l.type === "agent_end") || lines.some((l) => l.id === "p" && l.success === false), 30_000);
    if (!ended) problem = "the prompt did not finish";
  }
  child.kill("SIGTERM");
  await child.exited;
  const request = llm.requests.slice(before).find((r) => r.body && typeof r.body === "object");
  const body = (request?.body ?? {}) as { tools?: { function?: { name: string; parameters: unknown } }[]; messages?: { role: string; content: unknown }[] };
  const tools: Record<string, unknown> = {};
  for (const t of body.tools ?? []) if (t.function) tools[t.function.name] = t.function.parameters;
  const conversation = (body.messages ?? [])
    .filter((m) => m.role !== "system" && m.role !== "developer")
    .map((m) => `${m.role}: ${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`);
  const loadError = /Failed to load extension[^\n]*/.exec(`${helpErr.text}\n${stderr.text}`)?.[0];
  if (!argv.keep) rmSync(join(w.agentDir, ".."), { recursive: true, force: true });
  return {
    loaded: !loadError && gotCommands,
    ...(loadError ? { problem: loadError } : problem ? { problem } : {}),
    tools,
    commands,
    flags,
    conversation,
    stderr: `${helpErr.text}${stderr.text}`,
  };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function verdict(pigRun: Observed, piRun: Observed): { loads: string; registers: string; behaves: string } {
  if (!piRun.loaded) return { loads: `no (Pi too: ${piRun.problem ?? "?"})`, registers: "–", behaves: "–" };
  if (!pigRun.loaded) return { loads: `**no**: ${pigRun.problem ?? "?"}`, registers: "–", behaves: "–" };
  const diffs: string[] = [];
  if (!same(Object.keys(pigRun.tools).sort(), Object.keys(piRun.tools).sort())) diffs.push(`tools ${Object.keys(pigRun.tools).sort().join(",")} vs ${Object.keys(piRun.tools).sort().join(",")}`);
  else for (const name of Object.keys(piRun.tools)) if (!same(pigRun.tools[name], piRun.tools[name])) diffs.push(`schema of ${name}`);
  if (!same(pigRun.commands, piRun.commands)) diffs.push(`commands ${pigRun.commands.join(",")} vs ${piRun.commands.join(",")}`);
  if (!same(pigRun.flags, piRun.flags)) diffs.push(`flags ${pigRun.flags.join(",")} vs ${piRun.flags.join(",")}`);
  const behaves = same(pigRun.conversation, piRun.conversation) ? "yes" : "differs";
  return { loads: "yes", registers: diffs.length === 0 ? "yes" : `**no**: ${diffs.join("; ")}`, behaves };
}

/**
 * What an agent registers with no extension at all is left out of the comparison: Pi's own
 * commands, and built-in tools the extension did not touch (their schemas are each release's
 * own; pig follows 0.87.1's).
 */
function withoutBaseline(run: Observed, baseline: Observed): Observed {
  const tools: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(run.tools)) tools[name] = same(schema, baseline.tools[name]) ? "(built-in)" : schema;
  return { ...run, tools, commands: run.commands.filter((c) => !baseline.commands.includes(c)) };
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
