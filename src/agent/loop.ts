/**
 * The agent loop: free functions that take a context, stream the model's answer, run the tool
 * calls it asks for, and go again until the model stops. Everything observable is pushed to
 * `emit`; cancellation comes from the `AbortSignal`. Messages are converted to a provider's shape
 * only at the call (`config.convert`).
 */
import { newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type LlmContext, type LlmMessage, type Model, type StreamFunction, type StreamOptions } from "../ai/types.ts";
import type { AgentMessage, ToolResultMessage } from "../session/format.ts";
import { currentSystemMessage, declaredTools, systemPromptText, systemTokensSinceAnswer } from "../session/system-messages.ts";
import type { AnyTool, ToolContext, ToolResult } from "../tools/types.ts";
import { validateToolArguments } from "../tools/validate.ts";
import type { LoopEvent } from "./events.ts";

export interface LoopConfig {
  model: Model;
  stream: StreamFunction;
  /** Options for each model call (key, headers, reasoning …), asked for per call. */
  streamOptions: () => StreamOptions;
  /** The tools the agent can run (the model is told of the ones the context's system messages declare). */
  tools: readonly AnyTool[];
  toolContext: ToolContext;
  toolExecution: "parallel" | "sequential";
  convert: (messages: readonly AgentMessage[]) => LlmMessage[];
  /** Steering messages to deliver now (after a turn), already taken off their queue. */
  takeSteering: () => AgentMessage[];
  /** Follow-up messages to deliver now (the agent would stop otherwise). */
  takeFollowUps: () => AgentMessage[];
  /** Called before each model call; may compact the context (in place) so the request fits. */
  beforeRequest?: () => Promise<void>;
  /** Told what the server said about retrying when an answer fails. */
  onStreamError?: (hint: { afterMs?: number; tooLong?: boolean }) => void;
}

type Emit = (event: LoopEvent) => void;

/**
 * Runs until the model stops. `messages` is the context and is extended in place with every
 * message of the run; the return value is the run's new messages (prompts included).
 */
export async function runAgentLoop(
  prompts: AgentMessage[],
  messages: AgentMessage[],
  config: LoopConfig,
  emit: Emit,
  signal: AbortSignal,
): Promise<AgentMessage[]> {
  const produced: AgentMessage[] = [];
  const add = (message: AgentMessage): void => {
    emit({ type: "message_start", message });
    messages.push(message);
    produced.push(message);
    emit({ type: "message_end", message });
  };
  emit({ type: "agent_start" });
  let pending = prompts;
  try {
    for (;;) {
      emit({ type: "turn_start" });
      for (const message of pending) add(message);
      pending = [];
      const { message: assistant, invalidArguments } = await streamAssistant(messages, config, emit, signal);
      // In the context before it is announced, like every other message.
      messages.push(assistant);
      produced.push(assistant);
      emit({ type: "message_end", message: assistant });
      if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
        emit({ type: "turn_end", message: assistant, toolResults: [] });
        break;
      }
      const calls = assistant.content.filter((block) => block.type === "toolCall");
      const outcome =
        calls.length > 0 ? await executeToolCalls(calls, config, emit, add, signal, invalidArguments) : { results: [], terminate: false };
      emit({ type: "turn_end", message: assistant, toolResults: outcome.results });
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
      break;
    }
  } finally {
    // Even a stream that throws ends the run for everyone listening.
    emit({ type: "agent_end", messages: produced });
  }
  return produced;
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
  // The prompt and tools come from the transcript: its system messages replayed into one.
  const loadout = currentSystemMessage(messages);
  const declared = declaredTools(loadout);
  const sinceAnswer = systemTokensSinceAnswer(messages);
  const context: LlmContext = {
    systemPrompt: systemPromptText(loadout),
    messages: config.convert(messages),
    ...(sinceAnswer > 0 ? { promptTokensSinceAnswer: sinceAnswer } : {}),
    ...(declared.length > 0
      ? { tools: declared.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) }
      : {}),
  };
  let options: StreamOptions;
  try {
    options = config.streamOptions();
  } catch (error) {
    // The request could not be made (a key command failed): an answer that says why, like any other failed request.
    const failed: AssistantMessage = { ...newAssistantMessage(config.model), stopReason: "error", errorMessage: (error as Error).message };
    emit({ type: "message_start", message: failed });
    return { message: failed, invalidArguments: NONE };
  }
  let started = false;
  let final: AssistantMessage | undefined;
  let invalidArguments = NONE;
  for await (const event of underOwnSignal(signal, (own) => config.stream(config.model, context, { ...options, signal: own }))) {
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
  if (!final) throw new Error(`the ${config.model.api} stream ended without a final message`);
  if (!started) emit({ type: "message_start", message: final });
  // The caller adds the answer to the context, then emits its message_end.
  return { message: final, invalidArguments };
}

