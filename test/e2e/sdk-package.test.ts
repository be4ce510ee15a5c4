/**
 * The SDK as the `pig-coding-agent` package ships it: built by scripts/build-sdk.ts, packed with
 * `npm pack`, installed with `npm install <tarball>` into a project of its own, then used from
 * Node 20 (the `node` on PATH) and Bun: `RpcClient` drives `dist/pig --mode rpc` (PIG_BINARY)
 * against the fake LLM server, a provider failure rejects `prompt()`, and the project's
 * `tsc --strict` (module nodenext) type-checks every exported name with no declarations of its own.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSdk } from "../../scripts/build-sdk.ts";
import { pigBinary } from "../helpers/binary.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";

const ROOT = join(import.meta.dir, "..", "..");

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(command: string[], cwd: string, env: Record<string, string | undefined>): Promise<Ran> {
  const proc = Bun.spawn(command, { cwd, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

function mustRun(ran: Ran, what: string): Ran {
  if (ran.code !== 0) throw new Error(`${what} failed (exit ${ran.code}):\n${ran.stdout}\n${ran.stderr}`);
  return ran;
}

/** The consumer project: the package installed from its tarball, TypeScript and Node's types beside it. */
let project: string;
let nodeEnv: Record<string, string>;

// A program as a user writes it: one prompt, the answer (or the failure) printed as JSON.
const ASK = `import { RpcClient, PromptError } from "pig-coding-agent";
const client = new RpcClient({ cwd: process.env.WORK_DIR });
await client.start();
try {
  const result = await client.prompt(process.argv[2] ?? "hi");
  console.log(JSON.stringify({ ok: true, text: result.text, disposition: result.disposition, events: result.events.length }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, name: error.name, kind: error.kind, message: error.message, isPromptError: error instanceof PromptError }));
} finally {
  await client.stop();
}
`;

// The session API on Node: the options as in process, the session in the pig process.
const SESSION = `import { createAgentSession } from "pig-coding-agent";
const session = await createAgentSession({ cwd: process.env.WORK_DIR, agentDir: process.env.AGENT_DIR, session: "memory", tools: ["read"], piglet: process.argv[2] });
let streamed = "";
session.subscribe((event) => {
  if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") streamed += event.assistantMessageEvent.delta;
});
const result = await session.prompt("hello");
const state = await session.getState();
const roles = (await session.getMessages()).map((m) => m.role);
await session.dispose();
console.log(JSON.stringify({ streamed, text: result.text, roles, sessionFile: state.sessionFile ?? null }));
`;

