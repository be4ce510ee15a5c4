/**
 * The agent loop: free functions that take a context, stream the model's answer, run the tool
 * calls it asks for, and go again until the model stops. Everything observable is pushed to
 * `emit`; cancellation comes from the `AbortSignal`. Messages are converted to a provider's shape
 * only at the call (`config.convert`).
 */
import { newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type LlmContext, type LlmMessage, type Model, type StreamFunction, type StreamOptions, type ToolSpec } from "../ai/types.ts";
import type { AgentMessage, SystemMessage, ToolDeclaration, ToolResultMessage } from "../session/format.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { currentSystemMessage, declaredTools, systemPromptText, systemTokensSinceAnswer } from "../session/system-messages.ts";
import type { LoopContext } from "./conversation.ts";
import type { LoopEvent } from "./events.ts";
import { executeToolCalls, type ToolCallConfig } from "./tool-calls.ts";

export { executeToolCalls };

export interface LoopConfig extends ToolCallConfig {
  model: Model;
  stream: StreamFunction;
  /** Options for each model call (key, headers, reasoning …), asked for per call. */
  /** Awaited before each request: a subscription login about to expire is renewed first. */
  streamOptions: (signal: AbortSignal) => Promise<StreamOptions>;
  convert: (messages: readonly AgentMessage[]) => LlmMessage[];
  /** Steering messages to deliver now (after a turn), already taken off their queue. */
  takeSteering: () => AgentMessage[];
  /** Follow-up messages to deliver now (the agent would stop otherwise). */
  takeFollowUps: () => AgentMessage[];
  /**
   * A virtual model's: asked before each model call where it goes (the physical model, its
   * stream and options, the level it was routed at). A failure ends the call as an error answer.
   */
  route?: (messages: readonly AgentMessage[], signal: AbortSignal) => Promise<RoutedCall>;
  /** Before each request: the system message declaring what changed in the tools and prompt, if anything did. */
  loadoutUpdate?: () => AgentMessage | undefined;
  /**
   * The context's system messages replayed into one, as currentSystemMessage(context.messages)
   * gives it, by a caller that keeps it up to date without walking the whole context before each
   * request. Not asked for a transcript a `rewriteWithSystem` hook gave.
   */
  currentSystem?: () => SystemMessage | undefined;
  /** Called before each model call; may compact the context (in place) so the request fits. */
  beforeRequest?: () => Promise<void>;
  /** Told what the server said about retrying when an answer fails. */
  onStreamError?: (hint: { afterMs?: number; tooLong?: boolean }) => void;
  /** The system prompt of this run, instead of the one the transcript declares (a hook chose it). */
  systemPrompt?: string;
  /** May give, for one model call only, other messages than the context's (system messages left out). */
  rewriteContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[] | undefined>;
  /** After `rewriteContext`: the whole transcript of the call (system messages too), sent as returned. */
  rewriteWithSystem?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[] | undefined>;
  /** A finished message before its `message_end` is announced; may change it in place. */
  finishMessage?: (message: AgentMessage) => Promise<void>;
  /**
   * After each turn's `turn_end` (the turn's messages are in the context): may add to the
   * context; true asks for one more model request even though the model stopped.
   */
  finishTurn?: (answer: AssistantMessage, toolResults: ToolResultMessage[], signal: AbortSignal) => Promise<boolean>;
}

/** One model call of a virtual model, as its router sent it. */
export interface RoutedCall {
  model: Model;
  stream: StreamFunction;
  options: StreamOptions;
  thinkingLevel: string;
}

type Emit = (event: LoopEvent) => void;

/**
 * Runs until the model stops. Every message of the run is appended to `context`; the return
 * value is the run's new messages (prompts included).
 */
