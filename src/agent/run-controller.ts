/**
 * Prompting and running: the input funnel, the hooks around each run, model call and message,
 * the queues feeding a run, the user's shell commands held until the next prompt, and
 * stopping. Each run goes through run.ts (retries, overflow recovery, compaction) and the loop.
 */
import type { AssistantMessage, Model } from "../ai/types.ts";
import { isVirtualModel } from "../ai/virtual-models.ts";
import type { RetrySettings } from "../resources/settings-effective.ts";
import type { SystemPromptOptions } from "../resources/system-prompt-options.ts";
import { blockImages, convertToLlm } from "../session/convert.ts";
import type { AgentMessage, CustomMessage, ThinkingLevel, ToolResultMessage, UserMessage } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import type { OutputLimits } from "../tools/output-bound.ts";
import type { SpillFiles } from "../tools/spill-files.ts";
import type { AnyTool } from "../tools/types.ts";
import type { Activity } from "./activity.ts";
import type { AttachedExtensions } from "./attached-extensions.ts";
import { outcomeOf, settleBoundary, turnBoundary, type BoundaryHost } from "./boundary-run.ts";
import type { CompactionRunner } from "./compaction-runner.ts";
import type { Conversation } from "./conversation.ts";
import { turnsBetweenCollections } from "./collection-pace.ts";
import { PromptError } from "./errors.ts";
import type { LoopEvent, PigEvent } from "./events.ts";
import type { HookImage, InputSource, ToolCallHookEvent, ToolResultHookEvent } from "./hooks.ts";
import type { LoopConfig } from "./loop.ts";
import type { ModelCalls } from "./model-calls.ts";
import { userMessage } from "./queue.ts";
import type { SessionRecorder } from "./recorder.ts";
import { redactAnswer } from "./redact-events.ts";
import { RunPrompt } from "./run-prompt.ts";
import { routeRequests } from "./virtual-route.ts";
import type { Retrier } from "./retry.ts";
import { runWithRetries, type RunHost } from "./run.ts";
import type { RunQueues } from "./run-queues.ts";
import type { SessionEvents } from "./session-events.ts";
import { preparePromptImages } from "./prompt-images.ts";
import type { PromptOptionsPort } from "./session-options.ts";
import { queueInput, submitInput, type SubmitHost, type SubmitOptions } from "./submit.ts";
import type { ToolRegistry } from "./tool-registry.ts";
import { NestedToolCallRunner, type NestedCallOptions, type NestedCallOutcome } from "./nested-tool-calls.ts";
import type { ToolCallConfig } from "./tool-calls.ts";

/** The parts a run works with, shared with the rest of the session. */
export interface RunParts {
  activity: Activity;
  conversation: Conversation;
  retrier: Retrier;
  compactor: CompactionRunner;
  recorder: SessionRecorder;
  queues: RunQueues;
  extensions: AttachedExtensions;
  events: SessionEvents;
  calls: ModelCalls;
  tools: ToolRegistry;
}

/** What a run reads of the session and its setup. */
export interface RunSetup {
  store(): SessionStore;
  model(): Model | undefined;
  /** The session's thinking level. */
  level(): ThinkingLevel;
  retry(): RetrySettings;
  cwd: string;
  agentDir: string;
  spillFiles: SpillFiles;
  toolExecution: "parallel" | "sequential";
  /** The bound on results of tools that do not bound their own (as the settings say now). */
  outputLimits(): OutputLimits;
  /** The system prompt for the current tools, as named sections (re-asked before every prompt). */
  systemSections(tools: readonly AnyTool[]): Record<string, string>;
  /** Its structured inputs, and the sections made from them once a hook edited them. */
  promptOptions: PromptOptionsPort;
  /** Typed input as it is sent: `/skill:name` and prompt templates expanded. */
  expand(text: string): string;
  /** `images.blockImages` as it is now. */
  blockImages(): boolean;
  /** `images.autoResize` as it is now: input's images are scaled down to the limits. */
  autoResizeImages(): boolean;
}

export class RunController {
  private readonly submitHost: SubmitHost;
  private readonly runHost: RunHost;
  /** `!` commands run while the agent was busy: added before the next prompt. */
  private readonly heldBash: AgentMessage[] = [];
  /** Custom messages sent with `deliverAs: "nextTurn"`, for the next prompt. */
  private readonly nextTurn: CustomMessage[] = [];
  /** The system prompt of the run: what before_agent_start chose, what the run declares. */
  private readonly runPrompt: RunPrompt;
  private turnsSinceCollection = 0;
  /** The tool calls' configuration of the run in progress, for the calls tools make (`ctx.executeTool`). */
  private runToolConfig: ToolCallConfig | undefined;
  private readonly nested: NestedToolCallRunner;
  /** Turns of the current run so far; the index of the turn that ended last. */
  private turnIndex = 0;
  private lastTurnIndex = 0;

