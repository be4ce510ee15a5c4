/**
 * Prompting and running, on top of the session's state (session-core.ts): the input funnel,
 * the hooks around each run, model call and message, the steering and follow-up queues, and
 * stopping.
 */
import type { AssistantMessage, Model } from "../ai/types.ts";
import { blockImages, convertToLlm } from "../session/convert.ts";
import type { AgentMessage, CustomMessage, SystemMessage, ToolResultMessage, UserMessage } from "../session/format.ts";
import { currentSystemMessage, loadoutUpdate, systemPromptText } from "../session/system-messages.ts";
import type { AnyTool } from "../tools/types.ts";
import type { LoopEvent, PigEvent } from "./events.ts";
import { NO_HOOKS, type HookImage, type ToolCallHookEvent, type ToolResultHookEvent } from "./hooks.ts";
import { outcomeOf, settleBoundary, turnBoundary, type BoundaryHost } from "./boundary-run.ts";
import type { LoopConfig } from "./loop.ts";
import { userMessage, type MessageQueue, type QueuedMessage } from "./queue.ts";
import { runWithRetries, type RunHost } from "./run.ts";
import { PromptError } from "./errors.ts";
import { SessionCore, toolDeclarations, type SessionCoreOptions } from "./session-core.ts";
import { submitInput, type SubmitHost, type SubmitOptions } from "./submit.ts";
import { redactAnswer } from "./redact-events.ts";
import { DEFAULT_OUTPUT_LIMITS } from "../tools/output-bound.ts";

export class RunningSession extends SessionCore {
  protected readonly submitHost: SubmitHost;
  protected readonly runHost: RunHost;
  protected turnsSinceCollection = 0;
  /** Turns of the current run so far; the index of the turn that ended last. */
  protected turnIndex = 0;
  protected lastTurnIndex = 0;
  /** A system prompt a hook chose for the run in progress. */
  protected runSystemPrompt: string | undefined;
  /** Custom messages sent with `deliverAs: "nextTurn"`, for the next prompt. */
  protected readonly nextTurn: CustomMessage[] = [];

  constructor(options: SessionCoreOptions) {
    super(options);
    this.submitHost = this.makeSubmitHost();
    this.runHost = {
      activity: this.activity,
      conversation: this.conversation,
      retrier: this.retrier,
      compactor: this.compactor,
      recorder: this.recorder,
      preflight: () => this.preflight(),
      loopConfig: (model) => this.loopConfig(model),
      onLoopEvent: this.onLoopEvent,
      takeQueued: () => [...this.take(this.steering), ...this.take(this.followUps)],
      beforeSettle: async (answer, signal) => this.hooksValue !== NO_HOOKS && settleBoundary(this.boundaryHost(), outcomeOf(answer), signal),
    };
  }

  /** What the boundary hooks act on (boundary-run.ts). */
  protected boundaryHost(): BoundaryHost {
    return {
      hooks: this.hooksValue,
      store: this.store,
      conversation: this.conversation,
      pending: () => [...this.steering.peek(), ...this.followUps.peek()],
      entryIdOf: (message) => this.recorder.entryIdOf(message),
      emit: (event) => this.emit(event),
      changed: (reason) => this.changed(reason),
      report: (error) => this.reportExtensionError(error),
    };
  }

  /**
   * `/compact [instructions]`: stops a running turn (queued messages are kept), then summarises.
   * Throws a `CompactionError` ("Already compacted", "Nothing to compact …", "Compaction failed …").
   */
  async compact(customInstructions?: string) {
    this.activity.abort("run");
    this.activity.abort("retry");
    await this.activity.run?.catch(() => undefined);
    return this.activity.track(this.compactor.manual(customInstructions));
  }

  get isCompacting(): boolean {
    return this.activity.isCompacting;
  }

  /** Stops a compaction or a branch summary in progress and nothing else; false when none runs. */
  abortCompaction(): boolean {
    const compaction = this.activity.abort("compaction");
    return this.activity.abort("branchSummary") || compaction;
  }

