/**
 * The running half of `AgentSession` (session.ts adds what front ends ask of it beyond prompting):
 * the session store, the model and thinking level, the tools, the steering and follow-up
 * queues, retries, the hooks, and the one event stream every mode renders. Nothing else writes
 * the session file while a session is open. What it is busy with lives in `activity`, the
 * model's context in `conversation`.
 */
import { missingKeyMessage } from "../ai/auth.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import { clampThinkingLevel } from "../ai/thinking.ts";
import type { AssistantMessage, Model, StreamFunction, ThinkingBudgets } from "../ai/types.ts";
import type { AgentMessage, ThinkingLevel, ToolDeclaration } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import { SpillFiles } from "../tools/spill-files.ts";
import type { AnyTool } from "../tools/types.ts";
import { compactionSettings, type CompactionSettings, type RetrySettings } from "../resources/settings-effective.ts";
import { Activity } from "./activity.ts";
import { NO_COMMANDS, type CommandPort } from "./command-port.ts";
import { CompactionRunner, summaryCallFor } from "./compaction-runner.ts";
import { Conversation } from "./conversation.ts";
import type { PigEvent, SessionChange, SummarySource } from "./events.ts";
import { guardHooks } from "./hook-guard.ts";
import { NO_HOOKS, type AgentHooks } from "./hooks.ts";
import type { SummaryCall, SummaryRetryEvents } from "../compaction/index.ts";
import { MessageQueue, type QueueMode } from "./queue.ts";
import { requestOptions } from "./request-options.ts";
import { Retrier } from "./retry.ts";
import { PromptError } from "./errors.ts";
import { SessionRecorder } from "./recorder.ts";
import { ToolRegistry } from "./tool-registry.ts";
import type { OutputLimits } from "../tools/output-bound.ts";
import { SecretRedactor } from "../util/redact.ts";
import { redactEvent } from "./redact-events.ts";


export interface SessionCoreOptions {
  store: SessionStore;
  registry: ModelRegistry;
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  /** The active tools at start, or a registry of every tool with the active ones. */
  tools: AnyTool[] | ToolRegistry;
  /** The system prompt for the current tools, as named sections (re-asked before every prompt). */
  systemSections: (tools: readonly AnyTool[]) => Record<string, string>;
  cwd: string;
  agentDir: string;
  retry: RetrySettings;
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  toolExecution?: "parallel" | "sequential";
  /** The bound on results of tools that do not bound their own (setting `toolOutput`; Pi's limits when absent). */
  toolOutput?: OutputLimits;
  /** The streaming function for an API (injectable for tests). */
  streamFor: (model: Model) => StreamFunction;
  /** Rewrites typed input before it is sent or queued (`/skill:name`, prompt templates). */
  expandInput?: (text: string) => string;
  compaction?: CompactionSettings;
  /** `defaultThinkingLevel` as it is now: the level a reasoning model starts at after one that could not reason. */
  defaultThinkingLevel?: () => ThinkingLevel | undefined;
  /** Settings read for every request: `thinkingBudgets` and `images.blockImages`. */
  requestSettings?: () => { thinkingBudgets?: ThinkingBudgets | undefined; blockImages?: boolean | undefined };
  hooks?: AgentHooks;
  commands?: CommandPort;
}

export type Listener = (event: PigEvent) => void;

/** What the model is told of each tool. */
export function toolDeclarations(tools: readonly AnyTool[]): ToolDeclaration[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.constrainedSampling ? { constrainedSampling: tool.constrainedSampling } : {}),
  }));
}

export class SessionCore {
  protected storeValue: SessionStore;
  readonly registry: ModelRegistry;
  readonly conversation: Conversation;
  readonly activity = new Activity();
  /** Files holding the whole output of long commands, kept while this session can point to them. */
  readonly spillFiles = new SpillFiles();
  readonly toolRegistry: ToolRegistry;
  /** `!` commands run while the agent was busy: added before the next prompt. */
  protected readonly heldBash: AgentMessage[] = [];
  readonly steering: MessageQueue;
  readonly followUps: MessageQueue;
  protected modelValue: Model | undefined;
  protected level: ThinkingLevel;
  protected readonly listeners = new Set<Listener>();
  protected readonly changeListeners = new Set<(change: SessionChange) => void>();
  protected readonly retrier: Retrier;
  protected hooksValue: AgentHooks = NO_HOOKS;
  protected commandsValue: CommandPort;
  retry: RetrySettings;
  compaction: CompactionSettings;
  readonly compactor: CompactionRunner;
  protected readonly redactor = new SecretRedactor();
  protected readonly warningListeners = new Set<(text: string) => void>();
  protected readonly recorder = new SessionRecorder(
    () => this.storeValue,
    () => this.activity.isRunning,
    () => this.activity.abort("run"),
    (text) => {
      for (const listener of this.warningListeners) listener(text);
    },
  );

  /** Told of problems that stop nothing but that the user must know of (a session that cannot be saved). */
  onWarning(listener: (text: string) => void): () => void {
    this.warningListeners.add(listener);
    return () => this.warningListeners.delete(listener);
  }

