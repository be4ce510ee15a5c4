/**
 * OpenAI Responses API (`POST {baseUrl}/responses`, streamed, `store: false`): the answer's
 * events as Pi's assistant message. The request, and how Pi's stored blocks are replayed, are in
 * openai-responses-request.ts.
 *
 * Each output item becomes one block, stored in the shape the request side replays (a reasoning
 * item as a thinking block with the item as its signature, a message item as a text block, a
 * function call as a tool call `<call_id>|<item id>`), and the block ends (`*_end`) when its
 * item is done.
 */
import { parseFinalArguments, parsePartialJson } from "../partial-json.ts";
import { StreamingArguments, TextAppender } from "../streamed-text.ts";
import { ResponseWatch } from "../response-watch.ts";
import { finalHeaders, finalPayload } from "./request-hooks.ts";
import {
  applyCost,
  emptyUsage,
  doneEvent,
  newAssistantMessage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type InvalidArguments,
  type LlmContext,
  type LlmText,
  type LlmThinking,
  type LlmToolCall,
  type Model,
  type StopReason,
  type StreamFunction,
  type StreamOptions,
  type Usage,
} from "../types.ts";
import type OpenAI from "openai";
import { createClient, errorEvent, type OpenAIRequest } from "./openai-shared.ts";
import { buildResponsesRequest, encodeTextSignature } from "./openai-responses-request.ts";

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

/**
 * What differs between servers that speak the Responses API: the request they take (body and
 * extra headers) and the client that sends it (where, and how it authenticates). The answer's
 * events are read the same way for all of them.
 */
export interface ResponsesWire {
  /** Body and extra headers; may throw a clear error about the configuration (it ends the stream). */
  build(model: Model, context: LlmContext, options: StreamOptions): OpenAIRequest;
  client(model: Model, options: StreamOptions, headers: Record<string, string | null>, watch: ResponseWatch): OpenAI;
}

/** OpenAI's own Responses API at `{baseUrl}/responses`, with a bearer key. */
const OPENAI_WIRE: ResponsesWire = { build: buildResponsesRequest, client: createClient };

async function* streamResponses(wire: ResponsesWire, model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  try {
    const { body, headers } = wire.build(model, context, options);
    const client = wire.client(model, options, await finalHeaders(headers, options), watch);
    const stream = await client.responses.create((await finalPayload(body, options)) as never, { signal: options.signal });
    yield { type: "start", partial: output };

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
    const invalidArguments: InvalidArguments[] = [];

    for await (const raw of stream as unknown as AsyncIterable<unknown>) {
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
        if (response.usage) output.usage = responsesUsage(model, response.usage as RawUsage);
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

    if (options.signal?.aborted) throw new Error("Request was aborted");
    if (output.stopReason === "error") throw new Error(output.errorMessage || "Provider returned an error stop reason");
    if (!finished) throw new Error("terminated");
    yield doneEvent(output.stopReason as "stop" | "length" | "toolUse", output, invalidArguments);
  } catch (error) {
    yield errorEvent(output, error, options, watch);
  }
}

/** Streams one answer of a Responses server described by `wire`. Never throws; always ends with `done` or `error`. */
export function responsesStream(wire: ResponsesWire): StreamFunction {
  return (model, context, options) => streamResponses(wire, model, context, options);
}

/** Streams one Responses API answer. Never throws; always ends with `done` or `error`. */
export const streamOpenAIResponses: StreamFunction = responsesStream(OPENAI_WIRE);
