/**
 * Reading a Gemini answer (`streamGenerateContent?alt=sse`): each `data:` event is one
 * `GenerateContentResponse`; its first candidate's parts become Pi's assistant-message events.
 * Consecutive text parts form one text block, thought parts one thinking block; a function call
 * arrives whole and becomes a tool call at once. Usage and the finish reason are taken from the
 * latest chunk that carries them.
 */
import * as v from "valibot";
import type { SseEvent } from "../sse.ts";
import { applyCost } from "../types.ts";
import type { AssistantMessage, AssistantMessageEvent, LlmText, LlmThinking, LlmToolCall, Model, StopReason } from "../types.ts";
import { GoogleChunkSchema, type GoogleChunk, type GoogleStreamPart } from "./google-wire.ts";
import { nextSseEvent } from "./stream-failure.ts";

const STOPPED_WITH_ERROR = new Set([
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "SAFETY",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
  "IMAGE_OTHER",
  "RECITATION",
  "FINISH_REASON_UNSPECIFIED",
  "OTHER",
  "LANGUAGE",
  "MALFORMED_FUNCTION_CALL",
  "UNEXPECTED_TOOL_CALL",
  "TOO_MANY_TOOL_CALLS",
  "NO_IMAGE",
]);

/** What a person should know about a finish reason that ended the answer without one. */
const EXPLAINED: Record<string, string> = {
  SAFETY: "blocked by Google's safety filters",
  IMAGE_SAFETY: "blocked by Google's safety filters",
  PROHIBITED_CONTENT: "blocked as prohibited content",
  IMAGE_PROHIBITED_CONTENT: "blocked as prohibited content",
  BLOCKLIST: "blocked by a term on Google's blocklist",
  SPII: "blocked for sensitive personal information",
  RECITATION: "stopped for reciting training data",
  IMAGE_RECITATION: "stopped for reciting training data",
  MALFORMED_FUNCTION_CALL: "the model wrote a malformed tool call",
};

/** Gemini's finish reasons; an unknown one fails the answer, as upstream's. */
export function mapGoogleStopReason(reason: string): StopReason {
  if (reason === "STOP") return "stop";
  if (reason === "MAX_TOKENS") return "length";
  if (STOPPED_WITH_ERROR.has(reason)) return "error";
  throw new Error(`Unhandled stop reason: ${reason}`);
}

/** The error text for an answer that ended with an error finish reason. */
export function stoppedMessage(reason: string, finishMessage?: string): string {
  const why = [EXPLAINED[reason], finishMessage].filter(Boolean).join(": ");
  return `Provider stopped with: ${reason}${why ? ` (${why})` : ""}`;
}

/** Gemini makes no ids before Gemini 3 (and may repeat one): pig makes them as upstream does. */
let toolCallCounter = 0;
function toolCallId(name: string, given: string | undefined, taken: (id: string) => boolean): string {
  if (given && !taken(given)) return given;
  toolCallCounter += 1;
  return `${name}_${Date.now()}_${toolCallCounter}`;
}

