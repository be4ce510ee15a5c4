// What one agent (pig's built binary, or upstream Pi) registers and sends, seen from outside:
// the extension flags in `--help`, `get_commands` over RPC, the first request one scripted prompt
// makes to the fake LLM server (system prompt, tools, messages, other fields), the UI calls and
// extension errors the agent reports on the way, and the error flag of each extension tool when
// the scripted model then calls it. Shared by the compatibility scripts that compare pig with Pi
// (pi-extensions.ts, pi-packages.ts); the comparison itself is compare-observations.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { FakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { fakeModelsJson } from "../../test/helpers/fake-models.ts";
import type { PiInstall } from "../bench/pi-install.ts";
import type { Command, ExtensionError, Observation, Placeholders, ToolDeclaration, ToolOutcome, UiCall } from "./compare-observations.ts";
import { collect, type Json, RpcSession } from "./rpc-session.ts";
import { sampleArguments } from "./sample-arguments.ts";

export type { Json } from "./rpc-session.ts";
export { collect } from "./rpc-session.ts";
export type Agent = "pig" | "pi";

export const PIG_BIN = join(resolve(import.meta.dir, "..", ".."), "dist", "pig");

/** A fresh agent dir and cwd for one run, and how to start the agent in them. */
export interface World {
  agent: Agent;
  work: string;
  agentDir: string;
  cwd: string;
  env: Record<string, string>;
  command: string[];
}

export function makeWorld(llm: FakeLlm, agent: Agent, pi: PiInstall): World {
  const work = mkdtempSync(join(tmpdir(), `pig-compat-${agent}-`));
  const agentDir = join(work, "agent");
  const cwd = join(work, "cwd");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(fakeModelsJson(llm.url, {}), null, 2));
  const settings: Json = { defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true, enableInstallTelemetry: false };
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings, null, 2));
  const env: Record<string, string> = {
    ...passedThrough(),
    PATH: `${pi.nodeBinDir}:${process.env.PATH ?? ""}`,
    HOME: work,
    // Pi installs user npm packages into npm's global prefix: keep that inside the world.
    npm_config_prefix: join(work, "npm-global"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    ...(agent === "pig"
      ? { PIG_CODING_AGENT_DIR: agentDir }
      : { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" }),
  };
  const command = agent === "pig" ? [PIG_BIN] : [...pi.cmd];
  return { agent, work, agentDir, cwd, env, command };
}

/**
 * What reaching the registry needs from this machine's environment (certificates, proxies, the
 * user's npm config), since each world has a HOME of its own.
 */
function passedThrough(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && /CERT|_CA_|CAINFO|PROXY/i.test(name)) out[name] = value;
  }
  const home = process.env.HOME;
  if (home) out.npm_config_userconfig = join(home, ".npmrc");
  return out;
}

export function removeWorld(world: World): void {
  rmSync(world.work, { recursive: true, force: true });
}

/** The names under "Extension CLI Flags:" (Pi) or pig's heading for the same in `--help`. */
function flagsFromHelp(help: string): string[] {
  const lines = help.split("\n");
  const start = lines.findIndex((l) => /^Extension (CLI )?[Ff]lags/.test(l.trim()));
  if (start < 0) return [];
  const out: string[] = [];
  // Up to the blank line that ends the section; pig follows each flag with a "from <file>" line.
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "") break;
    const m = /^\s+--([\w-]+)/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out.sort();
}

/** Runs `argv` in the world to its end, with its output. */
export async function runIn(world: World, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn(argv, { cwd: world.cwd, env: world.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const out = { text: "" };
  const err = { text: "" };
  await Promise.all([collect(child.stdout, out), collect(child.stderr, err)]);
  return { code: await child.exited, stdout: out.text, stderr: err.text };
}

/**
 * What differs between runs and agents in the world's text: its temp dir, and Pi's package (its
 * documentation in Pi's prompt; the examples, with their skills and files, under both agents).
 */
export function placeholders(world: World, pi: PiInstall): Placeholders {
  return { world: world.work, install: pi.pkgDir };
}

export interface ObserveOptions {
  /** The event that ends a run: `agent_settled` (0.87.1 and later, and pig), `agent_end` (0.73.1). */
  settledBy: "agent_settled" | "agent_end";
  /** The baseline's tools: any other tool (or one declared differently) is called by the scripted model. */
  baselineTools?: Record<string, ToolDeclaration>;
}

const PROMPT = "Say ok.";
/** Deadlines: long, since a loaded machine can take many seconds to start an agent with a package. */
const ANSWER_MS = 90_000;
const NO_ANSWER = "no answer to get_commands";
const UNFINISHED = "the prompt did not finish";

/** Whether a run ran out of time (rather than failing): worth running again. */
export function ranOutOfTime(observation: Observation): boolean {
  return observation.problem === NO_ANSWER || observation.problem === UNFINISHED;
}
const TOOLS_PROMPT = "Call each tool once.";

/** The text an `extension_ui_request` carries: every field but its id and type. */
function uiCall(line: Json, phase: string): UiCall {
  const { type: _type, id: _id, method, ...fields } = line;
  return { phase, method: String(method), fields };
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type?: string; text?: string }[] } | undefined)?.content;
  if (!Array.isArray(content)) return typeof result === "string" ? result : "";
  return content.map((c) => (c.type === "text" ? (c.text ?? "") : `[${c.type ?? "?"}]`)).join("");
}

