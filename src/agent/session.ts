/**
 * `AgentSession` owns a run: the session store, the model and thinking level, the active tools,
 * the steering and follow-up queues, retries, and the one event stream every mode renders.
 * Nothing else writes the session file while a session is open.
 */
import { missingKeyMessage } from "../ai/auth.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import { clampThinkingLevel } from "../ai/thinking.ts";
import type { AssistantMessage, Model, StreamFunction, StreamOptions, ThinkingBudgets } from "../ai/types.ts";
import { blockImages, convertToLlm } from "../session/convert.ts";
import type { AgentMessage, SystemMessage, ThinkingLevel, ToolDeclaration } from "../session/format.ts";
import { loadoutUpdate } from "../session/system-messages.ts";
import type { SessionStore } from "../session/store.ts";
import type { AnyTool } from "../tools/types.ts";
import { compactionSettings, type CompactionSettings, type RetrySettings } from "../resources/settings.ts";
import type { LoopEvent, PigEvent, SummarySource } from "./events.ts";
import { CompactionRunner, summaryCallFor } from "./compaction-runner.ts";
import { runAgentLoop, type LoopConfig } from "./loop.ts";
import type { SummaryCall, SummaryRetryEvents } from "../compaction/index.ts";
import { MessageQueue, userMessage, type QueueMode, type QueuedMessage } from "./queue.ts";
import { Retrier } from "./retry.ts";
import { PromptError, SessionSaveError } from "./errors.ts";
import { SessionRecorder } from "./recorder.ts";
import { SecretRedactor } from "../util/redact.ts";
import { redactAnswer, redactEvent } from "./redact-events.ts";

export { PromptError, SessionSaveError };

export interface AgentSessionOptions {
  store: SessionStore;
  registry: ModelRegistry;
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  tools: AnyTool[];
  /** The system prompt for the current tools, as named sections (re-asked before every prompt). */
  systemSections: (tools: readonly AnyTool[]) => Record<string, string>;
  cwd: string;
  agentDir: string;
  retry: RetrySettings;
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  toolExecution?: "parallel" | "sequential";
  /** The streaming function for an API (injectable for tests). */
  streamFor: (model: Model) => StreamFunction;
  /** Rewrites typed input before it is sent or queued (`/skill:name`, prompt templates). */
  expandInput?: (text: string) => string;
  compaction?: CompactionSettings;
  /** `defaultThinkingLevel` as it is now: the level a reasoning model starts at after one that could not reason. */
  defaultThinkingLevel?: () => ThinkingLevel | undefined;
  /** Settings read for every request: `thinkingBudgets` and `images.blockImages`. */
  requestSettings?: () => { thinkingBudgets?: ThinkingBudgets | undefined; blockImages?: boolean | undefined };
}

export type Listener = (event: PigEvent) => void;

/** What the model is told of each tool. */
export function toolDeclarations(tools: readonly AnyTool[]): ToolDeclaration[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
}

type Image = { type: "image"; data: string; mimeType: string };

/** Headers whose values are credentials (an `Authorization`, an `x-api-key`, a token, a cookie). */
const SECRET_HEADER = /auth|key|token|secret|password|cookie|session/i;

export class AgentSession {
  private storeValue: SessionStore;
  readonly registry: ModelRegistry;
  /** Built from the file when first needed: opening a long session does not wait for it. */
  private messagesValue: AgentMessage[] | undefined;
  /** `!` commands run while the agent was busy: added before the next prompt. */
  private readonly heldBash: AgentMessage[] = [];
  readonly steering: MessageQueue;
  readonly followUps: MessageQueue;
  private modelValue: Model | undefined;
  private level: ThinkingLevel;
  private toolsValue: AnyTool[];
  private readonly listeners = new Set<Listener>();
  private running: Promise<void> | undefined;
  private abortController: AbortController | undefined;
  private readonly retrier: Retrier;
  private retryWait: AbortController | undefined;
  private turnsSinceCollection = 0;
  retry: RetrySettings;
  compaction: CompactionSettings;
  readonly compactor: CompactionRunner;
  private readonly redactor = new SecretRedactor();
  private readonly recorder = new SessionRecorder(
    () => this.storeValue,
    () => this.running !== undefined,
    () => this.abortController?.abort(),
  );

