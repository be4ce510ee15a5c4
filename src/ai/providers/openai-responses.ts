/**
 * OpenAI Responses API (`POST {baseUrl}/responses`, streamed, `store: false`).
 *
 * What Pi stores from it, and replays: a reasoning item becomes a thinking block whose
 * `thinkingSignature` is the item as JSON (sent back verbatim, encrypted content included); a
 * message item becomes a text block whose `textSignature` is `{"v":1,"id":<item id>}`; a function
 * call becomes a tool call with id `<call_id>|<item id>`. Each block ends (`*_end`) when its
 * output item is done.
 */
import { parseFinalArguments, parsePartialJson } from "../partial-json.ts";
import { ResponseWatch } from "../response-watch.ts";
import { finalHeaders, finalPayload } from "./request-hooks.ts";
import { fitOutputToWindow } from "../output-room.ts";
import { reasoningEffortFor, thinkingEnabled } from "../thinking.ts";
import {
  applyCost,
  emptyUsage,
  doneEvent,
  newAssistantMessage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type InvalidArguments,
  type LlmContext,
  type LlmImage,
  type LlmText,
  type LlmThinking,
  type LlmToolCall,
  type Model,
  type StopReason,
  type StreamFunction,
  type StreamOptions,
  type ToolSpec,
  type Usage,
} from "../types.ts";
import {
  addCacheRetention,
  createClient,
  errorEvent,
  imageUrl,
  isSameModel,
  mergeHeaders,
  prepareMessages,
  resolveCompat,
  sanitizeSurrogates,
  shortHash,
  type OpenAIRequest,
} from "./openai-shared.ts";

type Json = Record<string, unknown>;

// ── signatures and ids ──────────────────────────────────────────────────────

type Phase = "commentary" | "final_answer";

export function encodeTextSignature(id: string, phase?: Phase): string {
  return JSON.stringify(phase ? { v: 1, id, phase } : { v: 1, id });
}

/** `{"v":1,"id","phase"?}` as written by Pi, or a legacy plain item id. */
export function parseTextSignature(signature: string | undefined): { id: string; phase?: Phase } | undefined {
  if (!signature) return undefined;
  if (signature.startsWith("{")) {
    try {
      const parsed = JSON.parse(signature) as { v?: unknown; id?: unknown; phase?: unknown };
      if (parsed.v === 1 && typeof parsed.id === "string") {
        return parsed.phase === "commentary" || parsed.phase === "final_answer" ? { id: parsed.id, phase: parsed.phase } : { id: parsed.id };
      }
    } catch {
      // a legacy plain id
    }
  }
  return { id: signature };
}

/** Makes another model's tool call id acceptable here: `[a-zA-Z0-9_-]`, ≤ 64, item ids starting "fc". */
function normalizeForeignToolCallId(id: string): string {
  const clean = (part: string) => part.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64).replace(/_+$/, "");
  const [callPart, itemPart] = id.split("|");
  const call = clean(callPart ?? "") || "call";
  if (itemPart === undefined) return call;
  let item = itemPart.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (!item.startsWith("fc")) item = `fc_${item}`;
  return `${call}|${clean(item)}`;
}

// ── request ─────────────────────────────────────────────────────────────────

function userContent(model: Model, content: readonly (LlmText | LlmImage)[]): Json[] {
  const parts: Json[] = [];
  for (const item of content) {
    if (item.type === "text") parts.push({ type: "input_text", text: sanitizeSurrogates(item.text) });
    else if (item.type === "image" && model.input.includes("image")) {
      parts.push({ type: "input_image", detail: "auto", image_url: imageUrl(item) });
    }
  }
  return parts;
}

/** The `input` array of a Responses request for `context`. */
export function convertResponsesInput(model: Model, context: LlmContext): Json[] {
  const compat = resolveCompat(model);
  const input: Json[] = [];
  const messages = prepareMessages(context.messages, model, normalizeForeignToolCallId);

  if (context.systemPrompt) {
    const role = model.reasoning && compat.supportsDeveloperRole !== false ? "developer" : "system";
    input.push({ role, content: sanitizeSurrogates(context.systemPrompt) });
  }

  let index = 0;
  for (const message of messages) {
    if (message.role === "user") {
      if (typeof message.content === "string") {
        input.push({ role: "user", content: [{ type: "input_text", text: sanitizeSurrogates(message.content) }] });
      } else {
        const parts = userContent(model, message.content);
        if (parts.length > 0) input.push({ role: "user", content: parts });
      }
    } else if (message.role === "assistant") {
      const same = isSameModel(message, model);
      for (const block of message.content) {
        if (block.type === "thinking") {
          if (!block.thinkingSignature) continue;
          try {
            input.push(JSON.parse(block.thinkingSignature) as Json);
          } catch {
            // not a reasoning item (e.g. written by another API): nothing to replay
          }
        } else if (block.type === "text") {
          const signature = parseTextSignature(block.textSignature);
          let id = signature?.id ?? `msg_${index}`;
          if (id.length > 64) id = `msg_${shortHash(id)}`;
          const item: Json = {
            type: "message",
            role: "assistant",
            content: [{ type: "output_text", text: sanitizeSurrogates(block.text), annotations: [] }],
            status: "completed",
            id,
          };
          if (signature?.phase) item.phase = signature.phase;
          input.push(item);
        } else if (block.type === "toolCall") {
          const [callId, itemId] = block.id.split("|");
          const item: Json = { type: "function_call" };
          // Another model's item ids are not paired with reasoning items here: leave them out.
          if (itemId && same) item.id = itemId;
          item.call_id = callId;
          item.name = block.name;
          item.arguments = JSON.stringify(block.arguments);
          input.push(item);
        }
      }
    } else {
      const text = message.content
        .filter((b): b is LlmText => b.type === "text")
        .map((b) => b.text)
        .join("\n");
      input.push({
        type: "function_call_output",
        call_id: message.toolCallId.split("|")[0],
        output: sanitizeSurrogates(text.length > 0 ? text : "(see attached image)"),
      });
      const images = model.input.includes("image")
        ? message.content.filter((b): b is LlmImage => b.type === "image")
        : [];
      if (images.length > 0) {
        input.push({
          role: "user",
          content: [
            { type: "input_text", text: "Attached image(s) from tool result:" },
            ...images.map((image) => ({ type: "input_image", detail: "auto", image_url: imageUrl(image) })),
          ],
        });
      }
    }
    index++;
  }
  return input;
}