// Every exported name, used so that a wrong declaration is an error under "strict".
const CHECK = `import {
  RpcClient, RpcCommandError, RpcConnectionError, PromptError, findPigBinary, createAgentSession, sessionArgs,
  type CreateAgentSessionOptions, type RpcSession, type RpcSessionOptions,
  type AgentMessage, type BashResult, type Command, type CommandType, type CompactionReport, type ExtensionUiRequest,
  type ImageContent, type InputDisposition, type Model, type OutgoingCommand, type PromptFailureKind, type PromptOptions,
  type PromptResult, type RpcClientOptions, type RpcEvent, type RpcEventListener, type RpcResponse, type SessionEntry,
  type SessionState, type SessionStats, type SessionTreeNode, type SlashCommandInfo, type ThinkingLevel, type UiAnswer,
} from "pig-coding-agent";
import { agentDir, defaultSessionDir } from "pig-coding-agent/session-paths";
import type { ExtensionAPI, ExtensionContext } from "pig-coding-agent/extension";

const options: RpcClientOptions = { binary: findPigBinary(), args: ["--no-session"] };
const client = new RpcClient(options);
const listener: RpcEventListener = (event: RpcEvent) => {
  if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") process.stdout.write(event.assistantMessageEvent.delta);
  if (event.type === "extension_ui_request" && event.method === "confirm") client.respondToUi(event.id, { confirmed: true } satisfies UiAnswer);
};
client.onEvent(listener);
const image: ImageContent = { type: "image", data: "", mimeType: "image/png" };
const promptOptions: PromptOptions = { images: [image], signal: AbortSignal.timeout(1000) };
async function use(): Promise<void> {
  const result: PromptResult = await client.prompt("hi", promptOptions);
  const messages: AgentMessage[] = result.messages;
  const disposition: InputDisposition = result.disposition;
  const state: SessionState = await client.getState();
  const stats: SessionStats = await client.getSessionStats();
  const models: Model[] = await client.getAvailableModels();
  const level: ThinkingLevel = "high";
  await client.setThinkingLevel(level);
  const bash: BashResult = await client.bash("ls");
  const compacted: CompactionReport = await client.compact();
  const tree: SessionTreeNode[] = (await client.getTree()).tree;
  const entries: SessionEntry[] = (await client.getEntries()).entries;
  const commands: SlashCommandInfo[] = await client.getCommands();
  const command: OutgoingCommand = { type: "get_state" };
  const type: CommandType = command.type;
  const full: Command = { type: "abort", id: "x" };
  const response: RpcResponse = { type: "response", command: "abort", success: true };
  const request: ExtensionUiRequest = { type: "extension_ui_request", id: "1", method: "notify" };
  console.log(messages, disposition, state.isStreaming, stats.sessionId, models.length, bash.output, compacted.summary, tree, entries, commands, type, full, response, request);
}
try {
  await use();
} catch (error) {
  if (error instanceof PromptError) {
    const kind: PromptFailureKind = error.kind;
    console.log(kind, error.result.text);
  } else if (error instanceof RpcCommandError) {
    console.log(error.command);
  } else if (error instanceof RpcConnectionError) {
    console.log(error.exitCode, error.stderr);
  }
}
await client.stop();
const sessionOptions: CreateAgentSessionOptions = { session: "memory", tools: [], thinkingLevel: "low" };
const rpcOptions: RpcSessionOptions = { ...sessionOptions, binary: "/usr/local/bin/pig" };
const session: RpcSession = await createAgentSession(rpcOptions);
session.subscribe((event) => console.log(event.type));
console.log((await session.prompt("hi")).text, (await session.getStats()).sessionId, sessionArgs(sessionOptions));
await session.dispose();
console.log(agentDir(), defaultSessionDir("/tmp", agentDir()));
export default function extension(pi: ExtensionAPI): void {
  pi.on("session_start", (_event: unknown, ctx: ExtensionContext) => ctx.ui.notify("hi", "info"));
}
`;

const TSCONFIG = {
  compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", types: ["node"], noEmit: true },
  files: ["check.ts"],
};

beforeAll(async () => {
  const pkg = tempDir("pig-sdk-pkg-");
  const { packageFields } = await buildSdk(pkg);
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "pig-coding-agent", version: "0.0.0-test", license: "MIT", ...packageFields }, null, 2));
  const packed = tempDir("pig-sdk-tgz-");
  // A cache of its own: nothing the machine's npm cache holds (or lacks) changes what is installed.
  const npmEnv = { ...process.env, npm_config_cache: tempDir("pig-npm-cache-"), npm_config_update_notifier: "false" };
  mustRun(await run(["npm", "pack", "--pack-destination", packed], pkg, npmEnv), "npm pack");
  const [tarball] = readdirSync(packed);
  project = tempDir("pig-sdk-user-");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "sdk-user", private: true, type: "module" }));
  // Offline: the package's dependencies and the type checker come from pig's own node_modules.
  const local = ["valibot", "typebox", "typescript", "@types/node", "undici-types"].map((name) => join(ROOT, "node_modules", name));
  mustRun(await run(["npm", "install", "--offline", "--no-audit", "--no-fund", join(packed, tarball!), ...local], project, npmEnv), "npm install");
  writeFileSync(join(project, "ask.mjs"), ASK);
  writeFileSync(join(project, "session.mjs"), SESSION);
  writeFileSync(join(project, "check.ts"), CHECK);
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(TSCONFIG));
  // The `node` on PATH is Node 20; pig itself comes from PIG_BINARY.
  nodeEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: project, PIG_BINARY: pigBinary() };
}, 240_000);

async function ask(runtime: string, world: PigWorld, extraEnv: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const ran = await run([runtime, "ask.mjs", "hello"], project, { ...world.env, ...nodeEnv, WORK_DIR: world.cwd, ...extraEnv });
  expect(ran.stderr).toBe("");
  expect(ran.code).toBe(0);
  return JSON.parse(ran.stdout) as Record<string, unknown>;
}

