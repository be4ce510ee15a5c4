/**
 * `AgentSession` owns a run: the session store, the model and thinking level, the active tools,
 * the steering and follow-up queues, retries, and the one event stream every mode renders.
 * Nothing else writes the session file while a session is open.
 */
import { envKeyNames } from "../ai/auth.ts";
import { isRetryableError } from "../ai/errors.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import { clampThinkingLevel } from "../ai/thinking.ts";
import type { AssistantMessage, Model, StreamFunction, StreamOptions } from "../ai/types.ts";
import { convertToLlm } from "../session/convert.ts";
import type { AgentMessage, CustomMessage, ThinkingLevel } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import type { AnyTool } from "../tools/types.ts";
import type { RetrySettings } from "../resources/settings.ts";
import type { PigEvent } from "./events.ts";
import { runAgentLoop } from "./loop.ts";
import { MessageQueue, userMessage, type QueueMode, type QueuedMessage } from "./queue.ts";
import { retryDelay, sleep } from "./retry.ts";

export interface AgentSessionOptions {
  store: SessionStore;
  registry: ModelRegistry;
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  tools: AnyTool[];
  /** The system prompt for the current tools (re-asked when tools change). */
  systemPrompt: (tools: readonly AnyTool[]) => string;
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
}

export type Listener = (event: PigEvent) => void;

/** A prompt refused before anything ran (no model, no key, busy). */
export class PromptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PromptError";
  }
}

type Image = { type: "image"; data: string; mimeType: string };

export class AgentSession {
  readonly store: SessionStore;
  readonly registry: ModelRegistry;
  readonly messages: AgentMessage[];
  readonly steering: MessageQueue;
  readonly followUps: MessageQueue;
  private modelValue: Model | undefined;
  private level: ThinkingLevel;
  private toolsValue: AnyTool[];
  private readonly listeners = new Set<Listener>();
  private running: Promise<void> | undefined;
  private abortController: AbortController | undefined;
  private retryAttempt = 0;
  private retryHint: { afterMs?: number; tooLong?: boolean } = {};
  retry: RetrySettings;