export async function runAgentLoop(
  prompts: AgentMessage[],
  context: LoopContext,
  config: LoopConfig,
  emit: Emit,
  signal: AbortSignal,
): Promise<AgentMessage[]> {
  const produced: AgentMessage[] = [];
  const add = async (message: AgentMessage): Promise<void> => {
    emit({ type: "message_start", message });
    context.append(message);
    produced.push(message);
    await config.finishMessage?.(message);
    emit({ type: "message_end", message });
  };
  emit({ type: "agent_start" });
  let pending = prompts;
  try {
    for (;;) {
      emit({ type: "turn_start" });
      for (const message of pending) await add(message);
      pending = [];
      // Tools or prompt sections that changed since the transcript declared them (a tool
      // activated another, as tool_search does) are declared before the next request, as upstream.
      const update = config.loadoutUpdate?.();
      if (update) await add(update);
      const { message: assistant, invalidArguments } = await streamAssistant(context.messages, config, emit, signal);
      // In the context before it is announced, like every other message.
      context.append(assistant);
      produced.push(assistant);
      await config.finishMessage?.(assistant);
      emit({ type: "message_end", message: assistant });
      if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
        emit({ type: "turn_end", message: assistant, toolResults: [] });
        // A failed turn may still leave entries; it is retried or ends, never continued from here.
        if (assistant.stopReason === "error" && !signal.aborted) await config.finishTurn?.(assistant, [], signal);
        break;
      }
      const calls = assistant.content.filter((block) => block.type === "toolCall");
      const outcome =
        calls.length > 0 ? await executeToolCalls(calls, config, emit, add, signal, invalidArguments) : { results: [], terminate: false };
      emit({ type: "turn_end", message: assistant, toolResults: outcome.results });
      if (signal.aborted) break;
      const more = (await config.finishTurn?.(assistant, outcome.results, signal)) ?? false;
      if (signal.aborted) break;
      const steering = config.takeSteering();
      if (steering.length > 0) {
        pending = steering;
        continue;
      }
      if (calls.length > 0 && !outcome.terminate) continue;
      const followUps = config.takeFollowUps();
      if (followUps.length > 0) {
        pending = followUps;
        continue;
      }
      if (more) continue;
      break;
    }
  } finally {
    // Even a stream that throws ends the run for everyone listening.
    emit({ type: "agent_end", messages: produced });
  }
  return produced;
}

/** A declaration's `constrainedSampling` (Pi ≥ 0.87), for the APIs that can enforce it. */
function samplingOf(tool: ToolDeclaration): Pick<ToolSpec, "constrainedSampling"> {
  const sampling = tool.constrainedSampling;
  return isPlainObject(sampling) && typeof sampling.type === "string" ? { constrainedSampling: sampling as NonNullable<ToolSpec["constrainedSampling"]> } : {};
}

function snapshot(message: AssistantMessage): AssistantMessage {
  return { ...message, content: [...message.content] };
}

/**
 * One request's stream, under a signal of its own that follows the run's. Whatever a provider's
 * client hangs on that signal goes when the request does: the OpenAI SDK adds an abort listener to
 * the signal of every request and never takes it off, so the run's signal would otherwise collect
 * one per turn (each holding that request's controller), and every later removal scans them all.
 */
async function* underOwnSignal(
  run: AbortSignal,
  open: (signal: AbortSignal) => AsyncIterable<AssistantMessageEvent>,
): AsyncIterable<AssistantMessageEvent> {
  const request = new AbortController();
  const forward = () => request.abort(run.reason);
  if (run.aborted) forward();
  else run.addEventListener("abort", forward, { once: true });
  try {
    yield* open(request.signal);
  } finally {
    run.removeEventListener("abort", forward);
  }
}

/**
 * The messages one call sends when a hook rewrites them: the hook gets a copy without the
 * system messages (the prompt and tools stay the transcript's) and may return other messages.
 */
async function contextForCall(
  messages: readonly AgentMessage[],
  hook: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[] | undefined>,
  signal: AbortSignal,
): Promise<readonly AgentMessage[]> {
  const changed = await hook(structuredClone(messages.filter((m) => m.role !== "system")), signal);
  return changed ?? messages;
}

/** One streamed answer, and the argument text of its tool calls that did not arrive whole. */
export interface StreamedAnswer {
  message: AssistantMessage;
  invalidArguments: ReadonlyMap<object, string>;
}

