/**
 * The answer of a Responses API stream, whoever carries it (the OpenAI SDK for
 * `openai-responses`, pig's own SSE reader for the ChatGPT Codex endpoint): its events as Pi's
 * assistant message.
 *
 * Each output item becomes one block, stored in the shape the request side replays (a reasoning
 * item as a thinking block with the item as its signature, a message item as a text block, a
 * function call as a tool call `<call_id>|<item id>`), and the block ends (`*_end`) when its
 * item is done.
 */
import { parseFinalArguments, parsePartialJson } from "../partial-json.ts";
import { StreamingArguments, TextAppender } from "../streamed-text.ts";
import type { ResponseWatch } from "../response-watch.ts";
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
import { encodeTextSignature } from "./openai-responses-request.ts";

type Json = Record<string, unknown>;

// ── response ────────────────────────────────────────────────────────────────

interface RawUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/** Pi 0.87's usage of a Responses answer: `input_tokens` counts the cached and cache-written tokens, so both come off it. */
export function responsesUsage(model: Model, raw: RawUsage): Usage {
  const cacheRead = raw.input_tokens_details?.cached_tokens ?? 0;
  const cacheWrite = raw.input_tokens_details?.cache_write_tokens ?? 0;
  const input = Math.max(0, (raw.input_tokens ?? 0) - cacheRead - cacheWrite);
  const output = raw.output_tokens ?? 0;
  return applyCost(model, {
    input,
    output,
    cacheRead,
    cacheWrite,
    reasoning: raw.output_tokens_details?.reasoning_tokens ?? 0,
    totalTokens: raw.total_tokens ?? input + output + cacheRead + cacheWrite,
    cost: emptyUsage().cost,
  });
}

function mapStatus(status: unknown, incompleteReason: unknown): { stopReason: StopReason; errorMessage?: string } {
  switch (status) {
    case "incomplete":
      if (incompleteReason === undefined || incompleteReason === null || incompleteReason === "max_output_tokens") {
        return { stopReason: "length" };
      }
      return { stopReason: "error", errorMessage: `Response incomplete: ${String(incompleteReason)}` };
    case "failed":
    case "cancelled":
      return { stopReason: "error", errorMessage: `Response ${status}` };
    default:
      return { stopReason: "stop" };
  }
}

/** Events that start, grow or end the answer; `response.in_progress` and unknown events do not. */
const PROGRESS_EVENTS = new Set([
  "response.created",
  "response.output_item.added",
  "response.output_item.done",
  "response.reasoning_summary_part.added",
  "response.function_call_arguments.done",
  "response.completed",
  "response.incomplete",
  "response.failed",
  "error",
]);
const DELTA_EVENTS = new Set([
  "response.reasoning_summary_text.delta",
  "response.reasoning_text.delta",
  "response.output_text.delta",
  "response.refusal.delta",
  "response.function_call_arguments.delta",
]);

function movesAnswerOn(event: Json): boolean {
  const type = String(event.type);
  if (PROGRESS_EVENTS.has(type)) return true;
  return DELTA_EVENTS.has(type) && typeof event.delta === "string" && event.delta.length > 0;
}

type StreamingToolCall = LlmToolCall & { partialJson?: string };
type Block = LlmText | LlmThinking | StreamingToolCall;

/** What one answer's events are read into. */
export interface ResponsesStreamState {
  model: Model;
  /** The message being built; its `stopReason` is "pending" until the response ends. */
  output: AssistantMessage;
  watch: ResponseWatch;
  /** Filled with the tool calls whose arguments did not arrive as whole JSON. */
  invalidArguments: InvalidArguments[];
  /** Adjusts the usage of the finished response (e.g. a service tier's price), given the response object. */
  adjustUsage?: (usage: Usage, response: Json) => void;
}

/**
 * Reads `events` (parsed Responses events) into `state.output`, yielding the message events.
 * Returns whether a final response event (completed or incomplete) arrived. Throws on a
 * `response.failed` or `error` event; the caller turns that into the stream's `error` event.
 */