type ToolCallBlock = { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

interface Prepared {
  call: ToolCallBlock;
  tool?: AnyTool;
  args: Record<string, unknown>;
  /** Set when preflight failed: the error text for the model. */
  error?: string;
}

function errorResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], details: {} };
}

/** What the model is told about a call whose arguments did not arrive whole (the start of them is shown). */
function invalidArgumentsMessage(name: string, text: string): string {
  const shown = text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length - 2000} more characters)` : text;
  return `The arguments of this ${name} call are not valid JSON (cut off or malformed), so the tool was not run. Arguments received:\n${shown}`;
}

function prepare(call: ToolCallBlock, tools: readonly AnyTool[], invalidText: string | undefined): Prepared {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { call, args: call.arguments, error: `Tool ${call.name} not found` };
  if (invalidText !== undefined) return { call, tool, args: call.arguments, error: invalidArgumentsMessage(call.name, invalidText) };
  let args = call.arguments;
  try {
    if (tool.prepareArguments) args = tool.prepareArguments(args);
  } catch (error) {
    return { call, tool, args, error: (error as Error).message };
  }
  const checked = validateToolArguments(tool, args);
  if (!checked.ok) return { call, tool, args, error: checked.message };
  return { call, tool, args: checked.args };
}

async function run(
  p: Prepared,
  config: LoopConfig,
  emit: Emit,
  signal: AbortSignal,
): Promise<{ result: ToolResult; isError: boolean }> {
  const base = { toolCallId: p.call.id, toolName: p.call.name, args: p.call.arguments };
  let outcome: { result: ToolResult; isError: boolean };
  try {
    const result = await p.tool!.execute(
      p.call.id,
      p.args,
      signal,
      (partialResult) => emit({ type: "tool_execution_update", ...base, partialResult }),
      config.toolContext,
    );
    outcome = { result, isError: false };
  } catch (error) {
    outcome = { result: errorResult(error instanceof Error ? error.message : String(error)), isError: true };
  }
  emit({ type: "tool_execution_end", toolCallId: base.toolCallId, toolName: base.toolName, result: outcome.result, isError: outcome.isError });
  return outcome;
}

function resultMessage(p: Prepared, outcome: { result: ToolResult; isError: boolean }): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: p.call.id,
    toolName: p.call.name,
    content: outcome.result.content,
    ...(outcome.result.details !== undefined ? { details: outcome.result.details } : {}),
    isError: outcome.isError,
    timestamp: Date.now(),
  } as ToolResultMessage;
}

/**
 * Runs a batch of tool calls. Parallel (the default): every call is announced and checked in
 * order, the valid ones run at once (ends reported as they finish), and the result messages
 * follow in call order. Sequential (configured, or any tool in the batch asks for it): one call
 * at a time, each followed by its result message. `add` records and announces a result message.
 * A call in `invalidArguments` (its argument text, keyed by the call) is answered with an error.
 */
export async function executeToolCalls(
  calls: readonly ToolCallBlock[],
  config: LoopConfig,
  emit: Emit,
  add: (message: ToolResultMessage) => void,
  signal: AbortSignal,
  invalidArguments: ReadonlyMap<object, string> = NONE,
): Promise<{ results: ToolResultMessage[]; terminate: boolean }> {
  const prepared = calls.map((call) => prepare(call, config.tools, invalidArguments.get(call)));
  const sequential =
    config.toolExecution === "sequential" || prepared.some((p) => p.tool?.executionMode === "sequential");
  const announce = (p: Prepared) =>
    emit({ type: "tool_execution_start", toolCallId: p.call.id, toolName: p.call.name, args: p.call.arguments });
  const rejected = (p: Prepared) => {
    const outcome = { result: errorResult(p.error!), isError: true };
    emit({ type: "tool_execution_end", toolCallId: p.call.id, toolName: p.call.name, result: outcome.result, isError: true });
    return outcome;
  };
  const outcomes: { result: ToolResult; isError: boolean }[] = [];
  const results: ToolResultMessage[] = [];
  if (sequential) {
    for (const p of prepared) {
      announce(p);
      const outcome = p.error !== undefined ? rejected(p) : await run(p, config, emit, signal);
      outcomes.push(outcome);
      const message = resultMessage(p, outcome);
      add(message);
      results.push(message);
    }
  } else {
    const early = prepared.map((p) => {
      announce(p);
      return p.error !== undefined ? rejected(p) : undefined;
    });
    const settled = await Promise.all(prepared.map((p, i) => early[i] ?? run(p, config, emit, signal)));
    outcomes.push(...settled);
    prepared.forEach((p, i) => {
      const message = resultMessage(p, settled[i]!);
      add(message);
      results.push(message);
    });
  }
  const terminate = outcomes.length > 0 && outcomes.every((o) => !o.isError && o.result.terminate === true);
  return { results, terminate };
}
