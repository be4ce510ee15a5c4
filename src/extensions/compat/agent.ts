/**
 * `Agent` from `pi-agent-core`: a small agent an extension runs in its own process (a reviewer,
 * a classifier) with a stream function, tools and a transcript of its own. Each run is pig's
 * agent loop (agent/loop.ts) configured from the Agent's options (agent-run.ts); the state and
 * the events are upstream's (0.87.1): the prompt and tools are the transcript's leading system
 * message, and listeners get `agent_start … agent_end` in upstream's order and shapes.
 *
 * The loop reports each event as it happens; listeners get them one at a time, each awaited
 * before the next event is delivered, and the state changes with each delivery, so a listener
 * sees the state as of its event. A run is idle once every listener has settled.
 */
import { runAgentLoop } from "../../agent/loop.ts";
import type { LoopEvent } from "../../agent/events.ts";
import type { AssistantMessage, Model } from "../../ai/types.ts";
import type { AgentMessage } from "../../session/format.ts";
import { currentSystemMessage } from "../../session/system-messages.ts";
import { declareToolChanges, failedAnswer, loopConfig, type AfterToolCall, type AgentTool, type BeforeToolCall, type RunSetup, type StreamFn } from "./agent-run.ts";
import { AgentState, MessageQueue, type AgentInitialState, type QueueMode } from "./agent-state.ts";
import { streamSimple } from "./ai.ts";

export type { AgentInitialState, AgentState, AgentTool, StreamFn };

type Json = Record<string, unknown>;
export type AgentEvent = LoopEvent;
type Listener = (event: AgentEvent, signal: AbortSignal) => Promise<void> | void;

export interface AgentOptions {
  initialState?: AgentInitialState;
  convertToLlm?: RunSetup["convertToLlm"];
  transformContext?: RunSetup["transformContext"];
  streamFn?: StreamFn;
  getApiKey?: RunSetup["getApiKey"];
  onPayload?: (payload: unknown, model: Model) => unknown;
  onResponse?: (response: { status: number; headers: Record<string, string> }, model: Model) => unknown;
  beforeToolCall?: BeforeToolCall;
  afterToolCall?: AfterToolCall;
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  sessionId?: string;
  thinkingBudgets?: Record<string, number>;
  transport?: string;
  maxRetryDelayMs?: number;
  toolExecution?: "sequential" | "parallel";
}

/** Options of upstream's Agent that change the loop's turns in ways pig's loop has no place for. */
const UNSUPPORTED = ["finishTurn", "prepareRequest", "prepareNextTurn", "prepareNextTurnWithContext"] as const;

let defaultStreamFn: StreamFn | undefined;

/** The stream function of Agents made without one; pig's `streamSimple` when none is set. */
export function setDefaultStreamFn(streamFn: StreamFn | undefined): void {
  defaultStreamFn = streamFn;
}

const pigStream: StreamFn = (model, context, options) => streamSimple(model, context as unknown as Json, options);

/** Upstream's default: the messages a model understands, as they are. */
function defaultConvertToLlm(messages: AgentMessage[]): AgentMessage[] {
  return messages.filter((m) => m.role === "system" || m.role === "user" || m.role === "assistant" || m.role === "toolResult");
}

interface ActiveRun {
  controller: AbortController;
  idle: Promise<void>;
  /** Listener deliveries, one after another. */
  deliveries: Promise<void>;
  listenerError?: { error: unknown };
  answer?: AssistantMessage;
}

export class Agent {
  convertToLlm: RunSetup["convertToLlm"];
  transformContext: RunSetup["transformContext"];
  streamFunction: StreamFn;
  getApiKey: RunSetup["getApiKey"];
  onPayload: AgentOptions["onPayload"];
  onResponse: AgentOptions["onResponse"];
  beforeToolCall: BeforeToolCall | undefined;
  afterToolCall: AfterToolCall | undefined;
  sessionId: string | undefined;
  thinkingBudgets: AgentOptions["thinkingBudgets"];
  transport: string;
  maxRetryDelayMs: number | undefined;
  toolExecution: "sequential" | "parallel";
  private readonly current: AgentState;
  private readonly listeners = new Set<Listener>();
  private readonly steering: MessageQueue;
  private readonly followUps: MessageQueue;
  private active: ActiveRun | undefined;