  protected onLoopEvent = (loopEvent: LoopEvent): void => {
    const event: PigEvent = loopEvent.type === "agent_end" ? { ...loopEvent, willRetry: this.willRetry(loopEvent.messages) } : loopEvent;
    if (event.type === "agent_start") this.turnIndex = 0;
    if (event.type === "turn_end") this.lastTurnIndex = this.turnIndex++;
    if (event.type === "message_end") this.recorder.record(event.message);
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
   * A finished message, before anyone hears of it: an answer is cleaned of keys, then the hook
   * may replace the message — written into the same object, so the context, the events and the
   * file all see the replacement. A replacement of another role is refused.
   */
  protected async finishMessage(message: AgentMessage): Promise<void> {
    // Cleaned before it is stored (or shown to a hook), not only before it is shown.
    if (message.role === "assistant") redactAnswer(message as AssistantMessage, this.redactor);
    if (this.hooksValue === NO_HOOKS) return;
    const replacement = await this.hooksValue.messageEnd(message, this.activity.signal("run"));
    if (!replacement || replacement === message) return;
    if (replacement.role !== message.role) {
      this.reportExtensionError({ extensionPath: "", event: "message_end", error: "message_end handlers must return a message with the same role" });
      return;
    }
    for (const key of Object.keys(message)) delete (message as Record<string, unknown>)[key];
    Object.assign(message, replacement);
  }

  /**
   * Whether the run that just ended is retried: its last answer failed for a passing reason,
   * retrying is on with attempts left, and nobody stopped the run (upstream's `agent_end.willRetry`).
   */
  protected willRetry(produced: readonly AgentMessage[]): boolean {
    const model = this.modelValue;
    const answer = produced.findLast((m) => m.role === "assistant") as AssistantMessage | undefined;
    if (!model || !answer || this.activity.aborted("run") || this.recorder.failed) return false;
    return this.retrier.attempt < this.retry.maxRetries && this.retrier.shouldRetry(answer, model);
  }

  protected emitQueue(): void {
    this.emit({ type: "queue_update", steering: this.steering.texts, followUp: this.followUps.texts });
  }

  protected take(queue: MessageQueue): AgentMessage[] {
    const taken = queue.take();
    // A custom message leaving the queue changes no display (upstream sends no queue_update for it).
    if (taken.some((item) => item.text !== undefined)) this.emitQueue();
    return taken.map((item) => item.message);
  }

  // ── input ────────────────────────────────────────────────────────────────

  /**
   * Input from anywhere (submit.ts): a command, the input hook, expansion, then a new run or —
   * while one runs — a steer or a follow-up. Resolves when what it started is over.
   */
  submit(text: string, options: SubmitOptions): Promise<void> {
    return submitInput(this.submitHost, text, options);
  }

  /**
   * Sends a user message as the program wrote it: no command, no input hook. While a run is
   * going, `streamingBehavior` says whether it steers or follows up; without one it is refused.
   * Resolves when the run (with its retries) is over.
   */
  async prompt(text: string, options: { images?: HookImage[]; streamingBehavior?: "steer" | "followUp"; typedText?: string } = {}): Promise<void> {
    const expanded = this.expand(text);
    const message = userMessage(expanded, options.images, options.typedText ?? text);
    if (this.activity.isRunning) {
      if (!options.streamingBehavior) {
        throw new PromptError("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
      }
      return this.enqueue(options.streamingBehavior, text, message);
    }
    await this.startPrompt(message, expanded, options.images, () => undefined);
  }

  protected async startPrompt(message: UserMessage, expanded: string, images: HookImage[] | undefined, accepted: () => void): Promise<void> {
    this.preflight();
    // Custom messages an extension sent for the next turn go right after the prompt (upstream's order).
    let prompts: AgentMessage[] = [message, ...this.nextTurn.splice(0)];
    this.runSystemPrompt = undefined;
    if (this.hooksValue !== NO_HOOKS) {
      const update = this.loadoutUpdate();
      const base = systemPromptText(currentSystemMessage(update ? [...this.messages, update] : this.messages));
      // Under the prompt's own signal (no run exists yet): an abort ends the hook and the prompt with it.
      const hooks = this.hooksValue;
      const { hooked, aborted } = await this.activity.during("prompt", async (signal) => {
        const result = await hooks.beforeAgentStart({ prompt: expanded, ...(images ? { images } : {}), systemPrompt: base }, signal);
        return { hooked: result, aborted: signal.aborted };
      });
      if (aborted) {
        accepted();
        return;
      }
      const custom = (hooked?.messages ?? []).map((m): CustomMessage => ({ ...m, role: "custom", timestamp: Date.now() }) as CustomMessage);
      prompts.push(...custom);
      if (hooked?.systemPrompt) this.runSystemPrompt = hooked.systemPrompt;
      // A run may have started while the hook worked (another client's prompt): refused, as any busy prompt is.
      if (this.activity.isRunning) throw new PromptError("Agent is already processing.");
    }
    this.flushHeld();
    // Steering typed while idle goes right after the prompt.
    prompts = [...prompts, ...this.take(this.steering)];
    const run = this.start(prompts);
    accepted();
    await run;
  }

  protected makeSubmitHost(): SubmitHost {
    const session = this;
    return {
      get commands() {
        return session.commandsValue;
      },
      get hooks() {
        return session.hooksValue;
      },
      get isStreaming() {
        return session.activity.isRunning;
      },
      expand: (text) => this.expand(text),
      reportExtensionError: (error) => this.reportExtensionError(error),
      enqueue: (kind, shown, message) => this.enqueue(kind, shown, message),
      startPrompt: (message, expanded, images, accepted) => this.startPrompt(message, expanded, images, accepted),
      duringPrompt: (body) => this.activity.during("prompt", body),
    };
  }

  protected enqueue(kind: "steer" | "followUp", shown: string, message: UserMessage): void {
    (kind === "steer" ? this.steering : this.followUps).push({ text: shown, message });
    this.emitQueue();
  }

  /**
   * An extension's `sendMessage`, as upstream delivers it: `nextTurn` waits for the next prompt;
   * while a run goes on it steers (or, `followUp`, follows up); idle with `triggerTurn` it is the
   * prompt of a new run (no input or before_agent_start hooks); idle otherwise it is added to the
   * context and the file (a `custom_message`) and announced with message_start/message_end.
   * Resolves when what it started is over.
   */
  async sendCustomMessage(message: CustomMessage, options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" } = {}): Promise<void> {
    if (options.deliverAs === "nextTurn") {
      this.nextTurn.push(message);
      return;
    }
    if (this.activity.isRunning) {
      (options.deliverAs === "followUp" ? this.followUps : this.steering).push({ message });
      return;
    }
    if (options.triggerTurn) {
      this.preflight();
      this.runSystemPrompt = undefined;
      this.flushHeld();
      await this.start([message, ...this.take(this.steering)]);
      return;
    }
    this.conversation.append(message);
    this.recorder.record(message);
    this.emit({ type: "message_start", message });
    this.emit({ type: "message_end", message });
  }

  /** Runs the agent on the current context without a new message (e.g. after a compaction). */
  async continue(): Promise<void> {
    if (this.activity.isRunning) throw new PromptError("Agent is already processing.");
    this.preflight();
    this.runSystemPrompt = undefined;
    await this.start([]);
  }

  /**
   * The system message that declares the prompt and tools pig has now, when the context does not
   * declare them already (a new session, a session Pi wrote, tools or resources that changed).
   */
  loadoutUpdate(): SystemMessage | undefined {
    const tools = this.toolRegistry.active;
    return loadoutUpdate(this.messages, this.options.systemSections(tools), toolDeclarations(tools), Date.now());
  }

  protected start(prompts: AgentMessage[]): Promise<void> {
    this.recorder.reset();
    // Ahead of the run's messages, like Pi: the model reads the prompt it is given before them.
    const update = this.loadoutUpdate();
    if (update) prompts = [update, ...prompts];
    // Made here, not when the first turn begins: an abort that comes before that (an RPC abort
    // in the same stdin chunk as its prompt) must stop this run.
    const first = this.activity.begin("run");
    const run = runWithRetries(this.runHost, prompts, first)
      .finally(() => {
        this.activity.endRun();
        this.runSystemPrompt = undefined;
        // Told once the session is idle again: a client that asks for the state now hears so.
        this.emit({ type: "agent_settled" });
      })
      .then(() => this.recorder.throwIfFailed());
    this.activity.startRun(run);
    return run;
  }

  /** Queues a steer (RPC `steer`, the SDK): expanded, no input hook, as upstream. */
  steer(text: string, images?: HookImage[]): void {
    this.enqueue("steer", text, userMessage(this.expand(text), images, text));
  }

  followUp(text: string, images?: HookImage[]): void {
    this.enqueue("followUp", text, userMessage(this.expand(text), images, text));
  }

  /**
   * Stops the run (stream, tools, retry wait), a compaction and a branch summary, and empties
   * both queues unless `keepQueued` (RPC's `abort`, as upstream: queued messages go with the
   * next run). Returns the texts taken off the queues, steering first, so a UI can put them back
   * in the editor. Resolves once everything stopped has ended.
   */
  async abort(options: { keepQueued?: boolean } = {}): Promise<string[]> {
    const queued = options.keepQueued ? [] : this.clearQueues();
    this.activity.stopAll();
    await this.activity.waitForIdle();
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
    const texts = (items: QueuedMessage[]) => items.flatMap((item) => (item.text !== undefined ? [item.text] : []));
    return { steering: texts(steering), followUp: texts(followUp) };
  }

  /** Cancels a pending retry (the wait before the next attempt); a running turn is left alone. */
  abortRetry(): void {
    this.activity.abort("retry");
  }

  /** Resolves once the run, compactions and tree moves under way have ended. */
  waitForIdle(): Promise<void> {
    return this.activity.waitForIdle();
  }

  protected loopConfig(model: Model): LoopConfig {
    const hooks = this.hooksValue === NO_HOOKS ? undefined : this.hooksValue;
    return {
      model,
      stream: this.options.streamFor(model),
      // The key and headers are resolved for every request, as upstream does (a `!command` runs again).
      streamOptions: (signal) => this.requestOptions(model, true, signal),
      tools: this.toolRegistry.active,
      toolContext: { cwd: this.options.cwd, agentDir: this.options.agentDir, model, spillFiles: this.spillFiles },
      toolExecution: this.options.toolExecution ?? "parallel",
      outputLimits: this.options.toolOutput ?? DEFAULT_OUTPUT_LIMITS,
      convert: (messages) => (this.options.requestSettings?.().blockImages ? blockImages(convertToLlm(messages)) : convertToLlm(messages)),
      takeSteering: () => this.take(this.steering),
      takeFollowUps: () => this.take(this.followUps),
      beforeRequest: () => this.compactor.beforeRequest(),
      onStreamError: (hint) => this.retrier.noteStreamError(hint),
      finishMessage: (message) => this.finishMessage(message),
      ...(this.runSystemPrompt ? { systemPrompt: this.runSystemPrompt } : {}),
      // Only the hooks someone handles: a context nobody rewrites is not copied for every call.
      ...(hooks?.listens("context") ? { rewriteContext: (messages: AgentMessage[], signal?: AbortSignal) => hooks.context(messages, signal) } : {}),
      ...(hooks?.listens("context_with_system")
        ? { rewriteWithSystem: (messages: AgentMessage[], signal?: AbortSignal) => hooks.contextWithSystem(messages, signal) }
        : {}),
      ...(hooks?.listens("turn_end")
        ? {
            finishTurn: (answer: AssistantMessage, results: ToolResultMessage[], signal: AbortSignal) =>
              turnBoundary(this.boundaryHost(), this.lastTurnIndex, answer, results, signal),
          }
        : {}),
      ...(hooks
        ? {
            toolCall: (event: ToolCallHookEvent, signal?: AbortSignal) => hooks.toolCall(event, signal),
            toolResult: (event: ToolResultHookEvent, signal?: AbortSignal) => hooks.toolResult(event, signal),
          }
        : {}),
    };
  }

  /** Makes exactly these tools active (see ToolRegistry.setActive). */
  setTools(tools: AnyTool[]): void {
    for (const tool of tools) if (!this.toolRegistry.get(tool.name)) this.toolRegistry.register(tool, { kind: "sdk" });
    this.toolRegistry.setActive(tools.map((tool) => tool.name));
  }

}
