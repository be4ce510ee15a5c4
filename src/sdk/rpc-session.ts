/**
 * `createAgentSession` as the `pig-coding-agent` package has it: the session runs in the
 * installed `pig --mode rpc` (the in-process agent needs Bun's runtime, docs/decisions.md), with
 * the in-process session's options and methods; each method returns a promise. Options that
 * cannot cross to another process are refused with what to do instead.
 */
import type { PromptResult } from "./prompt-failure.ts";
import { RpcClient } from "./rpc-client.ts";
import type { CreateAgentSessionOptions } from "./session-options.ts";
import type { AgentMessage, ImageContent, InputDisposition, Model, RpcEvent, SessionState, SessionStats, ThinkingLevel } from "./rpc-types.ts";

/** Where to start pig: the binary, its arguments and environment. */
export interface RpcSessionOptions extends CreateAgentSessionOptions {
  /** The pig executable (default: `PIG_BINARY`, else the installed binary package, else `pig` on PATH). */
  binary?: string;
  /** pig's environment (default: this process's). */
  env?: Record<string, string | undefined>;
}

/** The options as pig's command-line flags; throws for one that cannot cross to the pig process. */
export function sessionArgs(options: CreateAgentSessionOptions): string[] {
  if (options.customTools && options.customTools.length > 0) {
    throw new Error(
      `createAgentSession: customTools (${options.customTools.map((t) => t.name).join(", ")}) run in your program, and the session runs in the pig process. ` +
        "Register the tool in an extension (pi.registerTool, docs/extensions.md) and pass its file in `extensions`, or use the in-process session under Bun.",
    );
  }
  if (options.settings) {
    throw new Error(
      "createAgentSession: settings overrides cannot be handed to the pig process. Put them in settings.json of the agent directory (`agentDir`) or of the trusted project's .pig/.",
    );
  }
  const args: string[] = [];
  const session = options.session ?? "new";
  if (session === "memory") args.push("--no-session");
  else if (session === "continue") args.push("--continue");
  else if (typeof session === "object") args.push("--session", session.path);
  if (options.sessionDir) args.push("--session-dir", options.sessionDir);
  if (options.provider) args.push("--provider", options.provider);
  if (options.model) args.push("--model", options.model);
  if (options.apiKey) args.push("--api-key", options.apiKey);
  if (options.thinkingLevel) args.push("--thinking", options.thinkingLevel);
  if (options.piglet) args.push("--piglet", options.piglet);
  if (options.tools) args.push(...(options.tools.length === 0 ? ["--no-tools"] : ["--tools", options.tools.join(",")]));
  if (options.systemPrompt !== undefined) args.push("--system-prompt", options.systemPrompt);
  if (options.appendSystemPrompt !== undefined) args.push("--append-system-prompt", options.appendSystemPrompt);
  if (options.skills === false) args.push("--no-skills");
  if (options.promptTemplates === false) args.push("--no-prompt-templates");
  if (options.contextFiles === false) args.push("--no-context-files");
  // As in process: the project's own resources only when the program says so.
  args.push(options.trustProject ? "--trust" : "--no-trust");
  for (const extension of options.extensions ?? []) args.push("--extension", extension);
  if (options.noExtensions) args.push("--no-extensions");
  return args;
}

/** The agent in a pig process, driven as the in-process session is; every method returns a promise. */
export interface RpcSession {
  /** The RPC client underneath, for the commands the session has no method for. */
  readonly client: RpcClient;
  /** Sends `text` as typed input goes; resolves when its run is over, rejects with a `PromptError` when it failed. */
  prompt(text: string, options?: { images?: ImageContent[]; streamingBehavior?: "steer" | "followUp"; signal?: AbortSignal }): Promise<PromptResult>;
  steer(text: string): Promise<InputDisposition>;
  followUp(text: string): Promise<InputDisposition>;
  /** Stops the run; returns the queued messages it dropped. */
  abort(): Promise<string[]>;
  /** The events of `--mode json` (a `message_update` carries the change, not the answer so far). */
  subscribe(listener: (event: RpcEvent) => void): () => void;
  compact(customInstructions?: string): Promise<unknown>;
  navigateTree(targetId: string, options?: { summarize?: boolean; customInstructions?: string; replaceInstructions?: boolean; label?: string }): Promise<{ editorText?: string; cancelled: boolean; summaryEntryId?: string }>;
  fork(entryId: string): Promise<{ text: string; cancelled: boolean }>;
  newSession(): Promise<{ cancelled: boolean }>;
  switchSession(path: string): Promise<{ cancelled: boolean }>;
  setModel(provider: string, modelId: string): Promise<Model>;
  setThinkingLevel(level: ThinkingLevel): Promise<void>;
  getMessages(): Promise<AgentMessage[]>;
  getState(): Promise<SessionState>;
  getStats(): Promise<SessionStats>;
  /** Ends the session: pig finishes what was asked, stops its extensions and exits. */
  dispose(): Promise<void>;
}

/**
 * Starts pig with the options and resolves once it answers; rejects when an option cannot cross
 * to pig, when no binary is found, or when pig refuses the options (its error in the message).
 */
export async function createAgentSession(options: RpcSessionOptions = {}): Promise<RpcSession> {
  const args = sessionArgs(options);
  const base = options.env ?? process.env;
  const env = options.agentDir ? { ...base, PIG_CODING_AGENT_DIR: options.agentDir } : base;
  const client = new RpcClient({ args, env, ...(options.binary ? { binary: options.binary } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) });
  await client.start();
  try {
    // pig reads its options before it answers: a bad one (an unknown Piglet, a missing session) ends it, with its words.
    await client.getState();
  } catch (error) {
    await client.stop();
    throw new Error(`createAgentSession: pig did not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return {
    client,
    prompt: (text, o = {}) => client.prompt(text, o),
    steer: (text) => client.steer(text),
    followUp: (text) => client.followUp(text),
    async abort() {
      // RPC's abort keeps the queues (upstream's protocol); the session's drops them, as in process.
      const dropped = await client.clearQueue();
      await client.abort();
      return [...dropped.steering, ...dropped.followUp];
    },
    subscribe: (listener) => client.onEvent(listener),
    compact: (instructions) => client.compact(instructions),
    navigateTree: (targetId, o) => client.navigateTree(targetId, o),
    fork: (entryId) => client.fork(entryId),
    newSession: () => client.newSession(),
    switchSession: (path) => client.switchSession(path),
    setModel: (provider, modelId) => client.setModel(provider, modelId),
    setThinkingLevel: (level) => client.setThinkingLevel(level),
    getMessages: () => client.getMessages(),
    getState: () => client.getState(),
    getStats: () => client.getSessionStats(),
    dispose: () => client.stop(),
  };
}