/** `strict` only for a server said (by `compat`) to take strict tool schemas, as Pi ≥ 0.87 does. */
function convertTools(tools: readonly ToolSpec[], strictMode: boolean): Json[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(strictMode ? { strict: false } : {}),
  }));
}

/**
 * Body and extra headers of the Responses request for `context` (the SDK adds Authorization and
 * its own headers). With a session id: `prompt_cache_key`, and the `session_id` /
 * `x-client-request-id` headers. Pure.
 */
export function buildResponsesRequest(model: Model, context: LlmContext, options: StreamOptions): OpenAIRequest {
  const compat = resolveCompat(model);
  const body: Json = {
    model: model.id,
    input: convertResponsesInput(model, context),
    stream: true,
  };
  if (options.sessionId) body.prompt_cache_key = options.sessionId;
  addCacheRetention(body, model);
  if (model.compat?.supportsStore !== false) body.store = false;
  const maxTokens = options.maxTokens ?? model.maxTokens;
  if (maxTokens) body.max_output_tokens = Math.max(fitOutputToWindow(model, context, maxTokens), 16);
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (context.tools && context.tools.length > 0) body.tools = convertTools(context.tools, compat.supportsStrictMode);
  if (model.reasoning) {
    if (thinkingEnabled(model, options.reasoning)) {
      body.reasoning = { effort: reasoningEffortFor(model, options.reasoning), summary: "auto" };
      body.include = ["reasoning.encrypted_content"];
    } else {
      const off = model.thinkingLevelMap?.off;
      if (off !== null) body.reasoning = { effort: off ?? "none" };
    }
  }

  const session: Record<string, string> = {};
  if (options.sessionId) {
    if (compat.sendSessionIdHeader) session.session_id = options.sessionId;
    session["x-client-request-id"] = options.sessionId;
  }
  return { body, headers: mergeHeaders(model.headers, session, options.headers) };
}

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

type StreamingToolCall = LlmToolCall & { partialJson?: string };
type Block = LlmText | LlmThinking | StreamingToolCall;

async function* streamResponses(model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const watch = new ResponseWatch(options.idleTimeoutMs);
  try {
    const { body, headers } = buildResponsesRequest(model, context, options);
    const client = createClient(model, options, await finalHeaders(headers, options), watch);
    const stream = await client.responses.create((await finalPayload(body, options)) as never, { signal: options.signal });
    yield { type: "start", partial: output };

    const blocks = output.content;
    const byOutputIndex = new Map<number, Block>();
    const summaryParts = new Map<Block, number>();
    const indexOf = (block: Block) => blocks.indexOf(block as never);
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
            block.thinking += "\n\n";
            yield { type: "thinking_delta", contentIndex: indexOf(block), delta: "\n\n", partial: output };
          }
        }
      } else if (type === "response.reasoning_summary_text.delta" || type === "response.reasoning_text.delta") {
        const block = blockFor(event, "thinking") as LlmThinking | undefined;
        const delta = event.delta;
        if (block && typeof delta === "string" && delta) {
          block.thinking += delta;
          yield { type: "thinking_delta", contentIndex: indexOf(block), delta, partial: output };
        }
      } else if (type === "response.output_text.delta" || type === "response.refusal.delta") {
        const block = blockFor(event, "text") as LlmText | undefined;
        const delta = event.delta;
        if (block && typeof delta === "string" && delta) {
          block.text += delta;
          yield { type: "text_delta", contentIndex: indexOf(block), delta, partial: output };
        }
      } else if (type === "response.function_call_arguments.delta") {
        const block = blockFor(event, "toolCall") as StreamingToolCall | undefined;
        const delta = event.delta;
        if (block && typeof delta === "string") {
          block.partialJson = (block.partialJson ?? "") + delta;
          block.arguments = parsePartialJson(block.partialJson);
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

/** Streams one Responses API answer. Never throws; always ends with `done` or `error`. */
export const streamOpenAIResponses: StreamFunction = (model, context, options) => streamResponses(model, context, options);
