/**
 * `RpcClient`: pig driven from a Node (≥ 20) or Bun program through `pig --mode rpc`, with the
 * methods of upstream Pi's `RpcClient`. Where Pi's `prompt()` resolves once the prompt is
 * accepted, this one resolves when its run is over and rejects when the run failed (a provider
 * error, a cut-off answer, an abort), as the Go client's `PromptAndWait` does; `startPrompt()`
 * is Pi's. docs/rpc.md is the protocol; docs/sdk.md shows the client.
 */
import { findPigBinary, machinePlaces } from "./find-binary.ts";
import { PromptError, promptFailure, promptResult, type PromptResult } from "./prompt-failure.ts";
import { RpcConnection, RpcConnectionError } from "./rpc-connection.ts";
import type {
  AgentMessage,
  BashResult,
  CompactionReport,
  ImageContent,
  InputDisposition,
  Model,
  OutgoingCommand,
  RpcEvent,
  SessionEntry,
  SessionState,
  SessionStats,
  SessionTreeNode,
  SlashCommandInfo,
  ThinkingLevel,
} from "./rpc-types.ts";

export interface RpcClientOptions {
  /** The pig executable (default: `PIG_BINARY`, else the installed binary package, else `pig` on PATH). */
  binary?: string;
  /** pig's working directory (default: this process's). */
  cwd?: string;
  /** pig's environment (default: this process's). */
  env?: Record<string, string | undefined>;
  /** `--provider` and `--model`. */
  provider?: string;
  model?: string;
  /** More command-line arguments (`--no-session`, `-e ext.ts`, …). */
  args?: string[];
}

export interface PromptOptions {
  images?: ImageContent[];
  /** While a run goes on: how the prompt joins it. Without it a prompt during a run is refused. */
  streamingBehavior?: "steer" | "followUp";
  /** Aborting it stops the run (`abort`); `prompt()` then rejects with kind `aborted`. */
  signal?: AbortSignal;
}

export type RpcEventListener = (event: RpcEvent) => void;

/** The answer to an extension's dialog (`extension_ui_request` with a `select`, `confirm`, `input` or `editor` method). */
export type UiAnswer = { value: string } | { confirmed: boolean } | { cancelled: true };

/** How long `stop()` lets pig finish before it sends SIGTERM. */
const STOP_GRACE_MS = 5000;

export class RpcClient {
  private connection: RpcConnection | undefined;
  private readonly listeners = new Set<RpcEventListener>();

  constructor(private readonly options: RpcClientOptions = {}) {}

  /** Starts pig. Rejects when no binary is found (naming where it looked) or it cannot be run. */
  async start(): Promise<void> {
    if (this.connection) throw new Error("pig rpc: the client is already started");
    const env = this.options.env ?? process.env;
    const binary = findPigBinary(this.options.binary, machinePlaces(env));
    const args = ["--mode", "rpc"];
    if (this.options.provider) args.push("--provider", this.options.provider);
    if (this.options.model) args.push("--model", this.options.model);
    args.push(...(this.options.args ?? []));
    this.connection = await RpcConnection.open({ binary, args, env, ...(this.options.cwd ? { cwd: this.options.cwd } : {}) });
    this.connection.onEvent((event) => {
      for (const listener of [...this.listeners]) listener(event);
    });
  }

