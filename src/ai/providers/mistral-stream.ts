/**
 * Mistral's streamed answer (`data: {chunk}` events, then `data: [DONE]`) as pig's assistant
 * message events, the way Pi 0.87.1 reads it: text and thinking blocks follow each other in the
 * order they arrive (a switch between them starts a new block), thinking comes as typed
 * `thinking` chunks, each tool call is keyed by its stream index, and the tool calls end once
 * the stream is over. Usage rides on a chunk (the last one): `input` leaves the cached prompt
 * tokens out, as Pi counts them.
 */
import * as v from "valibot";
import { parseFinalArguments, parsePartialJson } from "../partial-json.ts";
import type { SseEvent } from "../sse.ts";
import { StreamingArguments, TextAppender } from "../streamed-text.ts";
import {
  applyCost,
  emptyUsage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type InvalidArguments,
  type LlmText,
  type LlmThinking,
  type LlmToolCall,
  type Model,
  type StopReason,
  type Usage,
} from "../types.ts";
import { sanitizeSurrogates } from "./openai-shared.ts";
import { fallbackToolCallId } from "./mistral-request.ts";

const count = v.optional(v.nullable(v.number()));

const UsageSchema = v.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
  prompt_tokens_details: v.optional(v.nullable(v.looseObject({ cached_tokens: count }))),
  prompt_token_details: v.optional(v.nullable(v.looseObject({ cached_tokens: count }))),
  num_cached_tokens: count,
});
type RawUsage = v.InferOutput<typeof UsageSchema>;

const ContentChunkSchema = v.looseObject({
  type: v.string(),
  text: v.optional(v.nullable(v.string())),
  thinking: v.optional(v.nullable(v.array(v.looseObject({ text: v.optional(v.nullable(v.string())) })))),
});

const ToolCallDeltaSchema = v.looseObject({
  id: v.optional(v.nullable(v.string())),
  index: v.optional(v.nullable(v.number())),
  function: v.looseObject({
    name: v.optional(v.nullable(v.string())),
    arguments: v.optional(v.nullable(v.union([v.string(), v.record(v.string(), v.unknown())]))),
  }),
});

export const MistralChunkSchema = v.looseObject({
  id: v.optional(v.nullable(v.string())),
  usage: v.optional(v.nullable(UsageSchema)),
  choices: v.array(
    v.looseObject({
      delta: v.optional(
        v.nullable(
          v.looseObject({
            content: v.optional(v.nullable(v.union([v.string(), v.array(v.union([v.string(), ContentChunkSchema]))]))),
            tool_calls: v.optional(v.nullable(v.array(ToolCallDeltaSchema))),
          }),
        ),
      ),
      finish_reason: v.optional(v.nullable(v.string())),
    }),
  ),
});
export type MistralChunk = v.InferOutput<typeof MistralChunkSchema>;

/** An error Mistral sends inside the stream: `{object: "error", message, type, code}`. */
const StreamErrorSchema = v.looseObject({ message: v.unknown(), type: v.optional(v.unknown()), code: v.optional(v.unknown()) });

/** A chunk's usage in pig's terms, priced by the model. */
export function mistralUsage(model: Model, raw: RawUsage): Usage {
  const prompt = raw.prompt_tokens ?? 0;
  const reported = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_token_details?.cached_tokens ?? raw.num_cached_tokens ?? 0;
  const cacheRead = Math.min(prompt, Math.max(0, Number.isFinite(reported) ? reported : 0));
  const input = Math.max(0, prompt - cacheRead);
  const output = raw.completion_tokens ?? 0;
  return applyCost(model, {
    input,
    output,
    cacheRead,
    cacheWrite: 0,
    totalTokens: raw.total_tokens || input + output + cacheRead,
    cost: emptyUsage().cost,
  });
}

export function mapMistralFinishReason(reason: string): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case "stop":
      return { stopReason: "stop" };
    case "length":
    case "model_length":
      return { stopReason: "length" };
    case "tool_calls":
      return { stopReason: "toolUse" };
    default:
      return { stopReason: "error", errorMessage: `Provider stopped with: ${reason}` };
  }
}

function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** One event's chunk, or an Error that says what the server sent instead. */
export function parseMistralEvent(event: SseEvent): MistralChunk | Error {
  let json: unknown;
  try {
    json = JSON.parse(event.data);
  } catch {
    return new Error(`Malformed event stream from Mistral: not JSON: ${event.data.slice(0, 200)}`);
  }
  const chunk = v.safeParse(MistralChunkSchema, json);
  if (chunk.success) return chunk.output;
  const error = v.safeParse(StreamErrorSchema, json);
  if (error.success) {
    const kind = [error.output.type, error.output.code].filter((part) => part !== undefined && part !== null).map(text).join(", ");
    return new Error(`Mistral stream error${kind ? ` (${kind})` : ""}: ${text(error.output.message)}`);
  }
  return new Error(`Malformed event stream from Mistral: ${chunk.issues[0]?.message ?? "unexpected event"}: ${event.data.slice(0, 200)}`);
}