  constructor(private readonly options: AgentSessionOptions) {
    this.storeValue = options.store;
    this.registry = options.registry;
    this.modelValue = options.model;
    this.level = options.model ? clampThinkingLevel(options.model, options.thinkingLevel) : "off";
    this.toolsValue = options.tools;
    this.retry = options.retry;
    this.retrier = new Retrier(
      () => this.retry,
      (event) => this.emit(event),
    );
    this.compaction = options.compaction ?? compactionSettings({});
    this.compactor = new CompactionRunner(this);
    this.steering = new MessageQueue(options.steeringMode);
    this.followUps = new MessageQueue(options.followUpMode);
    this.recordStartingState(this.store.planContext().items.length === 0);
  }

  get store(): SessionStore {
    return this.storeValue;
  }

  /** The context the model gets next (the active branch, as messages). */
  get messages(): AgentMessage[] {
    this.messagesValue ??= this.storeValue.buildContext().messages;
    return this.messagesValue;
  }

  /**
   * Continues with another session file (new, resumed, forked or cloned): the old one is closed,
   * the model and thinking level are the ones chosen for the new one. Listeners and queues stay.
   */
  replaceStore(store: SessionStore, model: Model | undefined, thinkingLevel: ThinkingLevel): void {
    if (this.running) throw new PromptError("Cannot switch sessions while the agent is running.");
    if (store !== this.storeValue) this.storeValue.close();
    this.storeValue = store;
    this.modelValue = model;
    this.level = model ? clampThinkingLevel(model, thinkingLevel) : "off";
    this.heldBash.length = 0;
    this.messagesValue = undefined;
    this.recordStartingState(store.planContext().items.length === 0);
  }

  /** Rebuilds the model's context from the file (after a compaction or a move in the tree), in place. */
  reloadContext(): void {
    // Not read yet: it is built from the file when first needed.
    if (!this.messagesValue) return;
    // In place: a run in progress holds the array.
    this.messagesValue.splice(0, this.messagesValue.length, ...this.storeValue.buildContext().messages);
  }

  /**
   * The model call summaries are made with, or undefined without a model or key. `source` names
   * the summary in the `summarization_retry_*` events its retries report.
   */
  summaryCall(signal: AbortSignal, source?: SummarySource): SummaryCall | undefined {
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
    return summaryCallFor(model, this.streamOptions(model), this.options.streamFor(model), signal, retry);
  }

  private summaryRetryEvents(source: SummarySource): SummaryRetryEvents {
    return {
      scheduled: (attempt, maxAttempts, delayMs, errorMessage) =>
        this.emit({ type: "summarization_retry_scheduled", attempt, maxAttempts, delayMs, errorMessage }),
      attemptStart: () => this.emit({ type: "summarization_retry_attempt_start", ...source }),
      finished: () => this.emit({ type: "summarization_retry_finished" }),
    };
  }

  /**
   * `/compact [instructions]`: stops a running turn (queued messages are kept), then summarises.
   * Throws a `CompactionError` ("Already compacted", "Nothing to compact …", "Compaction failed …").
   */
  async compact(customInstructions?: string) {
    this.abortController?.abort();
    await this.running?.catch(() => undefined);
    return this.compactor.manual(customInstructions);
  }

  /**
   * Adds a user shell command's result: at once when idle, otherwise held and added just before
   * the next prompt (so it never lands in the middle of a turn).
   */
  recordUserMessage(message: AgentMessage): void {
    if (this.running) {
      this.heldBash.push(message);
      return;
    }
    // In the context whatever the file does: a failed write keeps the entry in the session,
    // unsaved, and the caller hears of it.
    this.messages.push(message);
    this.persist(message);
  }

  private flushHeld(): void {
    // One at a time: if a write fails, the ones not yet added stay held, none is lost.
    while (this.heldBash.length > 0) {
      const message = this.heldBash.shift()!;
      this.messages.push(message);
      this.persist(message);
    }
  }