function parseChunk(sse: SseEvent, provider: string): GoogleChunk {
  let json: unknown;
  try {
    json = JSON.parse(sse.data);
  } catch (error) {
    throw new Error(`Malformed event stream from ${provider}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = v.safeParse(GoogleChunkSchema, json);
  if (!parsed.success) throw new Error(`Malformed event stream from ${provider}: ${v.summarize(parsed.issues)}`);
  return parsed.output;
}

/** Scratch state of one answer while it streams. */
interface Reading {
  current: LlmText | LlmThinking | undefined;
  finishMessage: string | undefined;
  blocked: string | undefined;
}

function* closeCurrent(output: AssistantMessage, state: Reading): Generator<AssistantMessageEvent> {
  const block = state.current;
  if (!block) return;
  state.current = undefined;
  const contentIndex = output.content.length - 1;
  if (block.type === "text") yield { type: "text_end", contentIndex, content: block.text, partial: output };
  else yield { type: "thinking_end", contentIndex, content: block.thinking, partial: output };
}

function* textPart(part: GoogleStreamPart & { text: string }, output: AssistantMessage, state: Reading): Generator<AssistantMessageEvent> {
  const thinking = part.thought === true;
  if (!state.current || (state.current.type === "thinking") !== thinking) {
    yield* closeCurrent(output, state);
    state.current = thinking ? { type: "thinking", thinking: "" } : { type: "text", text: "" };
    output.content.push(state.current);
    const contentIndex = output.content.length - 1;
    yield thinking ? { type: "thinking_start", contentIndex, partial: output } : { type: "text_start", contentIndex, partial: output };
  }
  const block = state.current;
  const contentIndex = output.content.length - 1;
  // A signature may come with the first piece only: a later piece without one keeps it.
  const signature = part.thoughtSignature ? part.thoughtSignature : undefined;
  if (block.type === "thinking") {
    block.thinking += part.text;
    if (signature) block.thinkingSignature = signature;
    yield { type: "thinking_delta", contentIndex, delta: part.text, partial: output };
  } else {
    block.text += part.text;
    if (signature) block.textSignature = signature;
    yield { type: "text_delta", contentIndex, delta: part.text, partial: output };
  }
}

function* callPart(part: GoogleStreamPart, output: AssistantMessage, state: Reading): Generator<AssistantMessageEvent> {
  yield* closeCurrent(output, state);
  const fn = part.functionCall!;
  const name = fn.name ?? "";
  const taken = (id: string) => output.content.some((block) => block.type === "toolCall" && block.id === id);
  const call: LlmToolCall = {
    type: "toolCall",
    id: toolCallId(name, fn.id, taken),
    name,
    arguments: fn.args ?? {},
    ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}),
  };
  output.content.push(call);
  const contentIndex = output.content.length - 1;
  yield { type: "toolcall_start", contentIndex, partial: output };
  yield { type: "toolcall_delta", contentIndex, delta: JSON.stringify(call.arguments), partial: output };
  yield { type: "toolcall_end", contentIndex, toolCall: call, partial: output };
}

function takeUsage(chunk: GoogleChunk, model: Model, output: AssistantMessage): void {
  const meta = chunk.usageMetadata;
  if (!meta) return;
  const cached = meta.cachedContentTokenCount ?? 0;
  const thoughts = meta.thoughtsTokenCount ?? 0;
  output.usage.input = (meta.promptTokenCount ?? 0) - cached;
  output.usage.output = (meta.candidatesTokenCount ?? 0) + thoughts;
  output.usage.cacheRead = cached;
  output.usage.cacheWrite = 0;
  output.usage.reasoning = thoughts;
  output.usage.totalTokens = meta.totalTokenCount ?? 0;
  applyCost(model, output.usage);
}

/**
 * Reads `events` (left open for the caller to close) into `output`, yielding block events;
 * `onProgress` is told of every chunk that carries something. Throws on an error the server put
 * in the stream, a chunk that does not parse, a cut connection, a blocked prompt and a stream
 * without a finish reason; an error finish reason leaves `output.stopReason` "error" with the
 * text in `output.errorMessage`.
 */
export async function* googleMessageEvents(
  events: AsyncGenerator<SseEvent>,
  model: Model,
  output: AssistantMessage,
  userSignal: AbortSignal | undefined,
  onProgress: () => void = () => {},
): AsyncGenerator<AssistantMessageEvent> {
  const state: Reading = { current: undefined, finishMessage: undefined, blocked: undefined };
  for (;;) {
    const next = await nextSseEvent(events, model.provider, userSignal);
    if (next.done) break;
    if (next.value.data.trim() === "") continue;
    const chunk = parseChunk(next.value, model.provider);
    if (chunk.error) {
      const { code, status, message } = chunk.error;
      throw new Error(`${code ?? "Error"} ${message ?? "(no message)"}${status ? ` (${status})` : ""}`);
    }
    onProgress();
    output.responseId ||= chunk.responseId;
    if (chunk.promptFeedback?.blockReason) {
      const detail = chunk.promptFeedback.blockReasonMessage;
      state.blocked = `Google blocked the prompt: ${chunk.promptFeedback.blockReason}${detail ? ` (${detail})` : ""}`;
    }
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.text !== undefined) yield* textPart(part as GoogleStreamPart & { text: string }, output, state);
      if (part.functionCall) yield* callPart(part, output, state);
    }
    if (candidate?.finishReason) {
      output.rawStopReason = candidate.finishReason;
      output.stopReason = mapGoogleStopReason(candidate.finishReason);
      state.finishMessage = candidate.finishMessage;
      if (output.stopReason === "stop" && output.content.some((block) => block.type === "toolCall")) output.stopReason = "toolUse";
    }
    takeUsage(chunk, model, output);
  }
  yield* closeCurrent(output, state);
  if (output.stopReason === "error") output.errorMessage = stoppedMessage(output.rawStopReason ?? "", state.finishMessage);
  else if (output.stopReason === "pending" && state.blocked) throw new Error(state.blocked);
}