const NONE: ReadonlyMap<object, string> = new Map();

/** Streams one answer; always returns a complete assistant message (errors included). */
export async function streamAssistant(
  messages: readonly AgentMessage[],
  config: LoopConfig,
  emit: Emit,
  signal: AbortSignal,
): Promise<StreamedAnswer> {
  await config.beforeRequest?.();
  const sinceAnswer = systemTokensSinceAnswer(messages);
  let sent = config.rewriteContext ? await contextForCall(messages, config.rewriteContext, signal) : messages;
  let transcript = messages;
  if (config.rewriteWithSystem) {
    // The system messages are the transcript's again (a `context` handler never sees them), in front.
    const whole = sent === messages ? (messages as AgentMessage[]) : [...messages.filter((m) => m.role === "system"), ...sent];
    const owned = await config.rewriteWithSystem(whole, signal);
    if (owned) {
      transcript = owned;
      sent = owned;
    }
  }
  // The prompt and tools come from the transcript: its system messages replayed into one.
  const loadout = transcript === messages && config.currentSystem ? config.currentSystem() : currentSystemMessage(transcript);
  const declared = declaredTools(loadout);
  const context: LlmContext = {
    systemPrompt: config.systemPrompt || systemPromptText(loadout),
    messages: config.convert(sent),
    ...(sinceAnswer > 0 ? { promptTokensSinceAnswer: sinceAnswer } : {}),
    ...(declared.length > 0
      ? { tools: declared.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, ...samplingOf(t) })) }
      : {}),
    ...(loadout && !config.systemPrompt ? { system: loadout } : {}),
  };
  let options: StreamOptions;
  let model = config.model;
  let stream = config.stream;
  let routedLevel: string | undefined;
  try {
    if (config.route) {
      const routed = await config.route(messages, signal);
      ({ model, stream, options } = routed);
      routedLevel = routed.thinkingLevel;
    } else options = await config.streamOptions(signal);
  } catch (error) {
    // The request could not be made (a key command failed, a login could not be renewed): an
    // answer that says why, like any other failed request.
    const failed: AssistantMessage = {
      ...newAssistantMessage(config.model),
      stopReason: signal.aborted ? "aborted" : "error",
      errorMessage: signal.aborted ? "Request was aborted" : (error as Error).message,
    };
    emit({ type: "message_start", message: failed });
    return { message: failed, invalidArguments: NONE };
  }
  let started = false;
  let final: AssistantMessage | undefined;
  let invalidArguments = NONE;
  for await (const event of underOwnSignal(signal, (own) => stream(model, context, { ...options, signal: own }))) {
    switch (event.type) {
      case "start":
        started = true;
        emit({ type: "message_start", message: snapshot(event.partial) });
        break;
      case "done":
        final = event.message;
        if (event.invalidArguments) {
          const content = event.message.content;
          invalidArguments = new Map(
            event.invalidArguments.flatMap((bad) => {
              const call = content[bad.contentIndex];
              return call ? [[call, bad.text] as const] : [];
            }),
          );
        }
        break;
      case "error":
        final = event.error;
        config.onStreamError?.({
          ...(event.retryAfterMs !== undefined ? { afterMs: event.retryAfterMs } : {}),
          ...(event.retryDelayTooLong ? { tooLong: true } : {}),
        });
        break;
      default:
        if (!started) {
          started = true;
          emit({ type: "message_start", message: snapshot(event.partial) });
        }
        emit({ type: "message_update", assistantMessageEvent: event, message: snapshot(event.partial) });
    }
  }
  if (!final) throw new Error(`the ${model.api} stream ended without a final message`);
  // A routed answer says at which level it was asked for (the router's `previous` reads it back).
  if (routedLevel !== undefined) final.thinkingLevel = routedLevel;
  if (!started) emit({ type: "message_start", message: final });
  // The caller adds the answer to the context, then emits its message_end.
  return { message: final, invalidArguments };
}