/** The first request's parts, from the recorded body (Chat Completions, as models.json sets it). */
function firstRequest(body: unknown): Pick<Observation, "systemPrompt" | "tools" | "messages" | "requestFields"> {
  const { messages = [], tools: declared = [], ...requestFields } = (body ?? {}) as {
    messages?: { role: string; content: unknown }[];
    tools?: { function?: { name: string; description?: string; parameters: unknown } }[];
  } & Json;
  const system = messages.filter((m) => m.role === "system" || m.role === "developer");
  const tools: Record<string, ToolDeclaration> = {};
  for (const t of declared) if (t.function) tools[t.function.name] = { description: t.function.description ?? "", parameters: t.function.parameters };
  return {
    systemPrompt: system.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n\n"),
    tools,
    messages: messages
      .filter((m) => m.role !== "system" && m.role !== "developer")
      .map((m) => `${m.role}: ${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`),
    requestFields,
  };
}

/**
 * One RPC run in `world`: `--help`, get_commands, one prompt until the run settles, then (when the
 * world has tools the baseline does not) a prompt where the scripted model calls each of them.
 */
export async function observe(llm: FakeLlm, world: World, extraArgs: string[], options: ObserveOptions): Promise<Observation> {
  const base = [...world.command, ...extraArgs, "--provider", "fake", "--model", "fake-model"];
  const help = await runIn(world, [...base, "--help"]);
  // 0.73.1 prints its help on stderr, later releases on stdout.
  const flags = flagsFromHelp(`${help.stdout}\n${help.stderr}`);

  const before = llm.requests.length;
  const rpc = new RpcSession([...base, "--mode", "rpc", "--no-session"], world.cwd, world.env);
  const phases: { phase: string; from: number }[] = [{ phase: "start", from: 0 }];
  const enter = (phase: string) => phases.push({ phase, from: rpc.lines.length });
  const settled = (from: number, id: string) => () =>
    rpc.lines.slice(from).some((l) => l.type === options.settledBy) || rpc.lines.some((l) => l.id === id && l.success === false);

  rpc.send({ id: "c", type: "get_commands" });
  const gotCommands = await rpc.until(() => rpc.lines.some((l) => l.type === "response" && l.id === "c"), ANSWER_MS);
  const commandsLine = rpc.lines.find((l) => l.type === "response" && l.id === "c");
  const commands: Command[] = ((commandsLine?.data as { commands?: Json[] } | undefined)?.commands ?? [])
    .map((c) => ({ name: String(c.name), source: String(c.source) }))
    .sort((a, b) => `${a.source} ${a.name}`.localeCompare(`${b.source} ${b.name}`));
  let problem: string | undefined;
  if (!gotCommands) problem = rpc.exited ? `exited before answering (${rpc.stderr.text.trim().split("\n").slice(-1)[0] ?? ""})` : NO_ANSWER;
  let request: Pick<Observation, "systemPrompt" | "tools" | "messages" | "requestFields"> = firstRequest(undefined);
  if (!problem) {
    enter("prompt");
    rpc.send({ id: "p", type: "prompt", message: PROMPT });
    if (!(await rpc.until(settled(rpc.lines.length, "p"), ANSWER_MS))) problem = UNFINISHED;
    request = firstRequest(llm.requests.slice(before).find((r) => r.body && typeof r.body === "object")?.body);
  }
  const toCall = options.baselineTools
    ? Object.entries(request.tools).filter(([name, declaration]) => JSON.stringify(declaration) !== JSON.stringify(options.baselineTools![name]))
    : [];
  if (!problem && toCall.length > 0 && !rpc.exited) {
    // One call per turn, in a fixed order, so both agents run the same calls one after another.
    llm.setScript({
      responses: toCall.map(([name, declaration], i) => ({ toolCalls: [{ id: `call_${i + 1}`, name, arguments: sampleArguments(declaration.parameters) }] })),
      fallback: { text: "ok" },
    });
    enter("tools");
    rpc.send({ id: "t", type: "prompt", message: TOOLS_PROMPT });
    await rpc.until(settled(rpc.lines.length, "t"), ANSWER_MS + 10_000 * toCall.length);
    // Back to "ok" for everything, whatever the run left unconsumed.
    llm.setScript({ responses: [], fallback: { text: "ok" } });
  }
  await rpc.stop();

  const phaseAt = (index: number) => phases.filter((p) => p.from <= index).at(-1)!.phase;
  const ui = rpc.lines.flatMap((l, i) => (l.type === "extension_ui_request" ? [uiCall(l, phaseAt(i))] : []));
  const errors: ExtensionError[] = rpc.lines.filter((l) => l.type === "extension_error").map((l) => ({ event: String(l.event), error: String(l.error) }));
  const stderr = `${help.stderr}${rpc.stderr.text}`;
  const loadError = /Failed to load extension[^\n]*/.exec(stderr)?.[0];
  if (loadError) errors.unshift({ event: "load", error: loadError });
  const toolOutcomes: Record<string, ToolOutcome> = {};
  for (const l of rpc.lines) {
    if (l.type === "tool_execution_end" && typeof l.toolName === "string" && !(l.toolName in toolOutcomes) && toCall.some(([name]) => name === l.toolName)) {
      toolOutcomes[l.toolName] = { isError: l.isError === true, text: textOf(l.result) };
    }
  }
  return {
    loaded: !loadError && gotCommands,
    ...(loadError ? { problem: loadError } : problem ? { problem } : {}),
    ...request,
    commands,
    flags,
    ui,
    errors,
    toolOutcomes,
    stderr,
  };
}