  /** Names the session (trimmed; empty names are refused). */
  setSessionName(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) throw new PromptError("Session name cannot be empty");
    this.store.appendSessionInfo(trimmed);
    this.emit({ type: "session_info_changed", name: trimmed });
  }

  /** A new session starts with its model and thinking level; an old one gains the level if it lacks one. */
  private recordStartingState(fresh: boolean): void {
    if (fresh) {
      if (this.modelValue) this.store.appendModelChange(this.modelValue.provider, this.modelValue.id);
      this.store.appendThinkingLevelChange(this.level);
      return;
    }
    const hasLevel = this.store.branchRecords().some((r) => r.type === "thinking_level_change");
    if (!hasLevel) this.store.appendThinkingLevelChange(this.level);
  }

  get model(): Model | undefined {
    return this.modelValue;
  }

  get thinkingLevel(): ThinkingLevel {
    return this.level;
  }

  get tools(): readonly AnyTool[] {
    return this.toolsValue;
  }

  get isStreaming(): boolean {
    return this.running !== undefined;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends an event to every listener; a failure text quoting a key is shown without it. */
  emit(event: PigEvent): void {
    redactEvent(event, this.redactor);
    for (const listener of this.listeners) listener(event);
  }

  private persist(message: AgentMessage): void {
    this.recorder.record(message);
  }

  private onLoopEvent = (loopEvent: LoopEvent): void => {
    const event: PigEvent = loopEvent.type === "agent_end" ? { ...loopEvent, willRetry: this.willRetry(loopEvent.messages) } : loopEvent;
    // Cleaned before it is stored, not only before it is shown.
    if (event.type === "message_end" && event.message.role === "assistant") redactAnswer(event.message as AssistantMessage, this.redactor);
    if (event.type === "message_end") this.persist(event.message);
    if (event.type === "message_start" && event.message.role === "user") this.compactor.overflowAttempted = false;
    if (event.type === "message_end" && event.message.role === "assistant" && (event.message as AssistantMessage).stopReason !== "error") {
      this.compactor.overflowAttempted = false;
    }
    this.emit(event);
    if (event.type === "message_end" && event.message.role === "assistant") this.retrier.onAnswer(event.message as AssistantMessage);
    // Each turn leaves request bodies and stream buffers behind, and the heap otherwise keeps
    // growing over a long run; asking for a collection every few turns keeps it flat. The
    // non-blocking request holds peak RSS where a forced full collection did, for less time.
    if (event.type === "turn_end" && ++this.turnsSinceCollection >= 10) {
      this.turnsSinceCollection = 0;
      Bun.gc(false);
    }
  };

  /**
   * Whether the run that just ended is retried: its last answer failed for a passing reason,
   * retrying is on with attempts left, and nobody stopped the run (upstream's `agent_end.willRetry`).
   */
  private willRetry(produced: readonly AgentMessage[]): boolean {
    const model = this.modelValue;
    const answer = produced.findLast((m) => m.role === "assistant") as AssistantMessage | undefined;
    if (!model || !answer || this.abortController?.signal.aborted || this.recorder.failed) return false;
    return this.retrier.attempt < this.retry.maxRetries && this.retrier.shouldRetry(answer, model);
  }

  private emitQueue(): void {
    this.emit({ type: "queue_update", steering: this.steering.texts, followUp: this.followUps.texts });
  }

  private take(queue: MessageQueue): AgentMessage[] {
    const taken = queue.take();
    if (taken.length > 0) this.emitQueue();
    return taken.map((item) => item.message);
  }

  private streamOptions(model: Model): StreamOptions {
    const thinkingBudgets = this.options.requestSettings?.().thinkingBudgets;
    const apiKey = this.registry.apiKey(model) ?? "";
    const reasoning = this.level === "off" ? undefined : this.level;
    const headers = this.registry.headers(model, apiKey);
    // Whatever identifies pig to the provider is kept out of messages shown or stored.
    this.redactor.add(apiKey);
    for (const [name, value] of Object.entries(headers)) if (SECRET_HEADER.test(name)) this.redactor.add(value);
    return {
      apiKey,
      headers,
      ...(reasoning ? { reasoning } : {}),
      sessionId: this.store.sessionId,
      maxRetries: this.retry.provider.maxRetries ?? 0,
      ...(this.retry.provider.timeoutMs !== undefined ? { timeoutMs: this.retry.provider.timeoutMs } : {}),
      maxRetryDelayMs: this.retry.provider.maxRetryDelayMs,
      ...(this.retry.provider.idleTimeoutMs !== undefined ? { idleTimeoutMs: this.retry.provider.idleTimeoutMs } : {}),
      ...(thinkingBudgets ? { thinkingBudgets } : {}),
    };
  }

  /** Checks that a prompt can run now; throws `PromptError` with upstream's wording if not. */
  private preflight(): Model {
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

  /**
   * Sends a user message. While a run is going, `streamingBehavior` says whether it steers the
   * run or follows up after it; without one the prompt is refused. Resolves when the run (with
   * its retries) is over. `expanded`: the caller made `text` already (expanded, files added), and
   * `typedText` says what the user typed.
   */
  async prompt(
    text: string,
    options: { images?: Image[]; streamingBehavior?: "steer" | "followUp"; expanded?: boolean; typedText?: string } = {},
  ): Promise<void> {
    if (this.running) {
      // Queued input is expanded when it is queued (upstream: no input event for queued text).
      if (options.streamingBehavior === "steer") return this.steer(text, options.images);
      if (options.streamingBehavior === "followUp") return this.followUp(text, options.images);
      throw new PromptError("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
    }
    this.preflight();
    this.flushHeld();
    const sent = options.expanded ? text : this.expand(text);
    const prompts: AgentMessage[] = [userMessage(sent, options.images, options.typedText ?? text)];
    // Steering typed while idle goes right after the prompt.
    prompts.push(...this.take(this.steering));
    await this.start(prompts);
  }

  /** Runs the agent on the current context without a new message (e.g. after a compaction). */
  async continue(): Promise<void> {
    if (this.running) throw new PromptError("Agent is already processing.");
    this.preflight();
    await this.start([]);
  }

  /**
   * The system message that declares the prompt and tools pig has now, when the context does not
   * declare them already (a new session, a session Pi wrote, tools or resources that changed).
   */
  loadoutUpdate(): SystemMessage | undefined {
    return loadoutUpdate(this.messages, this.options.systemSections(this.toolsValue), toolDeclarations(this.toolsValue), Date.now());
  }

  private start(prompts: AgentMessage[]): Promise<void> {
    this.recorder.reset();
    // Ahead of the run's messages, like Pi: the model reads the prompt it is given before them.
    const update = this.loadoutUpdate();
    if (update) prompts = [update, ...prompts];
    // Made here, not when the first turn begins: an abort that comes before that (an RPC abort
    // in the same stdin chunk as its prompt) must stop this run.
    const first = new AbortController();
    this.abortController = first;
    const run = this.runWithRetries(prompts, first)
      .finally(() => {
        this.running = undefined;
        this.abortController = undefined;
        // Told once the session is idle again: a client that asks for the state now hears so.
        this.emit({ type: "agent_settled" });
      })
      .then(() => this.recorder.throwIfFailed());
    this.running = run;
    return run;
  }

  /** Typed input as it is sent: `/skill:name` and prompt templates expanded. */
  expand(text: string): string {
    return this.options.expandInput ? this.options.expandInput(text) : text;
  }

  /**
   * Queues a steer. `sent`, when given, is what goes to the model instead of the typed text
   * expanded (the caller expanded it and added attached files); the queue still shows `text`.
   */
  steer(text: string, images?: Image[], sent?: string): void {
    this.steering.push({ text, message: userMessage(sent ?? this.expand(text), images, text) });
    this.emitQueue();
  }

  followUp(text: string, images?: Image[], sent?: string): void {
    this.followUps.push({ text, message: userMessage(sent ?? this.expand(text), images, text) });
    this.emitQueue();
  }

  /**
   * Stops the run (stream, tools, retry wait) and a compaction in progress, and empties both
   * queues unless `keepQueued` (RPC's `abort`, as upstream: queued messages go with the next
   * run). Returns the texts taken off the queues, steering first, so a UI can put them back in
   * the editor. Resolves once the run has ended.
   */
  async abort(options: { keepQueued?: boolean } = {}): Promise<string[]> {
    const queued = options.keepQueued ? [] : this.clearQueues();
    this.abortController?.abort();
    this.compactor.abort();
    await this.running?.catch(() => undefined);
    return queued;
  }

  /** Empties both queues at once (steering first) and returns their texts. */
  clearQueues(): string[] {
    const { steering, followUp } = this.clearQueue();
    return [...steering, ...followUp];
  }

  /** Empties both queues and returns their texts, each queue on its own (RPC `clear_queue`). */
  clearQueue(): { steering: string[]; followUp: string[] } {
    const steering: QueuedMessage[] = this.steering.clear();
    const followUp: QueuedMessage[] = this.followUps.clear();
    if (steering.length + followUp.length > 0) this.emitQueue();
    return { steering: steering.map((item) => item.text), followUp: followUp.map((item) => item.text) };
  }

  /** Cancels a pending retry (the wait before the next attempt); a running turn is left alone. */
  abortRetry(): void {
    this.retryWait?.abort();
  }

  async waitForIdle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /**
   * Runs the agent until it settles: failed answers are retried as configured, an overflow is
   * compacted and retried once, a context past the threshold is compacted (and queued messages
   * then delivered) — however often that happens in one long run.
   */
  private async runWithRetries(prompts: AgentMessage[], first: AbortController): Promise<void> {
    // Start on the next turn of the event loop: whoever started the run (an RPC command) answers
    // before the run's first event, as upstream does.
    await new Promise((resolve) => setImmediate(resolve));
    let next = prompts;
    let pending: AbortController | undefined = first;
    for (;;) {
      const model = this.preflight();
      const controller = pending ?? new AbortController();
      pending = undefined;
      this.abortController = controller;
      this.retrier.startRequest();
      await runAgentLoop(next, this.messages, this.loopConfig(model), this.onLoopEvent, controller.signal);
      const last = this.messages[this.messages.length - 1];
      const answer = last?.role === "assistant" ? (last as AssistantMessage) : undefined;
      if (this.recorder.failed) {
        this.retrier.stop("the session file could not be written");
        return;
      }
      if (controller.signal.aborted) {
        this.retrier.finish(answer, true);
        return;
      }
      if (answer && this.retrier.shouldRetry(answer, model)) {
        const waited = new AbortController();
        this.abortController = waited;
        this.retryWait = waited;
        const retrying = await this.retrier.wait(answer, this.messages, waited.signal);
        this.retryWait = undefined;
        if (!retrying) return;
        next = [];
        continue;
      }
      this.retrier.finish(answer, false);
      const outcome = await this.compactor.afterRun(answer);
      if (outcome === "retry") {
        next = [];
        continue;
      }
      if (outcome === "compacted") {
        // Messages queued while the context was full go out now, on the compacted context.
        const queued = [...this.take(this.steering), ...this.take(this.followUps)];
        if (queued.length > 0) {
          next = queued;
          continue;
        }
      }
      return;
    }
  }

  private loopConfig(model: Model): LoopConfig {
    return {
      model,
      stream: this.options.streamFor(model),
      // The key and headers are resolved for every request, as upstream does (a `!command` runs again).
      streamOptions: () => this.streamOptions(model),
      tools: this.toolsValue,
      toolContext: { cwd: this.options.cwd, agentDir: this.options.agentDir, model },
      toolExecution: this.options.toolExecution ?? "parallel",
      convert: (messages) => (this.options.requestSettings?.().blockImages ? blockImages(convertToLlm(messages)) : convertToLlm(messages)),
      takeSteering: () => this.take(this.steering),
      takeFollowUps: () => this.take(this.followUps),
      beforeRequest: () => this.compactor.beforeRequest(),
      onStreamError: (hint) => this.retrier.noteStreamError(hint),
    };
  }

  /** Switches the model (recorded in the session) and re-clamps the thinking level. */
  setModel(model: Model): void {
    // Recorded first: a change the file cannot take does not happen.
    this.store.appendModelChange(model.provider, model.id);
    this.modelValue = model;
    // As Pi 0.87: the defaultThinkingLevel setting when there is one, else the level in force.
    const wanted = this.options.defaultThinkingLevel?.() ?? this.level;
    this.applyThinkingLevel(clampThinkingLevel(model, wanted));
  }

  /** Sets the thinking level (clamped to the model); records it only when it changes. */
  setThinkingLevel(level: ThinkingLevel): void {
    this.applyThinkingLevel(this.modelValue ? clampThinkingLevel(this.modelValue, level) : "off");
  }

  private applyThinkingLevel(level: ThinkingLevel): void {
    if (level === this.level) return;
    this.store.appendThinkingLevelChange(level);
    this.level = level;
    this.emit({ type: "thinking_level_changed", level });
  }

  setTools(tools: AnyTool[]): void {
    this.toolsValue = tools;
  }

  /** The last answer's text blocks, joined (what print mode shows). */
  lastAssistant(): AssistantMessage | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const message = this.messages[i]!;
      if (message.role === "assistant") return message as AssistantMessage;
    }
    return undefined;
  }

  dispose(): void {
    this.abortController?.abort();
    this.store.close();
  }
}