  constructor(
    private readonly parts: RunParts,
    private readonly setup: RunSetup,
  ) {
    const { activity, conversation, retrier, compactor, recorder, queues, extensions } = parts;
    this.runPrompt = new RunPrompt(parts, setup);
    this.nested = new NestedToolCallRunner({
      config: () => (activity.isRunning ? this.runToolConfig : undefined),
      signal: () => activity.signal("run"),
      callable: () => parts.tools.callable(),
      emit: (event) => this.onLoopEvent(event),
    });
    this.runHost = {
      activity,
      conversation,
      retrier,
      compactor,
      recorder,
      preflight: () => parts.calls.preflight(),
      loopConfig: (model, retrying) => this.loopConfig(model, retrying),
      onLoopEvent: (event) => this.onLoopEvent(event),
      takeQueued: () => queues.takeAll(),
      beforeSettle: async (answer, signal) => extensions.hooked && settleBoundary(this.boundaryHost(), outcomeOf(answer), signal),
    };
    this.submitHost = {
      get commands() {
        return extensions.commands;
      },
      get hooks() {
        return extensions.hooks;
      },
      get isStreaming() {
        return activity.isRunning;
      },
      expand: (text) => setup.expand(text),
      reportExtensionError: (error) => parts.events.reportExtensionError(error),
      enqueue: (kind, shown, message) => queues.enqueue(kind, shown, message),
      startPrompt: (message, expanded, images, accepted) => this.startPrompt(message, expanded, images, accepted),
      duringPrompt: (body) => activity.during("prompt", body),
      prepareImages: (images) => preparePromptImages(images, setup.autoResizeImages()),
    };
  }

  // ── input ────────────────────────────────────────────────────────────────

  /**
   * Input from anywhere (submit.ts): a command, the input hook, expansion, then a new run or —
   * while one runs — a steer or a follow-up. Resolves when what it started is over.
   */
  submit(text: string, options: SubmitOptions): Promise<void> {
    return submitInput(this.submitHost, text, options);
  }