  constructor(options: AgentOptions = {}) {
    for (const name of UNSUPPORTED) {
      if (typeof (options as Json)[name] === "function") throw new Error(`Agent option ${name} is not available in pig's extension runtime`);
    }
    this.current = new AgentState(options.initialState);
    this.convertToLlm = options.convertToLlm ?? defaultConvertToLlm;
    this.transformContext = options.transformContext;
    this.streamFunction = options.streamFn ?? defaultStreamFn ?? pigStream;
    this.getApiKey = options.getApiKey;
    this.onPayload = options.onPayload;
    this.onResponse = options.onResponse;
    this.beforeToolCall = options.beforeToolCall;
    this.afterToolCall = options.afterToolCall;
    this.steering = new MessageQueue(options.steeringMode ?? "one-at-a-time");
    this.followUps = new MessageQueue(options.followUpMode ?? "one-at-a-time");
    this.sessionId = options.sessionId;
    this.thinkingBudgets = options.thinkingBudgets;
    this.transport = options.transport ?? "auto";
    this.maxRetryDelayMs = options.maxRetryDelayMs;
    this.toolExecution = options.toolExecution ?? "parallel";
  }

  /** The property's name before Pi 0.87. */
  get streamFn(): StreamFn {
    return this.streamFunction;
  }
  set streamFn(streamFn: StreamFn) {
    this.streamFunction = streamFn;
  }

  get state(): AgentState {
    return this.current;
  }

  /** Listeners are called in the order they subscribed, with the run's abort signal; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  get steeringMode(): QueueMode {
    return this.steering.mode;
  }
  set steeringMode(mode: QueueMode) {
    this.steering.mode = mode;
  }
  get followUpMode(): QueueMode {
    return this.followUps.mode;
  }
  set followUpMode(mode: QueueMode) {
    this.followUps.mode = mode;
  }
  /** Delivered after the current turn. */
  steer(message: AgentMessage): void {
    this.steering.add(message);
  }
  /** Delivered when the agent would otherwise stop. */
  followUp(message: AgentMessage): void {
    this.followUps.add(message);
  }
  clearSteeringQueue(): void {
    this.steering.clear();
  }
  clearFollowUpQueue(): void {
    this.followUps.clear();
  }
  clearAllQueues(): void {
    this.steering.clear();
    this.followUps.clear();
  }
  hasQueuedMessages(): boolean {
    return this.steering.size > 0 || this.followUps.size > 0;
  }
  /** What the next delivery point would take, left queued. */
  peekQueuedMessages(): AgentMessage[] {
    const steering = this.steering.peek();
    return steering.length > 0 ? steering : this.followUps.peek();
  }

  get signal(): AbortSignal | undefined {
    return this.active?.controller.signal;
  }
  abort(): void {
    this.active?.controller.abort();
  }
  /** Settles once the current run is over and its listeners have settled. */
  waitForIdle(): Promise<void> {
    return this.active?.idle ?? Promise.resolve();
  }

  /** Forgets the conversation and the queues; the prompt and tools the transcript declared stay. */
  reset(): void {
    if (this.active) throw new Error("Agent.reset() while a run is in progress: wait for it to be idle first");
    const loadout = currentSystemMessage(this.current.messages);
    this.current.messages = loadout ? [loadout] : [];
    this.current.streamingMessage = undefined;
    this.current.pendingToolCalls = new Set();
    this.current.errorMessage = undefined;
    this.clearAllQueues();
  }

  /** Runs a prompt: text (with images), one message or several. */
  async prompt(input: string | AgentMessage | AgentMessage[], images?: Json[]): Promise<void> {
    if (this.active) throw new Error("Agent.prompt() while a run is in progress: queue it with steer() or followUp(), or wait for the agent to be idle");
    let messages: AgentMessage[];
    if (Array.isArray(input)) messages = input;
    else if (typeof input !== "string") messages = [input];
    else messages = [{ role: "user", content: [{ type: "text", text: input }, ...(images ?? [])], timestamp: Date.now() }];
    await this.run(messages, true);
  }

  /** Goes on from the transcript, which must end in a user or tool-result message (or queued messages). */
  async continue(): Promise<void> {
    if (this.active) throw new Error("Agent.continue() while a run is in progress: wait for the agent to be idle");
    const messages = this.current.messages;
    if (messages.every((m) => m.role === "system")) throw new Error("Agent.continue(): the transcript has no message to go on from");
    if (messages[messages.length - 1]!.role === "assistant") {
      const steering = this.steering.take();
      if (steering.length > 0) return this.run(steering, false);
      const followUps = this.followUps.take();
      if (followUps.length > 0) return this.run(followUps, true);
      throw new Error("Agent.continue(): the transcript ends with an assistant message");
    }
    await this.run([], true);
  }