  /** Ends pig's input, lets it finish what was asked (SIGTERM after 5 s), and waits for it to exit. */
  async stop(): Promise<void> {
    await this.connection?.close(STOP_GRACE_MS);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  /** Every line pig writes that is not a response: the events of `--mode json` and RPC's own. */
  onEvent(listener: RpcEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What pig wrote on stderr (its last 16 000 characters). */
  getStderr(): string {
    return this.connection?.stderr ?? "";
  }

  /** Sends any command and resolves with its response's `data`; rejects with an `RpcCommandError` when pig refuses it. */
  send(command: OutgoingCommand): Promise<unknown> {
    return this.live().call(command);
  }

  /**
   * Sends a prompt and resolves when its run is over (after its retries, compactions and queued
   * messages) with the answer. Rejects with a `PromptError` when the run failed: `kind` says how
   * (`auth`, `rate_limit`, `server_error`, `unreachable`, `context_overflow`, `cut_off`,
   * `aborted`, `prompt_error`, `other`), `message` is the provider's text, `result` what the run
   * produced. A prompt an extension took (`disposition: "handled"`) resolves at once.
   */
  async prompt(message: string, options: PromptOptions = {}): Promise<PromptResult> {
    const connection = this.live();
    // Listening before sending: the run's events can come in the same read as the response.
    const events: RpcEvent[] = [];
    /** Where the response came among the events: those before it belong to an earlier run. */
    let answeredAt: number | undefined;
    let finished = (_error?: Error): void => undefined;
    const over = new Promise<void>((resolve, reject) => (finished = (error) => (error ? reject(error) : resolve())));
    const stopListening = connection.onEvent((event) => {
      events.push(event);
      if (answeredAt !== undefined && (event.type === "agent_settled" || event.type === "prompt_error")) finished();
    });
    const stopEnd = connection.onEnd((error) => finished(error));
    const onAbort = () => void this.abort().catch(() => undefined);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (options.signal?.aborted) throw new PromptError("aborted", "the prompt was aborted before it was sent", promptResult("handled", []));
      const data = await connection.call(promptCommand(message, options), () => (answeredAt = events.length));
      const disposition = dispositionOf(data);
      if (disposition !== "handled") await over;
      const result = promptResult(disposition, events.slice(answeredAt));
      const failure = promptFailure(result);
      if (failure) throw failure;
      return result;
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      stopListening();
      stopEnd();
    }
  }

  /** Sends a prompt and resolves once pig accepted it, with where it went (upstream Pi's `prompt()`). */
  async startPrompt(message: string, options: Omit<PromptOptions, "signal"> = {}): Promise<InputDisposition> {
    return dispositionOf(await this.send(promptCommand(message, options)));
  }

  /** Sends a prompt and waits for its run; the events it produced. Rejects as `prompt()` does. */
  async promptAndWait(message: string, images?: ImageContent[]): Promise<RpcEvent[]> {
    return (await this.prompt(message, images ? { images } : {})).events;
  }

  async steer(message: string, images?: ImageContent[]): Promise<InputDisposition> {
    return dispositionOf(await this.send({ type: "steer", message, ...(images ? { images } : {}) }));
  }

  async followUp(message: string, images?: ImageContent[]): Promise<InputDisposition> {
    return dispositionOf(await this.send({ type: "follow_up", message, ...(images ? { images } : {}) }));
  }

  /** Stops the run (and a compaction or branch summary); resolves once they stopped. */
  async abort(): Promise<void> {
    await this.send({ type: "abort" });
  }

  /** Resolves at the next `agent_settled` (the run is over); rejects after `timeoutMs` or when pig exits. */
  waitForIdle(timeoutMs = 60_000): Promise<void> {
    return this.collectEvents(timeoutMs).then(() => undefined);
  }

  /** The events until the next `agent_settled`, that one included. */
  collectEvents(timeoutMs = 60_000): Promise<RpcEvent[]> {
    const connection = this.live();
    return new Promise((resolve, reject) => {
      const events: RpcEvent[] = [];
      const done = (error?: Error) => {
        clearTimeout(timer);
        stopListening();
        stopEnd();
        if (error) reject(error);
        else resolve(events);
      };
      const timer = setTimeout(() => done(new Error(`pig rpc: the run did not settle within ${timeoutMs} ms`)), timeoutMs);
      const stopListening = connection.onEvent((event) => {
        events.push(event);
        if (event.type === "agent_settled") done();
      });
      const stopEnd = connection.onEnd((error) => done(error));
    });
  }

  /** Answers an extension's dialog. */
  respondToUi(id: string, answer: UiAnswer): void {
    this.live().write({ type: "extension_ui_response", id, ...answer });
  }

  clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
    return this.sendFor({ type: "clear_queue" });
  }
  newSession(parentSession?: string): Promise<{ cancelled: boolean }> {
    return this.sendFor({ type: "new_session", ...(parentSession !== undefined ? { parentSession } : {}) });
  }
  getState(): Promise<SessionState> {
    return this.sendFor({ type: "get_state" });
  }
  getMessages(): Promise<AgentMessage[]> {
    return this.sendFor<{ messages: AgentMessage[] }>({ type: "get_messages" }).then((d) => d.messages);
  }
  setModel(provider: string, modelId: string): Promise<Model> {
    return this.sendFor({ type: "set_model", provider, modelId });
  }
  cycleModel(): Promise<{ model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | null> {
    return this.sendFor({ type: "cycle_model" });
  }
  getAvailableModels(): Promise<Model[]> {
    return this.sendFor<{ models: Model[] }>({ type: "get_available_models" }).then((d) => d.models);
  }
  async setThinkingLevel(level: ThinkingLevel): Promise<void> {
    await this.send({ type: "set_thinking_level", level });
  }
  cycleThinkingLevel(): Promise<{ level: ThinkingLevel } | null> {
    return this.sendFor({ type: "cycle_thinking_level" });
  }
  getAvailableThinkingLevels(): Promise<ThinkingLevel[]> {
    return this.sendFor<{ levels: ThinkingLevel[] }>({ type: "get_available_thinking_levels" }).then((d) => d.levels);
  }
  async setSteeringMode(mode: "all" | "one-at-a-time"): Promise<void> {
    await this.send({ type: "set_steering_mode", mode });
  }
  async setFollowUpMode(mode: "all" | "one-at-a-time"): Promise<void> {
    await this.send({ type: "set_follow_up_mode", mode });
  }
  compact(customInstructions?: string): Promise<CompactionReport> {
    return this.sendFor({ type: "compact", ...(customInstructions !== undefined ? { customInstructions } : {}) });
  }
  async setAutoCompaction(enabled: boolean): Promise<void> {
    await this.send({ type: "set_auto_compaction", enabled });
  }
  async setAutoRetry(enabled: boolean): Promise<void> {
    await this.send({ type: "set_auto_retry", enabled });
  }
  async abortRetry(): Promise<void> {
    await this.send({ type: "abort_retry" });
  }
  async abortCompaction(): Promise<void> {
    await this.send({ type: "abort_compaction" });
  }
  bash(command: string, options: { excludeFromContext?: boolean } = {}): Promise<BashResult> {
    return this.sendFor({ type: "bash", command, ...options });
  }
  async abortBash(): Promise<void> {
    await this.send({ type: "abort_bash" });
  }
  getSessionStats(): Promise<SessionStats> {
    return this.sendFor({ type: "get_session_stats" });
  }
  exportHtml(outputPath?: string): Promise<{ path: string }> {
    return this.sendFor({ type: "export_html", ...(outputPath !== undefined ? { outputPath } : {}) });
  }
  switchSession(sessionPath: string): Promise<{ cancelled: boolean }> {
    return this.sendFor({ type: "switch_session", sessionPath });
  }
  fork(entryId: string): Promise<{ text: string; cancelled: boolean }> {
    return this.sendFor({ type: "fork", entryId });
  }
  clone(): Promise<{ cancelled: boolean }> {
    return this.sendFor({ type: "clone" });
  }
  getForkMessages(): Promise<{ entryId: string; text: string }[]> {
    return this.sendFor<{ messages: { entryId: string; text: string }[] }>({ type: "get_fork_messages" }).then((d) => d.messages);
  }
  getEntries(since?: string): Promise<{ entries: SessionEntry[]; leafId: string | null }> {
    return this.sendFor({ type: "get_entries", ...(since !== undefined ? { since } : {}) });
  }
  getTree(): Promise<{ tree: SessionTreeNode[]; leafId: string | null }> {
    return this.sendFor({ type: "get_tree" });
  }
  /** The last answer's text, or null when there is none. */
  getLastAssistantText(): Promise<string | null> {
    return this.sendFor<{ text?: string }>({ type: "get_last_assistant_text" }).then((d) => d.text ?? null);
  }
  async setSessionName(name: string): Promise<void> {
    await this.send({ type: "set_session_name", name });
  }
  getCommands(): Promise<SlashCommandInfo[]> {
    return this.sendFor<{ commands: SlashCommandInfo[] }>({ type: "get_commands" }).then((d) => d.commands);
  }
  /** pig's own: each loaded extension's process and state (docs/rpc.md, `get_extensions`). */
  getExtensions(): Promise<Record<string, unknown>[]> {
    return this.sendFor<{ extensions: Record<string, unknown>[] }>({ type: "get_extensions" }).then((d) => d.extensions);
  }
  /** pig's own: moves the session's leaf to `targetId`, optionally summarising the branch left. */
  navigateTree(
    targetId: string,
    options: { summarize?: boolean; customInstructions?: string; replaceInstructions?: boolean; label?: string } = {},
  ): Promise<{ editorText?: string; cancelled: boolean; summaryEntryId?: string }> {
    return this.sendFor({ type: "navigate_tree", targetId, ...options });
  }
  /** pig's own: labels an entry (no label clears it). */
  async setLabel(entryId: string, label?: string): Promise<void> {
    await this.send({ type: "set_label", entryId, ...(label !== undefined ? { label } : {}) });
  }
  /** pig's own: the Piglets there are and the session's. */
  getPiglets(): Promise<{ current: string | null; piglets: { name: string; filePath: string; scope: string }[] }> {
    return this.sendFor({ type: "get_piglets" });
  }
  /** pig's own: switches the session to a Piglet. */
  setPiglet(name: string): Promise<{ name: string; model?: string; thinking?: string; extensions?: string[]; tools: string[]; needsRestart: string[] }> {
    return this.sendFor({ type: "set_piglet", name });
  }

  /** A command whose response data is `D` (as docs/rpc.md describes it). */
  private async sendFor<D>(command: OutgoingCommand): Promise<D> {
    return (await this.send(command)) as D;
  }

  private live(): RpcConnection {
    if (!this.connection) throw new Error("pig rpc: the client is not started (call start() first)");
    const ended = this.connection.endedWith;
    if (ended) throw ended;
    return this.connection;
  }
}

function promptCommand(message: string, options: Omit<PromptOptions, "signal">): OutgoingCommand {
  return {
    type: "prompt",
    message,
    ...(options.images ? { images: options.images } : {}),
    ...(options.streamingBehavior ? { streamingBehavior: options.streamingBehavior } : {}),
  };
}

function dispositionOf(data: unknown): InputDisposition {
  const disposition = (data as { disposition?: unknown } | undefined)?.disposition;
  if (disposition === "started" || disposition === "queued" || disposition === "handled") return disposition;
  throw new RpcConnectionError(`pig rpc: the prompt's response has no disposition: ${JSON.stringify(data)}`);
}