  /** A user message as the program wrote it: no command, no input hook (see AgentSession.prompt). */
  async prompt(text: string, options: { images?: HookImage[]; streamingBehavior?: "steer" | "followUp"; typedText?: string } = {}): Promise<void> {
    const expanded = this.setup.expand(text);
    const message = userMessage(expanded, options.images, options.typedText ?? text);
    if (this.parts.activity.isRunning) {
      if (!options.streamingBehavior) {
        throw new PromptError("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
      }
      return this.parts.queues.enqueue(options.streamingBehavior, text, message);
    }
    await this.startPrompt(message, expanded, options.images, () => undefined);
  }

  /** A steer or a follow-up asked for as such: the input hook, expansion, the queue (submit.ts). */
  queueInput(kind: "steer" | "followUp", text: string, options: { source: InputSource; images?: HookImage[] }): Promise<"handled" | "queued"> {
    return queueInput(this.submitHost, kind, text, options);
  }

  /** Queues a steer or a follow-up as the program wrote it: expanded, no input hook. */
  queue(kind: "steer" | "followUp", text: string, images?: HookImage[]): void {
    this.parts.queues.enqueue(kind, text, userMessage(this.setup.expand(text), images, text));
  }

  private async startPrompt(message: UserMessage, expanded: string, images: HookImage[] | undefined, accepted: () => void): Promise<void> {
    const { activity, calls, queues } = this.parts;
    calls.preflight();
    this.runPrompt.forget();
    let added: CustomMessage[] = [];
    // Without a hook the run starts in this very tick (an abort right after the prompt must find it).
    if (this.runPrompt.hooked) {
      const hooked = await this.runPrompt.beforeRun({ messageType: "user", prompt: expanded, ...(images ? { images } : {}) });
      if (hooked === undefined) {
        accepted();
        return;
      }
      // A run may have started while the hook worked (another client's prompt): refused, as any busy prompt is.
      if (activity.isRunning) throw new PromptError("Agent is already processing.");
      added = hooked;
    }
    // Custom messages an extension sent for the next turn go right after the prompt (upstream's order).
    let prompts: AgentMessage[] = [message, ...this.nextTurn.splice(0), ...added];
    this.flushHeld();
    // Steering typed while idle goes right after the prompt.
    prompts = [...prompts, ...queues.take(queues.steering)];
    const run = this.start(prompts);
    accepted();
    await run;
  }

  /** The prompt's structured inputs for the tools active now (upstream's `getSystemPromptOptions()`). */
  promptOptions(): SystemPromptOptions {
    return this.runPrompt.options();
  }

  /** The system prompt now: the run's while one runs, otherwise the one the session declares. */
  get systemPrompt(): string {
    return this.runPrompt.systemPrompt;
  }

  /** An extension's `sendMessage`, delivered as upstream does (see AgentSession.sendCustomMessage). */
  async sendCustomMessage(message: CustomMessage, options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" } = {}): Promise<void> {
    const { activity, calls, queues, conversation, recorder, events } = this.parts;
    if (options.deliverAs === "nextTurn") {
      this.nextTurn.push(message);
      return;
    }
    if (activity.isRunning) {
      queues.enqueueCustom(options.deliverAs === "followUp" ? "followUp" : "steer", message);
      return;
    }
    if (options.triggerTurn) {
      calls.preflight();
      this.runPrompt.forget();
      // Upstream 1.x: a custom message that starts a run passes before_agent_start too, and
      // takes the messages sent for the next turn with it.
      let added: CustomMessage[] = [];
      if (this.runPrompt.hooked) {
        const hooked = await this.runPrompt.beforeRun({ messageType: "custom", message });
        if (hooked === undefined) return;
        // A run started while the hook worked: the message joins it, as one sent while busy does.
        if (activity.isRunning) {
          queues.enqueueCustom("steer", message);
          return;
        }
        added = hooked;
      }
      this.flushHeld();
      await this.start([message, ...this.nextTurn.splice(0), ...added, ...queues.take(queues.steering)]);
      return;
    }
    conversation.append(message);
    recorder.record(message);
    events.emit({ type: "message_start", message });
    events.emit({ type: "message_end", message });
  }

  /** Runs the agent on the current context without a new message (e.g. after a compaction). */
  async continue(): Promise<void> {
    if (this.parts.activity.isRunning) throw new PromptError("Agent is already processing.");
    this.parts.calls.preflight();
    this.runPrompt.forget();
    await this.start([]);
  }

  // ── user shell commands ──────────────────────────────────────────────────

  /**
   * Adds a user shell command's result: at once when idle, otherwise held and added just before
   * the next prompt (so it never lands in the middle of a turn).
   */
  recordUserMessage(message: AgentMessage): void {
    if (this.parts.activity.isRunning) {
      this.heldBash.push(message);
      return;
    }
    // In the context whatever the file does: a failed write keeps the entry in the session,
    // unsaved, and the caller hears of it.
    this.parts.conversation.append(message);
    this.parts.recorder.record(message);
  }

  /** Held shell results belong to the session they were run in: another session drops them. */
  dropHeld(): void {
    this.heldBash.length = 0;
  }

  private flushHeld(): void {
    // One at a time: if a write fails, the ones not yet added stay held, none is lost.
    while (this.heldBash.length > 0) {
      const message = this.heldBash.shift()!;
      this.parts.conversation.append(message);
      this.parts.recorder.record(message);
    }
  }

  // ── the run ──────────────────────────────────────────────────────────────

  private start(prompts: AgentMessage[]): Promise<void> {
    const { activity, recorder, events } = this.parts;
    recorder.reset();
    // Ahead of the run's messages, like Pi: the model reads the prompt it is given before them.
    const update = this.runPrompt.declare();
    if (update) prompts = [update, ...prompts];
    // Made here, not when the first turn begins: an abort that comes before that (an RPC abort
    // in the same stdin chunk as its prompt) must stop this run.
    const first = activity.begin("run");
    const run = runWithRetries(this.runHost, prompts, first)
      .finally(() => {
        const aborted = activity.runWasAborted;
        activity.endRun();
        this.runPrompt.end();
        this.runToolConfig = undefined;
        this.nested.clear();
        // Told once the session is idle again: a client that asks for the state now hears so.
        events.emit({ type: "agent_settled", aborted });
      })
      .then(() => recorder.throwIfFailed());
    activity.startRun(run);
    return run;
  }

  private onLoopEvent(loopEvent: LoopEvent): void {
    const { recorder, compactor, retrier, events } = this.parts;
    const event: PigEvent = loopEvent.type === "agent_end" ? { ...loopEvent, willRetry: this.willRetry(loopEvent.messages) } : loopEvent;
    if (event.type === "agent_start") this.turnIndex = 0;
    if (event.type === "turn_end") this.lastTurnIndex = this.turnIndex++;
    if (event.type === "message_end") recorder.record(event.message);
    if (event.type === "message_start" && event.message.role === "user") compactor.overflowAttempted = false;
    if (event.type === "message_end" && event.message.role === "assistant" && (event.message as AssistantMessage).stopReason !== "error") {
      compactor.overflowAttempted = false;
    }
    events.emit(event);
    if (event.type === "message_end" && event.message.role === "assistant") retrier.onAnswer(event.message as AssistantMessage);
    // A collection every few turns keeps the heap flat (collection-pace.ts), spaced by the
    // context's size so that its cost per turn does not grow with the conversation. The
    // non-blocking request holds peak RSS where a forced full collection did, for less time.
    if (event.type === "turn_end" && ++this.turnsSinceCollection >= turnsBetweenCollections(this.parts.conversation.count)) {
      this.turnsSinceCollection = 0;
      Bun.gc(false);
    }
  }

  /**
   * Whether the run that just ended is retried: its last answer failed for a passing reason,
   * retrying is on with attempts left, and nobody stopped the run (upstream's `agent_end.willRetry`).
   */
  private willRetry(produced: readonly AgentMessage[]): boolean {
    const { activity, recorder, retrier } = this.parts;
    const model = this.setup.model();
    const answer = produced.findLast((m) => m.role === "assistant") as AssistantMessage | undefined;
    if (!model || !answer || activity.aborted("run") || recorder.failed) return false;
    return retrier.attempt < this.setup.retry().maxRetries && retrier.shouldRetry(answer, model);
  }

  /**
   * A finished message, before anyone hears of it: an answer is cleaned of keys, then the hook
   * may replace the message — written into the same object, so the context, the events and the
   * file all see the replacement. A replacement of another role is refused.
   */
  private async finishMessage(message: AgentMessage): Promise<void> {
    const { extensions, events, activity } = this.parts;
    // Cleaned before it is stored (or shown to a hook), not only before it is shown.
    if (message.role === "assistant") redactAnswer(message as AssistantMessage, events.redactor);
    if (!extensions.hooked) return;
    const replacement = await extensions.hooks.messageEnd(message, activity.signal("run"));
    if (!replacement || replacement === message) return;
    if (replacement.role !== message.role) {
      events.reportExtensionError({ extensionPath: "", event: "message_end", error: "message_end handlers must return a message with the same role" });
      return;
    }
    for (const key of Object.keys(message)) delete (message as Record<string, unknown>)[key];
    Object.assign(message, replacement);
  }

  /** What the boundary hooks act on (boundary-run.ts). */
  private boundaryHost(): BoundaryHost {
    const { extensions, conversation, queues, recorder, events } = this.parts;
    return {
      hooks: extensions.hooks,
      store: this.setup.store(),
      conversation,
      pending: () => queues.peek(),
      entryIdOf: (message) => recorder.entryIdOf(message),
      emit: (event) => events.emit(event),
      changed: (reason) => events.changed(reason),
      report: (error) => events.reportExtensionError(error),
    };
  }

  /**
   * Runs `name` for the tool call `parentToolCallId` while it runs (upstream's `ctx.executeTool`):
   * never throws for a tool's failure, which comes back as an error result.
   */
  executeNestedTool(parentToolCallId: string, name: string, args: unknown, options: NestedCallOptions = {}): Promise<NestedCallOutcome> {
    return this.nested.execute(parentToolCallId, name, args, options);
  }

  private loopConfig(model: Model, retrying?: AssistantMessage): LoopConfig {
    const config = this.buildLoopConfig(model, retrying);
    this.runToolConfig = config;
    return config;
  }

  private buildLoopConfig(model: Model, retrying?: AssistantMessage): LoopConfig {
    const { extensions, calls, tools, queues, compactor, retrier, events } = this.parts;
    const setup = this.setup;
    const hooks = extensions.hooked ? extensions.hooks : undefined;
    return {
      model,
      ...(isVirtualModel(model)
        ? {
            route: routeRequests(
              model,
              { calls, store: () => setup.store(), level: () => setup.level(), appended: (entry) => events.emit({ type: "entry_appended", entry }) },
              retrying,
            ),
          }
        : {}),
      stream: calls.stream(model),
      // The key and headers are resolved for every request, as upstream does (a `!command` runs again).
      streamOptions: (signal) => calls.requestOptions(model, true, signal),
      // Read at each batch: a tool activated during the run (tool_search) can be called in its next turn.
      get tools() {
        return tools.active;
      },
      toolContext: { cwd: setup.cwd, agentDir: setup.agentDir, model, spillFiles: setup.spillFiles },
      toolExecution: setup.toolExecution,
      outputLimits: setup.outputLimits(),
      convert: (messages) => (setup.blockImages() ? blockImages(convertToLlm(messages)) : convertToLlm(messages)),
      takeSteering: () => queues.take(queues.steering),
      takeFollowUps: () => queues.take(queues.followUps),
      beforeRequest: () => compactor.beforeRequest(),
      onStreamError: (hint) => retrier.noteStreamError(hint),
      finishMessage: (message) => this.finishMessage(message),
      takeNestedCalls: (toolCallId) => this.nested.take(toolCallId),
      // Before each later request: tools activated during the run are declared, and the run's prompt follows.
      loadoutUpdate: () => this.runPrompt.declare(),
      currentSystem: () => this.runPrompt.currentSystem(),
      ...(this.runPrompt.forced ? { systemPrompt: this.runPrompt.forced } : {}),
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
}