  constructor(protected readonly options: SessionCoreOptions) {
    this.storeValue = options.store;
    this.registry = options.registry;
    this.conversation = new Conversation(() => this.storeValue);
    this.modelValue = options.model;
    this.level = options.model ? clampThinkingLevel(options.model, options.thinkingLevel) : "off";
    this.toolRegistry =
      options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools.map((tool) => ({ tool, source: { kind: "builtin" } })), options.tools);
    this.toolRegistry.onChange(() => this.changed("tools"));
    this.retry = options.retry;
    this.retrier = new Retrier(
      () => this.retry,
      (event) => this.emit(event),
    );
    this.compaction = options.compaction ?? compactionSettings({});
    this.compactor = new CompactionRunner(this);
    this.steering = new MessageQueue(options.steeringMode);
    this.followUps = new MessageQueue(options.followUpMode);
    this.commandsValue = options.commands ?? NO_COMMANDS;
    if (options.hooks) this.setHooks(options.hooks);
    this.recordStartingState(this.store.planContext().items.length === 0);
  }

  get store(): SessionStore {
    return this.storeValue;
  }

  /** The context the model gets next (the active branch, as messages). */
  get messages(): readonly AgentMessage[] {
    return this.conversation.messages;
  }

  // ── hooks and commands ───────────────────────────────────────────────────

  get hooks(): AgentHooks {
    return this.hooksValue;
  }

  /** Attaches the hooks (the extension host, once it is up); a hook that throws counts as doing nothing. */
  setHooks(hooks: AgentHooks): void {
    this.hooksValue = hooks === NO_HOOKS ? NO_HOOKS : guardHooks(hooks, (failure) => this.reportExtensionError({ extensionPath: "", ...failure }));
  }

  get commands(): CommandPort {
    return this.commandsValue;
  }

  setCommands(commands: CommandPort): void {
    this.commandsValue = commands;
  }

  /** An extension failed in a hook, a command or a handler of its own: told to every listener. */
  reportExtensionError(error: { extensionPath: string; event: string; error: string; stack?: string }): void {
    this.emit({ type: "extension_error", ...error });
  }

  // ── replacing the store ──────────────────────────────────────────────────

  /**
   * Continues with another session file (new, resumed, forked or cloned): the old one is closed,
   * the model and thinking level are the ones chosen for the new one. Listeners and queues stay.
   */
  replaceStore(store: SessionStore, model: Model | undefined, thinkingLevel: ThinkingLevel): void {
    if (this.activity.isRunning) throw new PromptError("Cannot switch sessions while the agent is running.");
    if (store !== this.storeValue) this.storeValue.close();
    this.storeValue = store;
    this.modelValue = model;
    this.level = model ? clampThinkingLevel(model, thinkingLevel) : "off";
    this.heldBash.length = 0;
    this.conversation.reset();
    this.recordStartingState(store.planContext().items.length === 0);
  }

  /** Rebuilds the model's context from the file (after a compaction or a move in the tree), in place. */
  reloadContext(): void {
    this.conversation.reload();
  }

  /** A new session starts with its model and thinking level; an old one gains the level if it lacks one. */
  protected recordStartingState(fresh: boolean): void {
    if (fresh) {
      if (this.modelValue) this.store.appendModelChange(this.modelValue.provider, this.modelValue.id);
      this.store.appendThinkingLevelChange(this.level);
      return;
    }
    const hasLevel = this.store.branchRecords().some((r) => r.type === "thinking_level_change");
    if (!hasLevel) this.store.appendThinkingLevelChange(this.level);
  }

  // ── summaries ────────────────────────────────────────────────────────────

  /**
   * The model call summaries are made with, or undefined without a model or key. `source` names
   * the summary in the `summarization_retry_*` events its retries report.
   */
  async summaryCall(signal: AbortSignal, source?: SummarySource): Promise<SummaryCall | undefined> {
    const model = this.modelValue;
    if (!model) return undefined;
    // Summaries retry passing failures like answers do, when retrying is on.
    const retry = this.retry.enabled
      ? {
          maxRetries: this.retry.maxRetries,
          baseDelayMs: this.retry.baseDelayMs,
          maxDelayMs: this.retry.provider.maxRetryDelayMs,
          ...(source ? { events: this.summaryRetryEvents(source) } : {}),
        }
      : undefined;
    return summaryCallFor(model, await this.requestOptions(model, false, signal), this.options.streamFor(model), signal, retry);
  }

  protected summaryRetryEvents(source: SummarySource): SummaryRetryEvents {
    return {
      scheduled: (attempt, maxAttempts, delayMs, errorMessage) =>
        this.emit({ type: "summarization_retry_scheduled", attempt, maxAttempts, delayMs, errorMessage }),
      attemptStart: () => this.emit({ type: "summarization_retry_attempt_start", ...source }),
      finished: () => this.emit({ type: "summarization_retry_finished" }),
    };
  }

  // ── user messages ────────────────────────────────────────────────────────

  /**
   * Adds a user shell command's result: at once when idle, otherwise held and added just before
   * the next prompt (so it never lands in the middle of a turn).
   */
  recordUserMessage(message: AgentMessage): void {
    if (this.activity.isRunning) {
      this.heldBash.push(message);
      return;
    }
    // In the context whatever the file does: a failed write keeps the entry in the session,
    // unsaved, and the caller hears of it.
    this.conversation.append(message);
    this.recorder.record(message);
  }

  protected flushHeld(): void {
    // One at a time: if a write fails, the ones not yet added stay held, none is lost.
    while (this.heldBash.length > 0) {
      const message = this.heldBash.shift()!;
      this.conversation.append(message);
      this.recorder.record(message);
    }
  }

  /** Names the session (trimmed; empty names are refused). */
  setSessionName(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) throw new PromptError("Session name cannot be empty");
    this.store.appendSessionInfo(trimmed);
    this.emit({ type: "session_info_changed", name: trimmed });
    this.changed("session_name");
  }

  get model(): Model | undefined {
    return this.modelValue;
  }

  get thinkingLevel(): ThinkingLevel {
    return this.level;
  }

  /** The active tools. */
  get tools(): readonly AnyTool[] {
    return this.toolRegistry.active;
  }

  get isStreaming(): boolean {
    return this.activity.isRunning;
  }

  /** The signal of the run under way (an extension's `ctx.signal`); undefined when idle. */
  get runSignal(): AbortSignal | undefined {
    return this.activity.isRunning ? this.activity.signal("run") : undefined;
  }

  /** Nothing runs: no run, no compaction, no branch summary. */
  get isIdle(): boolean {
    return this.activity.isIdle;
  }

  // ── events ───────────────────────────────────────────────────────────────

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends an event to every listener; a failure text quoting a key is shown without it. */
  emit(event: PigEvent): void {
    redactEvent(event, this.redactor);
    for (const listener of this.listeners) listener(event);
  }

  /**
   * Told whenever what a front end shows of the session may have changed (another file, a move
   * in the tree, a compaction, the model, the level, the name, the tools). Not an event of the
   * stream: RPC and JSON clients speak upstream's protocol, which has no such line.
   */
  onSessionChange(listener: (change: SessionChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  changed(reason: SessionChange["reason"]): void {
    const change: SessionChange = { type: "session_changed", reason };
    for (const listener of this.changeListeners) listener(change);
  }

  protected requestOptions(model: Model, watched: boolean, signal?: AbortSignal) {
    return requestOptions(
      model,
      {
      registry: this.registry,
      level: this.level,
      sessionId: this.store.sessionId,
      retry: this.retry,
      thinkingBudgets: this.options.requestSettings?.().thinkingBudgets,
      redactor: this.redactor,
      hooks: watched && this.hooksValue !== NO_HOOKS ? this.hooksValue : undefined,
      },
      signal,
    );
  }

  /** Checks that a prompt can run now; throws `PromptError` with upstream's wording if not. */
  protected preflight(): Model {
    const model = this.modelValue;
    if (!model) {
      throw new PromptError("No model selected.\n\nUse --model, set defaultProvider/defaultModel in settings, or add a provider in models.json.");
    }
    // Whether a key is configured; it is resolved (a `!command` run) once per run, not here.
    if (!this.registry.hasKey(model.provider)) {
      throw new PromptError(missingKeyMessage(model.provider));
    }
    return model;
  }

  /** Typed input as it is sent: `/skill:name` and prompt templates expanded. */
  expand(text: string): string {
    return this.options.expandInput ? this.options.expandInput(text) : text;
  }

  /**
   * The registry's object for the current model again, after an extension changed its provider
   * (its base URL, its definition): the same provider and id, so nothing is recorded.
   */
  refreshModel(): void {
    const model = this.modelValue;
    const fresh = model && this.registry.find(model.provider, model.id);
    if (fresh && fresh !== model) this.modelValue = fresh;
  }

  /** Switches the model (recorded in the session) and re-clamps the thinking level. */
  protected switchModel(model: Model): void {
    // Recorded first: a change the file cannot take does not happen.
    this.store.appendModelChange(model.provider, model.id);
    this.modelValue = model;
    // As Pi 0.87: the defaultThinkingLevel setting when there is one, else the level in force.
    const wanted = this.options.defaultThinkingLevel?.() ?? this.level;
    this.applyThinkingLevel(clampThinkingLevel(model, wanted));
    this.changed("model");
  }

  /** Sets the thinking level (clamped to the model); records it only when it changes. */
  protected switchThinkingLevel(level: ThinkingLevel): void {
    this.applyThinkingLevel(this.modelValue ? clampThinkingLevel(this.modelValue, level) : "off");
  }

  protected applyThinkingLevel(level: ThinkingLevel): void {
    if (level === this.level) return;
    this.store.appendThinkingLevelChange(level);
    this.level = level;
    this.emit({ type: "thinking_level_changed", level });
    this.changed("thinking_level");
  }

  /** The last answer. */
  lastAssistant(): AssistantMessage | undefined {
    const messages = this.messages;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]!;
      if (message.role === "assistant") return message as AssistantMessage;
    }
    return undefined;
  }

  dispose(): void {
    this.activity.stopAll();
    this.store.close();
  }
}