  constructor(private readonly options: AgentSessionOptions) {
    this.store = options.store;
    this.registry = options.registry;
    this.modelValue = options.model;
    this.level = options.model ? clampThinkingLevel(options.model, options.thinkingLevel) : "off";
    this.toolsValue = options.tools;
    this.retry = options.retry;
    this.steering = new MessageQueue(options.steeringMode);
    this.followUps = new MessageQueue(options.followUpMode);
    const context = this.store.buildContext();
    this.messages = context.messages;
    this.recordStartingState(context.messages.length === 0);
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

  private emit(event: PigEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private persist(message: AgentMessage): void {
    if (message.role === "custom") {
      const custom = message as CustomMessage;
      this.store.appendCustomMessageEntry(custom.customType, custom.content as never, custom.display, custom.details);
    } else {
      this.store.appendMessage(message);
    }
  }

  private onLoopEvent = (event: PigEvent): void => {
    if (event.type === "message_end") this.persist(event.message);
    this.emit(event);
    if (event.type === "message_end" && event.message.role === "assistant" && this.retryAttempt > 0) {
      if ((event.message as AssistantMessage).stopReason !== "error") {
        this.emit({ type: "auto_retry_end", success: true, attempt: this.retryAttempt });
        this.retryAttempt = 0;
      }
    }
  };

  private emitQueue(): void {
    this.emit({ type: "queue_update", steering: this.steering.texts, followUp: this.followUps.texts });
  }

  private take(queue: MessageQueue): AgentMessage[] {
    const taken = queue.take();
    if (taken.length > 0) this.emitQueue();
    return taken.map((item) => item.message);
  }

  private streamOptions(model: Model): StreamOptions {
    const apiKey = this.registry.apiKey(model) ?? "";
    const reasoning = this.level === "off" ? undefined : this.level;
    return {
      apiKey,
      headers: this.registry.headers(model, apiKey),
      ...(reasoning ? { reasoning } : {}),
      sessionId: this.store.sessionId,
      maxRetries: this.retry.provider.maxRetries ?? 0,
      ...(this.retry.provider.timeoutMs !== undefined ? { timeoutMs: this.retry.provider.timeoutMs } : {}),
      maxRetryDelayMs: this.retry.provider.maxRetryDelayMs,
    };
  }

  /** Checks that a prompt can run now; throws `PromptError` with upstream's wording if not. */
  private preflight(): Model {
    const model = this.modelValue;
    if (!model) {
      throw new PromptError("No model selected.\n\nUse --model, set defaultProvider/defaultModel in settings, or add a provider in models.json.");
    }
    if (!this.registry.apiKey(model)) {
      throw new PromptError(missingKeyMessage(model.provider));
    }
    return model;
  }

  /**
   * Sends a user message. While a run is going, `streamingBehavior` says whether it steers the
   * run or follows up after it; without one the prompt is refused. Resolves when the run (with
   * its retries) is over.
   */
  async prompt(text: string, options: { images?: Image[]; streamingBehavior?: "steer" | "followUp" } = {}): Promise<void> {
    if (this.running) {
      // Queued input is expanded when it is queued (upstream: no input event for queued text).
      if (options.streamingBehavior === "steer") return this.steer(text, options.images);
      if (options.streamingBehavior === "followUp") return this.followUp(text, options.images);
      throw new PromptError("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
    }
    this.preflight();
    const prompts: AgentMessage[] = [userMessage(this.expand(text), options.images)];
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

  private start(prompts: AgentMessage[]): Promise<void> {
    const run = this.runWithRetries(prompts).finally(() => {
      this.running = undefined;
      this.abortController = undefined;
    });
    this.running = run;
    return run;
  }

  private expand(text: string): string {
    return this.options.expandInput ? this.options.expandInput(text) : text;
  }

  steer(text: string, images?: Image[]): void {
    this.steering.push({ text, message: userMessage(this.expand(text), images) });
    this.emitQueue();
  }

  followUp(text: string, images?: Image[]): void {
    this.followUps.push({ text, message: userMessage(this.expand(text), images) });
    this.emitQueue();
  }

  /**
   * Stops the run (stream, tools, retry wait) and empties both queues. Returns the queued texts,
   * steering first, so a UI can put them back in the editor. Resolves once the run has ended.
   */
  async abort(): Promise<string[]> {
    const queued: QueuedMessage[] = [...this.steering.clear(), ...this.followUps.clear()];
    if (queued.length > 0) this.emitQueue();
    this.abortController?.abort();
    await this.running?.catch(() => undefined);
    return queued.map((item) => item.text);
  }

  async waitForIdle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async runWithRetries(prompts: AgentMessage[]): Promise<void> {
    let next = prompts;
    for (;;) {
      const model = this.preflight();
      const controller = new AbortController();
      this.abortController = controller;
      this.retryHint = {};
      await runAgentLoop(
        next,
        this.messages,
        {
          model,
          stream: this.options.streamFor(model),
          streamOptions: () => this.streamOptions(model),
          systemPrompt: this.options.systemPrompt(this.toolsValue),
          tools: this.toolsValue,
          toolContext: { cwd: this.options.cwd, agentDir: this.options.agentDir, model },
          toolExecution: this.options.toolExecution ?? "parallel",
          convert: convertToLlm,
          takeSteering: () => this.take(this.steering),
          takeFollowUps: () => this.take(this.followUps),
          onStreamError: (hint) => {
            this.retryHint = hint;
          },
        },
        this.onLoopEvent,
        controller.signal,
      );
      if (controller.signal.aborted) {
        if (this.retryAttempt > 0) this.endRetry("Retry cancelled");
        return;
      }
      const last = this.messages[this.messages.length - 1];
      if (!last || last.role !== "assistant") return;
      const answer = last as AssistantMessage;
      if (!this.shouldRetry(answer, model)) {
        if (this.retryAttempt > 0 && answer.stopReason === "error") this.endRetry(answer.errorMessage ?? "error", this.retryAttempt);
        return;
      }
      this.retryAttempt++;
      if (this.retryAttempt > this.retry.maxRetries) {
        this.endRetry(answer.errorMessage ?? "error", this.retryAttempt - 1);
        return;
      }
      const delayMs = retryDelay(this.retryAttempt, this.retry.baseDelayMs, this.retryHint.afterMs);
      this.emit({
        type: "auto_retry_start",
        attempt: this.retryAttempt,
        maxAttempts: this.retry.maxRetries,
        delayMs,
        errorMessage: answer.errorMessage ?? "",
      });
      // The failed answer stays in the file; the model is not shown it again.
      this.messages.pop();
      const waited = new AbortController();
      this.abortController = waited;
      if (!(await sleep(delayMs, waited.signal))) {
        this.endRetry("Retry cancelled");
        return;
      }
      next = [];
    }
  }

  private shouldRetry(answer: AssistantMessage, model: Model): boolean {
    if (!this.retry.enabled || answer.stopReason !== "error") return false;
    // A server that asks for a longer wait than allowed is not retried (upstream fails at once).
    const cap = this.retry.provider.maxRetryDelayMs;
    if (this.retryHint.tooLong || (cap > 0 && (this.retryHint.afterMs ?? 0) > cap)) return false;
    return isRetryableError(answer, model.contextWindow);
  }

  private endRetry(finalError: string, attempt = this.retryAttempt): void {
    this.emit({ type: "auto_retry_end", success: false, attempt, finalError });
    this.retryAttempt = 0;
  }

  /** Switches the model (recorded in the session) and re-clamps the thinking level. */
  setModel(model: Model): void {
    const previous = this.modelValue;
    this.modelValue = model;
    this.store.appendModelChange(model.provider, model.id);
    const wanted = previous && !previous.reasoning ? "medium" : this.level;
    this.applyThinkingLevel(clampThinkingLevel(model, wanted));
  }

  /** Sets the thinking level (clamped to the model); records it only when it changes. */
  setThinkingLevel(level: ThinkingLevel): void {
    this.applyThinkingLevel(this.modelValue ? clampThinkingLevel(this.modelValue, level) : "off");
  }

  private applyThinkingLevel(level: ThinkingLevel): void {
    if (level === this.level) return;
    this.level = level;
    this.store.appendThinkingLevelChange(level);
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

/** The message for a provider without a key: which variable to set, and the models.json way. */
export function missingKeyMessage(provider: string): string {
  const variable = envKeyNames(provider).at(-1)!;
  return `No API key found for ${provider}.\n\nSet ${variable}, pass --api-key, or configure "apiKey" for the provider in models.json.`;
}