describe("pig-coding-agent installed from its tarball", () => {
  test("Node 20: RpcClient.prompt() resolves with the answer", async () => {
    // The package's floor (engines: node >= 20); this machine's `node` is 20.
    const version = await run(["node", "--version"], project, nodeEnv);
    expect(Number(/^v(\d+)\./.exec(version.stdout)?.[1])).toBeGreaterThanOrEqual(20);
    const world = await createWorld({ llm: { script: [{ text: "Hello from the fake model." }] } });
    try {
      expect(await ask("node", world)).toMatchObject({ ok: true, text: "Hello from the fake model.", disposition: "started" });
      expect(world.llm.requests.length).toBe(1);
    } finally {
      await world.close();
    }
  });

  test("Node 20: a provider failure rejects prompt() with a PromptError naming its kind and the provider's text", async () => {
    const world = await createWorld({ llm: { script: [{ error: { status: 401, message: "invalid x-api-key" } }] } });
    try {
      const failed = await ask("node", world);
      expect(failed).toMatchObject({ ok: false, name: "PromptError", kind: "auth", isPromptError: true });
      expect(failed.message).toContain("invalid x-api-key");
    } finally {
      await world.close();
    }
  });

  test("Bun: the same program gets the answer", async () => {
    const world = await createWorld({ llm: { script: [{ text: "Hello under Bun." }] } });
    try {
      expect(await ask(process.execPath, world)).toMatchObject({ ok: true, text: "Hello under Bun.", disposition: "started" });
    } finally {
      await world.close();
    }
  });

  test("Node 20: createAgentSession runs the session in pig: events stream, the answer and the messages come back, nothing is written", async () => {
    const world = await createWorld({ llm: { script: [{ text: "Hello from a session." }] } });
    try {
      const ran = await run(["node", "session.mjs"], project, { ...nodeEnv, WORK_DIR: world.cwd, AGENT_DIR: world.agentDir });
      expect(ran.stderr).toBe("");
      expect(JSON.parse(ran.stdout)).toEqual({ streamed: "Hello from a session.", text: "Hello from a session.", roles: ["system", "user", "assistant"], sessionFile: null });
      const tools = (world.llm.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
      expect(tools).toEqual(["read"]);
    } finally {
      await world.close();
    }
  });

  test("Node 20: createAgentSession rejects with pig's own words when pig refuses an option", async () => {
    const world = await createWorld();
    try {
      const ran = await run(["node", "session.mjs", "no-such-piglet"], project, { ...nodeEnv, WORK_DIR: world.cwd, AGENT_DIR: world.agentDir });
      expect(ran.code).not.toBe(0);
      expect(ran.stderr).toContain("createAgentSession: pig did not start: pig rpc: pig exited with code");
      expect(ran.stderr).toContain("no-such-piglet");
      expect(world.llm.requests.length).toBe(0);
    } finally {
      await world.close();
    }
  });

  test("without PIG_BINARY, a binary package or pig on PATH, start() names each place it looked", async () => {
    const world = await createWorld();
    try {
      const ran = await run(["node", "ask.mjs"], project, { PATH: "/usr/bin:/bin", HOME: project, WORK_DIR: world.cwd });
      expect(ran.code).not.toBe(0);
      expect(ran.stderr).toContain("no pig binary found");
      expect(ran.stderr).toContain("PIG_BINARY (not set)");
      expect(ran.stderr).toMatch(/the package pig-coding-agent-linux-(x64|arm64)(-musl)? \(not installed\)/);
      expect(ran.stderr).toContain("pig on PATH (not found)");
    } finally {
      await world.close();
    }
  });

  // A type check of pig's message types takes a while on a busy machine: its own bound.
  test("tsc --strict with module nodenext type-checks a program using every exported name, with no declarations of its own", async () => {
    const ran = await run(["node", join(project, "node_modules/typescript/bin/tsc"), "-p", "."], project, nodeEnv);
    expect(ran.stdout + ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    // The names the program imports are all the package's values: a new export gets checked too.
    const loaded = await run(["node", "-e", 'import("pig-coding-agent").then((m) => console.log(Object.keys(m).sort().join(",")))'], project, nodeEnv);
    expect(loaded.stdout.trim()).toBe("PromptError,RpcClient,RpcCommandError,RpcConnectionError,createAgentSession,findPigBinary,sessionArgs");
  }, 180_000);
});
