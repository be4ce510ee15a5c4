/**
 * pig as a library: `createAgentSession` gives a program the agent pig runs — same sessions,
 * tools, events and settings — in-process. The session store and context builder are exported
 * on their own for programs that only read sessions.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import type { SessionState, SessionStats } from "./agent/session-report.ts";
import type { PigEvent } from "./agent/events.ts";
import type { NavigateOptions, NavigateResult } from "./agent/navigate.ts";
import type { AgentSession } from "./agent/session.ts";
import type { Model } from "./ai/types.ts";
import type { RuntimeConfig, SessionChoice } from "./runtime/config.ts";
import { createRuntime } from "./runtime/create.ts";
import type { AgentMessage, ThinkingLevel } from "./session/format.ts";
import type { CreateAgentSessionOptions } from "./sdk/session-options.ts";
import type { JsonSchema } from "./ai/types.ts";
import type { AnyTool, ToolContext, ToolResult } from "./tools/types.ts";

export { SessionStore } from "./session/store.ts";
export { buildSessionContext, buildSessionContext as buildContext } from "./session/context.ts";
export { convertToLlm } from "./session/convert.ts";
export { listSessions, listAllSessions } from "./session/catalog.ts";
export type { AgentMessage, SessionEntry, SessionHeader, ThinkingLevel } from "./session/format.ts";
export type { SessionContext } from "./session/context.ts";
export type { PigEvent, AgentEvent, LoopEvent, SessionEvent } from "./agent/events.ts";
export type { Model } from "./ai/types.ts";
export type { ToolResult, ToolContext } from "./tools/types.ts";
export type { SessionState, SessionStats } from "./agent/session-report.ts";
export type { CreateAgentSessionOptions } from "./sdk/session-options.ts";
export { RpcClient, RpcCommandError, RpcConnectionError, PromptError } from "./sdk/index.ts";

type Image = { type: "image"; data: string; mimeType: string };

/** A tool a program adds: parameters as JSON Schema or as a valibot schema. */
export interface ToolSpecification<TArgs> {
  name: string;
  description: string;
  parameters: JsonSchema | v.GenericSchema<unknown, TArgs>;
  /** A line for the system prompt's tool list. */
  promptSnippet?: string;
  execute(args: TArgs, context: ToolContext & { signal: AbortSignal; toolCallId: string }): Promise<ToolResult | string>;
}

function isValibot(schema: unknown): schema is v.GenericSchema {
  return typeof schema === "object" && schema !== null && (schema as { kind?: unknown }).kind === "schema" && "~run" in schema;
}

/** Makes a tool from a specification (the model gets JSON Schema; valibot schemas also check the arguments). */
export function defineTool<TArgs>(spec: ToolSpecification<TArgs>): AnyTool {
  const valibot = isValibot(spec.parameters) ? spec.parameters : undefined;
  const parameters = valibot ? (toJsonSchema(valibot, { errorMode: "ignore" }) as JsonSchema) : (spec.parameters as JsonSchema);
  delete (parameters as { $schema?: unknown }).$schema;
  return {
    name: spec.name,
    label: spec.name,
    description: spec.description,
    parameters,
    ...(spec.promptSnippet ? { promptSnippet: spec.promptSnippet } : {}),
    async execute(toolCallId, args, signal, _onUpdate, context) {
      let checked = args as unknown as TArgs;
      if (valibot) {
        const result = v.safeParse(valibot, args);
        if (!result.success) throw new Error(`Invalid arguments for ${spec.name}: ${v.summarize(result.issues)}`);
        checked = result.output as TArgs;
      }
      const out = await spec.execute(checked, { ...context, signal, toolCallId });
      return typeof out === "string" ? { content: [{ type: "text", text: out }] } : out;
    },
  };
}