type StreamingCall = LlmToolCall & { partialArgs?: string };

/**
 * The events of `events` (the answer's SSE events), filling `output`. Malformed events and
 * errors the server sends in the stream throw. `invalidArguments` collects tool calls whose
 * arguments were not whole JSON; `onProgress` is told of every chunk that moves the answer on.
 */
export async function* mistralMessageEvents(
  events: AsyncIterable<SseEvent>,
  model: Model,
  output: AssistantMessage,
  invalidArguments: InvalidArguments[],
  onProgress: () => void,
): AsyncGenerator<AssistantMessageEvent> {
  const blocks = output.content;
  let current: LlmText | LlmThinking | undefined;
  const calls = new Map<number | string, number>();
  const texts = new TextAppender();
  const liveArguments = new StreamingArguments(parsePartialJson);

  function* endCurrent(): Generator<AssistantMessageEvent> {
    if (!current) return;
    const contentIndex = blocks.indexOf(current);
    if (current.type === "text") yield { type: "text_end", contentIndex, content: current.text, partial: output };
    else yield { type: "thinking_end", contentIndex, content: current.thinking, partial: output };
    current = undefined;
  }

  function* appendText(piece: string): Generator<AssistantMessageEvent> {
    if (current?.type !== "text") {
      yield* endCurrent();
      current = { type: "text", text: "" };
      blocks.push(current);
      yield { type: "text_start", contentIndex: blocks.length - 1, partial: output };
    }
    current.text = texts.append(current, current.text, piece);
    yield { type: "text_delta", contentIndex: blocks.indexOf(current), delta: piece, partial: output };
  }

  function* appendThinking(piece: string): Generator<AssistantMessageEvent> {
    if (current?.type !== "thinking") {
      yield* endCurrent();
      current = { type: "thinking", thinking: "" };
      blocks.push(current);
      yield { type: "thinking_start", contentIndex: blocks.length - 1, partial: output };
    }
    current.thinking = texts.append(current, current.thinking, piece);
    yield { type: "thinking_delta", contentIndex: blocks.indexOf(current), delta: piece, partial: output };
  }

  for await (const event of events) {
    if (event.data === "[DONE]") break;
    if (event.data === "") continue;
    const chunk = parseMistralEvent(event);
    if (chunk instanceof Error) throw chunk;
    onProgress();
    if (!output.responseId && chunk.id) output.responseId = chunk.id;
    if (chunk.usage) output.usage = mistralUsage(model, chunk.usage);
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.finish_reason) {
      output.rawStopReason = choice.finish_reason;
      const mapped = mapMistralFinishReason(choice.finish_reason);
      output.stopReason = mapped.stopReason;
      if (mapped.errorMessage) output.errorMessage = mapped.errorMessage;
    }
    const delta = choice.delta;
    if (!delta) continue;
    const content = delta.content;
    for (const item of typeof content === "string" ? [content] : (content ?? [])) {
      if (typeof item === "string") {
        if (item.length > 0) yield* appendText(sanitizeSurrogates(item));
      } else if (item.type === "thinking") {
        const piece = sanitizeSurrogates((item.thinking ?? []).map((part) => part.text ?? "").join(""));
        if (piece.length > 0) yield* appendThinking(piece);
      } else if (item.type === "text") {
        const piece = sanitizeSurrogates(item.text ?? "");
        if (piece.length > 0) yield* appendText(piece);
      }
    }
    for (const part of delta.tool_calls ?? []) {
      yield* endCurrent();
      const id = part.id && part.id !== "null" ? part.id : fallbackToolCallId(part.index ?? 0);
      const key = part.index ?? id;
      let index = calls.get(key);
      if (index === undefined) {
        const call: StreamingCall = { type: "toolCall", id, name: part.function.name ?? "", arguments: {}, partialArgs: "" };
        blocks.push(call);
        index = blocks.length - 1;
        calls.set(key, index);
        yield { type: "toolcall_start", contentIndex: index, partial: output };
      }
      const call = blocks[index] as StreamingCall;
      const raw = part.function.arguments;
      const piece = typeof raw === "string" ? raw : JSON.stringify(raw ?? {});
      call.partialArgs = texts.append(call, call.partialArgs ?? "", piece);
      call.arguments = liveArguments.update(call, call.partialArgs) ?? call.arguments;
      yield { type: "toolcall_delta", contentIndex: index, delta: piece, partial: output };
    }
  }

  yield* endCurrent();
  for (const index of calls.values()) {
    const call = blocks[index] as StreamingCall;
    const argumentText = call.partialArgs ?? "";
    const parsed = parseFinalArguments(argumentText);
    call.arguments = parsed.value;
    if (!parsed.complete) invalidArguments.push({ contentIndex: index, text: argumentText });
    delete call.partialArgs;
    yield { type: "toolcall_end", contentIndex: index, toolCall: call, partial: output };
  }
}
