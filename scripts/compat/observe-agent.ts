// What one agent (pig's built binary, or upstream Pi) registers and sends, seen from outside:
// the extension flags in `--help`, `get_commands` over RPC, and the first request one scripted
// prompt makes to the fake LLM server (its tools with their schemas, its conversation). Shared by
// the compatibility scripts that compare pig with Pi (pi-extensions.ts, pi-packages.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { FakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { fakeModelsJson } from "../../test/helpers/fake-models.ts";
import type { PiInstall } from "../bench/pi-install.ts";

export type Json = Record<string, unknown>;
export type Agent = "pig" | "pi";

export const PIG_BIN = join(resolve(import.meta.dir, "..", ".."), "dist", "pig");

export interface Command {
  name: string;
  /** `extension`, `prompt` or `skill`. */
  source: string;
}

/** What one agent made of one set-up. */
export interface Observed {
  loaded: boolean;
  /** The load error or why the run did not finish. */
  problem?: string;
  tools: Record<string, unknown>;
  commands: Command[];
  flags: string[];
  /** Roles and texts of the request's messages after the prompt (system messages left out). */
  conversation: string[];
  stderr: string;
}

/** A fresh agent dir and cwd for one run, and how to start the agent in them. */
export interface World {
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
  return { work, agentDir, cwd, env, command };
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

export async function collect(stream: ReadableStream<Uint8Array>, into: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) into.text += decoder.decode(chunk, { stream: true });
}

/** Runs `argv` in the world to its end, with its output. */
export async function runIn(world: World, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn(argv, { cwd: world.cwd, env: world.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const out = { text: "" };
  const err = { text: "" };
  await Promise.all([collect(child.stdout, out), collect(child.stderr, err)]);
  return { code: await child.exited, stdout: out.text, stderr: err.text };
}

/** One RPC run in `world`: `--help`, get_commands, then one prompt until the run ends (or the deadline passes). */
export async function observe(llm: FakeLlm, world: World, extraArgs: string[]): Promise<Observed> {
  const base = [...world.command, ...extraArgs, "--provider", "fake", "--model", "fake-model"];
  const help = await runIn(world, [...base, "--help"]);
  // 0.73.1 prints its help on stderr, later releases on stdout.
  const flags = flagsFromHelp(`${help.stdout}\n${help.stderr}`);

  const before = llm.requests.length;
  const child = Bun.spawn([...base, "--mode", "rpc", "--no-session"], { cwd: world.cwd, env: world.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
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
    .map((c) => ({ name: String(c.name), source: String(c.source) }))
    .sort((a, b) => `${a.source} ${a.name}`.localeCompare(`${b.source} ${b.name}`));
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
  const loadError = /Failed to load extension[^\n]*/.exec(`${help.stderr}\n${stderr.text}`)?.[0];
  return {
    loaded: !loadError && gotCommands,
    ...(loadError ? { problem: loadError } : problem ? { problem } : {}),
    tools,
    commands,
    flags,
    conversation,
    stderr: `${help.stderr}${stderr.text}`,
  };
}

export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * What an agent registers with nothing added is left out of a comparison: its own commands, and
 * built-in tools left untouched (their schemas are each release's own; pig follows 0.87.1's).
 */
export function withoutBaseline(run: Observed, baseline: Observed): Observed {
  const tools: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(run.tools)) tools[name] = same(schema, baseline.tools[name]) ? "(built-in)" : schema;
  const known = new Set(baseline.commands.map((c) => `${c.source} ${c.name}`));
  return { ...run, tools, commands: run.commands.filter((c) => !known.has(`${c.source} ${c.name}`)) };
}