  private async run(prompts: AgentMessage[], takeSteering: boolean): Promise<void> {
    let finish!: () => void;
    const run: ActiveRun = { controller: new AbortController(), idle: new Promise((resolve) => (finish = resolve)), deliveries: Promise.resolve() };
    this.active = run;
    const state = this.current;
    state.isStreaming = true;
    state.streamingMessage = undefined;
    state.errorMessage = undefined;
    const signal = run.controller.signal;
    const model = state.model;
    const transcript = [...state.messages];
    const tools = [...state.tools];
    const streamOptions = this.streamOptions();
    const setup: RunSetup = {
      stream: this.streamFunction,
      streamOptions: () => streamOptions,
      getApiKey: this.getApiKey,
      transformContext: this.transformContext,
      convertToLlm: this.convertToLlm,
      beforeToolCall: this.beforeToolCall,
      afterToolCall: this.afterToolCall,
      toolExecution: this.toolExecution,
      takeSteering: () => this.steering.take(),
      takeFollowUps: () => this.followUps.take(),
      context: { messages: transcript, tools },
      answer: () => run.answer,
    };
    const deliver = (event: AgentEvent) => {
      run.deliveries = run.deliveries.then(() => this.deliver(run, event));
    };
    let ended: AgentEvent | undefined;
    try {
      const pending = declareToolChanges(transcript, [...prompts, ...(takeSteering ? this.steering.take() : [])], tools);
      const context = { messages: transcript, append: (m: AgentMessage) => void transcript.push(m) };
      await runAgentLoop(pending, context, loopConfig(setup, model, tools), (event) => {
        if (event.type === "message_end" && event.message.role === "assistant") run.answer = event.message as AssistantMessage;
        // Held back until the loop has returned: a loop that fails ends with the failure instead.
        if (event.type === "agent_end") ended = event;
        else deliver(event);
      }, signal);
      deliver(ended ?? { type: "agent_end", messages: [] });
    } catch (error) {
      const failed = failedAnswer(model, error, signal);
      for (const event of [
        { type: "message_start", message: failed },
        { type: "message_end", message: failed },
        { type: "turn_end", message: failed, toolResults: [] },
        { type: "agent_end", messages: [failed] },
      ] as AgentEvent[]) deliver(event);
    }
    await run.deliveries;
    state.isStreaming = false;
    state.streamingMessage = undefined;
    state.pendingToolCalls = new Set();
    this.active = undefined;
    finish();
    if (run.listenerError) throw run.listenerError.error;
  }

  private streamOptions(): Json {
    const level = this.current.thinkingLevel;
    const options: Json = {
      reasoning: level === "off" ? undefined : level,
      sessionId: this.sessionId,
      transport: this.transport,
      thinkingBudgets: this.thinkingBudgets,
      maxRetryDelayMs: this.maxRetryDelayMs,
      onPayload: this.onPayload,
      onResponse: this.onResponse,
    };
    for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];
    return options;
  }

  /** The state as of `event`, then every listener; a listener that throws stops the run and fails its prompt(). */
  private async deliver(run: ActiveRun, event: AgentEvent): Promise<void> {
    const state = this.current;
    switch (event.type) {
      case "message_start":
      case "message_update":
        state.streamingMessage = event.message;
        break;
      case "message_end":
        state.streamingMessage = undefined;
        state.messages.push(event.message);
        break;
      case "tool_execution_start":
        state.pendingToolCalls = new Set([...state.pendingToolCalls, event.toolCallId]);
        break;
      case "tool_execution_end": {
        const pending = new Set(state.pendingToolCalls);
        pending.delete(event.toolCallId);
        state.pendingToolCalls = pending;
        break;
      }
      case "turn_end":
        if (event.message.role === "assistant" && event.message.errorMessage) state.errorMessage = event.message.errorMessage;
        break;
      case "agent_end":
        state.streamingMessage = undefined;
        break;
    }
    for (const listener of this.listeners) {
      try {
        await listener(event, run.controller.signal);
      } catch (error) {
        run.listenerError ??= { error };
        run.controller.abort();
      }
    }
  }
}