export async function* responsesEvents(events: AsyncIterable<unknown>, state: ResponsesStreamState): AsyncGenerator<AssistantMessageEvent, boolean> {
  const { model, output, watch, invalidArguments } = state;
  const blocks = output.content;
  const byOutputIndex = new Map<number, Block>();
  const summaryParts = new Map<Block, number>();
  const indexOf = (block: Block) => blocks.indexOf(block as never);
  const texts = new TextAppender();
  const liveArguments = new StreamingArguments(parsePartialJson);
  const blockFor = (event: Json, type: Block["type"]): Block | undefined => {
    const found = typeof event.output_index === "number" ? byOutputIndex.get(event.output_index) : undefined;
    if (found?.type === type) return found;
    for (let i = blocks.length - 1; i >= 0; i--) if (blocks[i]!.type === type) return blocks[i] as Block;
    return undefined;
  };
  let finished = false;

  for await (const raw of events) {
    const event = raw as Json;
    const type = event.type;
    if (movesAnswerOn(event)) watch.progress();
    if (type === "response.created" || type === "response.in_progress") {
      const response = event.response as Json | undefined;
      if (!output.responseId && typeof response?.id === "string") output.responseId = response.id;
      if (!output.responseModel && typeof response?.model === "string" && response.model && response.model !== model.id) {
        output.responseModel = response.model;
      }
    } else if (type === "response.output_item.added") {
      const item = event.item as Json;
      let block: Block | undefined;
      if (item.type === "reasoning") {
        block = { type: "thinking", thinking: "" };
        blocks.push(block);
        yield { type: "thinking_start", contentIndex: indexOf(block), partial: output };
      } else if (item.type === "message") {
        block = { type: "text", text: "" };
        blocks.push(block);
        yield { type: "text_start", contentIndex: indexOf(block), partial: output };
      } else if (item.type === "function_call") {
        block = {
          type: "toolCall",
          id: `${String(item.call_id)}|${String(item.id)}`,
          name: String(item.name ?? ""),
          arguments: {},
          partialJson: typeof item.arguments === "string" ? item.arguments : "",
        };
        blocks.push(block);
        yield { type: "toolcall_start", contentIndex: indexOf(block), partial: output };
      }
      if (block && typeof event.output_index === "number") byOutputIndex.set(event.output_index, block);
    } else if (type === "response.reasoning_summary_part.added") {
      const block = blockFor(event, "thinking") as LlmThinking | undefined;
      if (block) {
        const parts = summaryParts.get(block) ?? 0;
        summaryParts.set(block, parts + 1);
        if (parts > 0) {
          block.thinking = texts.append(block, block.thinking, "\n\n");
          yield { type: "thinking_delta", contentIndex: indexOf(block), delta: "\n\n", partial: output };
        }
      }
    } else if (type === "response.reasoning_summary_text.delta" || type === "response.reasoning_text.delta") {
      const block = blockFor(event, "thinking") as LlmThinking | undefined;
      const delta = event.delta;
      if (block && typeof delta === "string" && delta) {
        block.thinking = texts.append(block, block.thinking, delta);
        yield { type: "thinking_delta", contentIndex: indexOf(block), delta, partial: output };
      }
    } else if (type === "response.output_text.delta" || type === "response.refusal.delta") {
      const block = blockFor(event, "text") as LlmText | undefined;
      const delta = event.delta;
      if (block && typeof delta === "string" && delta) {
        block.text = texts.append(block, block.text, delta);
        yield { type: "text_delta", contentIndex: indexOf(block), delta, partial: output };
      }
    } else if (type === "response.function_call_arguments.delta") {
      const block = blockFor(event, "toolCall") as StreamingToolCall | undefined;
      const delta = event.delta;
      if (block && typeof delta === "string") {
        block.partialJson = texts.append(block, block.partialJson ?? "", delta);
        block.arguments = liveArguments.update(block, block.partialJson) ?? block.arguments;
        yield { type: "toolcall_delta", contentIndex: indexOf(block), delta, partial: output };
      }
    } else if (type === "response.function_call_arguments.done") {
      const block = blockFor(event, "toolCall") as StreamingToolCall | undefined;
      if (block && typeof event.arguments === "string") {
        block.partialJson = event.arguments;
        block.arguments = parsePartialJson(block.partialJson);
      }
    } else if (type === "response.output_item.done") {
      const item = event.item as Json;
      if (item.type === "reasoning") {
        const block = blockFor(event, "thinking") as LlmThinking | undefined;
        if (block) {
          const summary = Array.isArray(item.summary) ? (item.summary as Json[]) : [];
          if (summary.length > 0) block.thinking = summary.map((part) => String(part.text ?? "")).join("\n\n");
          block.thinkingSignature = JSON.stringify(item);
          yield { type: "thinking_end", contentIndex: indexOf(block), content: block.thinking, partial: output };
        }
      } else if (item.type === "message") {
        const block = blockFor(event, "text") as LlmText | undefined;
        if (block) {
          const parts = Array.isArray(item.content) ? (item.content as Json[]) : [];
          if (parts.length > 0) {
            block.text = parts.map((part) => String(part.type === "refusal" ? (part.refusal ?? "") : (part.text ?? ""))).join("");
          }
          const phase = item.phase === "commentary" || item.phase === "final_answer" ? item.phase : undefined;
          if (typeof item.id === "string") block.textSignature = encodeTextSignature(item.id, phase);
          yield { type: "text_end", contentIndex: indexOf(block), content: block.text, partial: output };
        }
      } else if (item.type === "function_call") {
        const block = blockFor(event, "toolCall") as StreamingToolCall | undefined;
        if (block) {
          const text = block.partialJson || (typeof item.arguments === "string" ? item.arguments : "");
          const parsed = parseFinalArguments(text);
          block.arguments = parsed.value;
          if (!parsed.complete) invalidArguments.push({ contentIndex: indexOf(block), text });
          delete block.partialJson;
          yield { type: "toolcall_end", contentIndex: indexOf(block), toolCall: block, partial: output };
        }
      }
    } else if (type === "response.completed" || type === "response.incomplete") {
      const response = (event.response ?? {}) as Json;
      if (!output.responseId && typeof response.id === "string") output.responseId = response.id;
      if (response.usage) {
        output.usage = responsesUsage(model, response.usage as RawUsage);
        state.adjustUsage?.(output.usage, response);
      }
      const mapped = mapStatus(response.status, (response.incomplete_details as Json | undefined)?.reason);
      output.stopReason = mapped.stopReason;
      if (mapped.errorMessage) output.errorMessage = mapped.errorMessage;
      if (output.stopReason === "stop" && blocks.some((b) => b.type === "toolCall")) output.stopReason = "toolUse";
      finished = true;
    } else if (type === "response.failed") {
      const response = (event.response ?? {}) as Json;
      const error = response.error as Json | undefined | null;
      const details = response.incomplete_details as Json | undefined | null;
      throw new Error(
        error
          ? `${String(error.code || "unknown")}: ${String(error.message || "no message")}`
          : details?.reason
            ? `incomplete: ${String(details.reason)}`
            : "Unknown error (no error details in response)",
      );
    } else if (type === "error") {
      throw new Error(`Error Code ${String(event.code)}: ${String(event.message)}`);
    }
  }

  return finished;
}