/** The agent, driven from code. Events are the ones `pig --mode json` prints. */
export interface PigSession {
  readonly agent: AgentSession;
  /** Sends `text` as a prompt the way typed input goes (extension commands, the input hook, skills and templates). */
  prompt(text: string, options?: { images?: Image[]; streamingBehavior?: "steer" | "followUp" }): Promise<void>;
  steer(text: string): void;
  followUp(text: string): void;
  /** Stops the run; returns the queued messages it dropped. */
  abort(): Promise<string[]>;
  subscribe(listener: (event: PigEvent) => void): () => void;
  compact(customInstructions?: string): Promise<unknown>;
  navigateTree(targetId: string, options?: NavigateOptions): Promise<NavigateResult>;
  fork(entryId: string): Promise<{ text: string; cancelled: boolean }>;
  newSession(): Promise<{ cancelled: boolean }>;
  switchSession(path: string): Promise<{ cancelled: boolean }>;
  setModel(provider: string, modelId: string): Model;
  setThinkingLevel(level: ThinkingLevel): void;
  getMessages(): AgentMessage[];
  getState(): SessionState;
  getStats(): SessionStats;
  /** Ends the session: its extensions are told and their processes stopped (awaitable). */
  dispose(): Promise<void>;
}

function sessionChoice(session: CreateAgentSessionOptions["session"]): SessionChoice {
  if (session === "memory") return { kind: "none" };
  if (session === "continue") return { kind: "continue" };
  if (typeof session === "object") return { kind: "open", pathOrId: session.path };
  return { kind: "new" };
}

/** The options as the runtime takes them. The project is not trusted unless the program says so. */
function runtimeConfig(options: CreateAgentSessionOptions): RuntimeConfig {
  const custom = options.customTools ?? [];
  const builtins = options.tools;
  return {
    cwd: options.cwd ?? process.cwd(),
    env: options.agentDir ? { ...process.env, PIG_CODING_AGENT_DIR: options.agentDir } : process.env,
    interactive: false,
    ...(options.model ? { model: options.model } : {}),
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.thinkingLevel ? { thinking: options.thinkingLevel } : {}),
    ...(options.piglet ? { piglet: options.piglet } : {}),
    session: sessionChoice(options.session),
    ...(options.sessionDir ? { sessionDir: options.sessionDir } : {}),
    resources: {
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      ...(options.appendSystemPrompt !== undefined ? { appendSystemPrompt: [options.appendSystemPrompt] } : {}),
      noSkills: options.skills === false,
      noPromptTemplates: options.promptTemplates === false,
      noContextFiles: options.contextFiles === false,
    },
    // Custom tools are always on: named with the built-ins chosen, so a choice of none still has them.
    ...(builtins ? { tools: [...builtins, ...custom.map((t) => t.name)], noTools: builtins.length === 0 && custom.length === 0 } : {}),
    trust: options.trustProject ?? false,
    extraTools: custom,
    ...(options.settings ? { settingsOverrides: options.settings } : {}),
    extensions: { ...(options.extensions ? { paths: options.extensions } : {}), noExtensions: options.noExtensions ?? false, mode: "print" },
  };
}

export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<PigSession> {
  const runtime = await createRuntime(runtimeConfig(options));
  const { session } = runtime;
  if (runtime.extensions.loadErrors.length > 0) {
    await runtime.close();
    throw new Error(runtime.extensions.loadErrors.join("\n"));
  }
  return {
    agent: session,
    prompt: (text, o) =>
      session.submit(text, {
        source: "interactive",
        ...(o?.images ? { images: o.images } : {}),
        ...(o?.streamingBehavior ? { streamingBehavior: o.streamingBehavior } : {}),
      }),
    steer: (text) => session.steer(text),
    followUp: (text) => session.followUp(text),
    abort: () => session.abort(),
    subscribe: (listener) => {
      const unsubscribe = session.subscribe(listener);
      // Extension errors from startup (a provider refused) go to the first listener.
      for (const report of runtime.extensions.drainStartupErrors()) session.reportExtensionError(report);
      return unsubscribe;
    },
    compact: (instructions) => session.compact(instructions),
    navigateTree: (targetId, o) => session.navigateTree(targetId, o),
    fork: (entryId) => session.fork(entryId),
    newSession: () => session.newSession(),
    switchSession: (path) => session.switchSession(path),
    setModel: (provider, modelId) => session.setModel(provider, modelId),
    setThinkingLevel: (level) => session.setThinkingLevel(level),
    getMessages: () => [...session.messages],
    getState: () => session.state(),
    getStats: () => session.stats(),
    dispose: () => runtime.close(),
  };
}
