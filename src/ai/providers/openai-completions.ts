/**
 * OpenAI Chat Completions (`POST {baseUrl}/chat/completions`, streamed), for OpenAI itself and
 * the many servers that speak its dialect (see `detectCompat` for the per-server differences).
 *
 * Request bodies are byte-for-byte what upstream Pi 0.73.1 sends for the same context (checked
 * against its recorded requests). Streaming follows Pi too: one text block and one thinking block
 * per answer, tool calls keyed by their stream index, and all `*_end` events emitted, in content
 * order, once the stream is over.
 */
import { parseFinalArguments, parsePartialJson } from "../partial-json.ts";
import { StreamingArguments, TextAppender } from "../streamed-text.ts";
import { sentTools, strictToolSupport } from "../strict-tools.ts";
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
  type ToolSpec,
  type Usage,
} from "../types.ts";
import { convertCompletionsMessages } from "./openai-completions-messages.ts";
import { reasoningFields } from "./openai-completions-thinking.ts";
import { mergeHeaders, resolveCompat, type OpenAIRequest, type ResolvedCompat } from "./openai-shared.ts";
import { errorEvent } from "./openai-errors.ts";
import { openaiEvents, sendOpenAIRequest } from "./openai-fetch.ts";
import { observed } from "../stream-observer.ts";
import { closeQuietly, StreamAbort } from "./stream-failure.ts";
import { isPlainObject } from "../../util/plain-object.ts";
import { lendCompletionsBody } from "./openai-completions-body.ts";
import { ResponseWatch } from "../response-watch.ts";
import { finalHeaders, finalPayload } from "./request-hooks.ts";
import { fitOutputToWindow } from "../output-room.ts";

export { convertCompletionsMessages } from "./openai-completions-messages.ts";
export { detectCompat, resolveCompat, type OpenAIRequest } from "./openai-shared.ts";

type Json = Record<string, unknown>;

// ── request ─────────────────────────────────────────────────────────────────

/** `strict` only where the model's compat says `supportsStrictMode` (some servers reject the field); strict tools per strict-tools.ts. */
function convertTools(model: Model, tools: readonly ToolSpec[]): Json[] {
  const sent = sentTools(model, "openai-completions", tools);
  const strictMode = strictToolSupport(model, "openai-completions").supported;
  return tools.map((tool, i) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: sent[i]!.parameters,
      ...(strictMode ? { strict: sent[i]!.strict } : {}),
    },
  }));
}

/** Marks `part` (a text part, or a string content turned into one) as a cache breakpoint. */
function markText(message: Json, cacheControl: Json): boolean {
  const content = message.content;
  if (typeof content === "string") {
    if (content.length === 0) return false;
    message.content = [{ type: "text", text: content, cache_control: cacheControl }];
    return true;
  }
  if (!Array.isArray(content)) return false;
  for (let i = content.length - 1; i >= 0; i--) {
    const part = content[i] as Json;
    if (part?.type === "text") {
      part.cache_control = cacheControl;
      return true;
    }
  }
  return false;
}

/**
 * Anthropic-style prompt caching through an OpenAI-compatible gateway (Claude on OpenRouter):
 * breakpoints on the system prompt, the last tool and the last user, assistant or tool text;
 * an hour's lifetime under `PI_CACHE_RETENTION=long`.
 */
function addCacheBreakpoints(messages: Json[], tools: Json[] | undefined, long: boolean): void {
  const cacheControl = long ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
  const system = messages.find((m) => m.role === "system" || m.role === "developer");
  if (system) markText(system, cacheControl);
  const lastTool = tools?.[tools.length - 1];
  if (lastTool) lastTool.cache_control = cacheControl;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if ((message.role === "user" || message.role === "assistant" || message.role === "tool") && markText(message, cacheControl)) return;
  }
}

/** The Vercel AI Gateway's routing preferences: only its `only` and `order`. */
function gatewayOptions(routing: Record<string, unknown>): Json | undefined {
  if (!routing.only && !routing.order) return undefined;
  return { ...(routing.only ? { only: routing.only } : {}), ...(routing.order ? { order: routing.order } : {}) };
}

function hasToolHistory(context: LlmContext): boolean {
  return context.messages.some(
    (m) => m.role === "toolResult" || (m.role === "assistant" && m.content.some((b) => b.type === "toolCall")),
  );
}

/**
 * Whether a request may reuse the message elements (and their JSON) of earlier requests: not when
 * something changes them once made (a payload hook, or the cache breakpoints written into them).
 */
function reusesElements(compat: ResolvedCompat, options: StreamOptions): boolean {
  return !options.onPayload && compat.cacheControlFormat !== "anthropic";
}

/**
 * The body and the extra headers of the request for `context` (openai-fetch.ts adds
 * Authorization, content type and the SDK's own headers). Pure: no I/O, usable to compare
 * bodies in tests.
 */
export function buildCompletionsRequest(model: Model, context: LlmContext, options: StreamOptions): OpenAIRequest & { reusesElements: boolean } {
  const compat = resolveCompat(model);
  const reuse = reusesElements(compat, options);
  const longCache = process.env.PI_CACHE_RETENTION === "long" && compat.supportsLongCacheRetention;
  const body: Json = {
    model: model.id,
    messages: convertCompletionsMessages(model, context, compat, reuse),
    stream: true,
  };
  // OpenAI keys its cache by session; other servers are told a key only to keep a long cache.
  if (options.sessionId && (model.baseUrl.includes("api.openai.com") || longCache)) body.prompt_cache_key = Array.from(options.sessionId).slice(0, 64).join("");
  if (longCache) body.prompt_cache_retention = "24h";
  if (compat.supportsUsageInStreaming) body.stream_options = { include_usage: true };
  if (compat.supportsStore) body.store = false;
  const maxTokens = options.maxTokens ?? model.maxTokens;
  if (maxTokens) body[compat.maxTokensField] = fitOutputToWindow(model, context, maxTokens);
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (context.tools && context.tools.length > 0) {
    body.tools = convertTools(model, context.tools);
    if (compat.zaiToolStream) body.tool_stream = true;
  } else if (hasToolHistory(context)) body.tools = [];
  if (compat.cacheControlFormat === "anthropic") addCacheBreakpoints(body.messages as Json[], body.tools as Json[] | undefined, longCache);
  if (typeof model.compat?.vllmPriority === "number") body.priority = model.compat.vllmPriority;
  Object.assign(body, reasoningFields(model, compat, options, body[compat.maxTokensField] as number | undefined));
  // Gateway routing preferences, as configured in models.json.
  const routing = model.compat;
  if (isPlainObject(routing?.openRouterRouting)) body.provider = routing.openRouterRouting;
  const gateway = isPlainObject(routing?.vercelGatewayRouting) ? gatewayOptions(routing.vercelGatewayRouting) : undefined;
  if (gateway) body.providerOptions = { gateway };

  const session: Record<string, string> = {};
  if (options.sessionId && compat.sendSessionAffinityHeaders) {
    if (compat.sessionAffinityFormat === "openrouter") session["x-session-id"] = options.sessionId;
    else {
      session.session_id = options.sessionId;
      session["x-client-request-id"] = options.sessionId;
      session["x-session-affinity"] = options.sessionId;
    }
  }
  return { body, headers: mergeHeaders(model.headers, session, options.headers), reusesElements: reuse };
}

// ── response ────────────────────────────────────────────────────────────────

interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  prompt_cache_hit_tokens?: number;
  /** Kimi reports cache hits at the top of its last usage chunk. */
  cached_tokens?: number;
}

/**
 * Pi 0.87's usage: `input` excludes cached tokens (OpenAI counts them in `prompt_tokens`);
 * `cacheRead` is the cache hits as reported (OpenAI/OpenRouter's `cached_tokens`, DeepSeek's
 * `prompt_cache_hit_tokens`, Kimi's top-level `cached_tokens`), `cacheWrite` the separate count
 * OpenRouter-compatible servers give; `output` is `completion_tokens`, which already includes the
 * `reasoning` tokens (kept apart too, in Pi's key order).
 */
export function completionsUsage(model: Model, raw: RawUsage): Usage {
  const prompt = raw.prompt_tokens ?? 0;
  const cacheRead = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens ?? raw.cached_tokens ?? 0;
  const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens ?? 0;
  const input = Math.max(0, prompt - cacheRead - cacheWrite);
  const output = raw.completion_tokens ?? 0;
  return applyCost(model, {
    input,
    output,
    cacheRead,
    cacheWrite,
    reasoning: raw.completion_tokens_details?.reasoning_tokens ?? 0,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: emptyUsage().cost,
  });
}

function mapFinishReason(reason: string): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case "stop":
    case "end":
      return { stopReason: "stop" };
    case "length":
      return { stopReason: "length" };
    case "tool_calls":
    case "function_call":
      return { stopReason: "toolUse" };
    default:
      return { stopReason: "error", errorMessage: `Provider finish_reason: ${reason}` };
  }
}

const REASONING_DELTA_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;

/** The fields of a streamed chunk this provider reads; servers add others. */
interface ChatChunk {
  id?: string;
  model?: string;
  usage?: Record<string, unknown> | null;
  choices?: {
    delta?: Record<string, unknown> & {
      content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
    usage?: Record<string, unknown>;
  }[];
}

/** A tool call while it streams: the raw argument text and the stream index it is keyed by. */
type StreamingToolCall = LlmToolCall & { partialArgs?: string; streamIndex?: number };

type Delta = NonNullable<NonNullable<ChatChunk["choices"]>[number]["delta"]>;

function movesAnswerOn(chunk: ChatChunk): boolean {
  if (chunk.usage) return true;
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (!choice) return false;
  if (choice.finish_reason || (choice as { usage?: unknown }).usage) return true;
  const delta = choice.delta as Delta | undefined;
  if (!delta) return false;
  if (typeof delta.content === "string" && delta.content.length > 0) return true;
  if (REASONING_DELTA_FIELDS.some((name) => typeof delta[name] === "string" && (delta[name] as string).length > 0)) return true;
  return Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0;
}

async function* streamCompletions(model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  const abort = new StreamAbort(options.signal);
  let chunks: AsyncGenerator<ChatChunk> | undefined;
  try {
    const { body, headers, reusesElements: reused } = buildCompletionsRequest(model, context, options);
    const sentHeaders = await finalHeaders(headers, options);
    // Without a payload hook the body is bytes from kept pieces, lent until the request has its
    // answer (lendCompletionsBody); with one, the hook's object is written out.
    const lent = reused ? lendCompletionsBody(body) : undefined;
    const sent = lent?.bytes ?? JSON.stringify(await finalPayload(body, options));
    const response = await sendOpenAIRequest("/chat/completions", model, sentHeaders, sent, options, abort, watch).finally(() => lent?.giveBack());
    chunks = observed(openaiEvents(response) as AsyncGenerator<ChatChunk>, options.onStreamEvent);
    yield { type: "start", partial: output };

    const blocks = output.content;
    let text: LlmText | undefined;
    let thinking: LlmThinking | undefined;
    const callsByIndex = new Map<number, StreamingToolCall>();
    const callsById = new Map<string, StreamingToolCall>();
    const indexOf = (block: object) => blocks.indexOf(block as never);
    const texts = new TextAppender();
    const liveArguments = new StreamingArguments(parsePartialJson);

    let received = 0;
    for await (const chunk of chunks) {
      received++;
      if (!chunk || typeof chunk !== "object") continue;
      // The first chunk opens the answer; after it only content, usage and the finish reason move it on.
      if (received === 1 || movesAnswerOn(chunk)) watch.progress();
      if (!output.responseId && typeof chunk.id === "string" && chunk.id) output.responseId = chunk.id;
      if (!output.responseModel && typeof chunk.model === "string" && chunk.model && chunk.model !== model.id) {
        output.responseModel = chunk.model;
      }
      if (chunk.usage) output.usage = completionsUsage(model, chunk.usage as RawUsage);
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (!choice) continue;
      const choiceUsage = (choice as { usage?: RawUsage }).usage;
      if (!chunk.usage && choiceUsage) output.usage = completionsUsage(model, choiceUsage);
      if (choice.finish_reason) {
        output.rawStopReason = choice.finish_reason;
        const mapped = mapFinishReason(choice.finish_reason);
        output.stopReason = mapped.stopReason;
        if (mapped.errorMessage) output.errorMessage = mapped.errorMessage;
      }
      const delta = choice.delta as Delta | undefined;
      if (!delta) continue;

      if (typeof delta.content === "string" && delta.content.length > 0) {
        if (!text) {
          text = { type: "text", text: "" };
          blocks.push(text);
          yield { type: "text_start", contentIndex: indexOf(text), partial: output };
        }
        text.text = texts.append(text, text.text, delta.content);
        yield { type: "text_delta", contentIndex: indexOf(text), delta: delta.content, partial: output };
      }

      const field = REASONING_DELTA_FIELDS.find((name) => typeof delta[name] === "string" && (delta[name] as string).length > 0);
      if (field) {
        const piece = delta[field] as string;
        if (!thinking) {
          thinking = { type: "thinking", thinking: "", thinkingSignature: field };
          blocks.push(thinking);
          yield { type: "thinking_start", contentIndex: indexOf(thinking), partial: output };
        }
        thinking.thinking = texts.append(thinking, thinking.thinking, piece);
        yield { type: "thinking_delta", contentIndex: indexOf(thinking), delta: piece, partial: output };
      }

      if (Array.isArray(delta.tool_calls)) {
        for (const part of delta.tool_calls) {
          const streamIndex = typeof part.index === "number" ? part.index : undefined;
          let call = streamIndex !== undefined ? callsByIndex.get(streamIndex) : undefined;
          if (!call && part.id) call = callsById.get(part.id);
          if (!call) {
            call = { type: "toolCall", id: part.id ?? "", name: part.function?.name ?? "", arguments: {}, partialArgs: "", streamIndex };
            if (streamIndex !== undefined) callsByIndex.set(streamIndex, call);
            if (part.id) callsById.set(part.id, call);
            blocks.push(call);
            yield { type: "toolcall_start", contentIndex: indexOf(call), partial: output };
          }
          if (!call.id && part.id) {
            call.id = part.id;
            callsById.set(part.id, call);
          }
          if (!call.name && part.function?.name) call.name = part.function.name;
          let piece = "";
          if (part.function?.arguments) {
            piece = part.function.arguments;
            call.partialArgs = texts.append(call, call.partialArgs ?? "", piece);
            call.arguments = liveArguments.update(call, call.partialArgs) ?? call.arguments;
          }
          yield { type: "toolcall_delta", contentIndex: indexOf(call), delta: piece, partial: output };
        }
      }

      const details = delta.reasoning_details;
      if (Array.isArray(details)) {
        for (const detail of details as Json[]) {
          if (detail.type !== "reasoning.encrypted" || !detail.id || !detail.data) continue;
          const call = blocks.find((b) => b.type === "toolCall" && b.id === detail.id) as LlmToolCall | undefined;
          if (call) call.thoughtSignature = JSON.stringify(detail);
        }
      }
    }

    const invalidArguments: InvalidArguments[] = [];
    for (const block of [...blocks]) {
      const contentIndex = indexOf(block);
      if (block.type === "text") yield { type: "text_end", contentIndex, content: block.text, partial: output };
      else if (block.type === "thinking") yield { type: "thinking_end", contentIndex, content: block.thinking, partial: output };
      else {
        const call = block as StreamingToolCall;
        const text = call.partialArgs ?? "";
        const parsed = parseFinalArguments(text);
        call.arguments = parsed.value;
        if (!parsed.complete) invalidArguments.push({ contentIndex, text });
        delete call.partialArgs;
        delete call.streamIndex;
        yield { type: "toolcall_end", contentIndex, toolCall: call, partial: output };
      }
    }

    if (options.signal?.aborted) throw new Error("Request was aborted");
    // An empty answer that "succeeded" would be taken for the model saying nothing.
    if (received === 0) throw new Error("Stream ended without any event from the server");
    if (output.stopReason === "aborted") throw new Error("Request was aborted");
    if (output.stopReason === "error") throw new Error(output.errorMessage || "Provider returned an error stop reason");
    // A stream that stops before saying why was cut short (Pi ≥ 0.87 treats it as failed too).
    if (output.stopReason === "pending") throw new Error("Stream ended without finish_reason");
    // Some servers end a tool-calling answer with "stop"; the calls are what matters.
    if (output.stopReason === "stop" && blocks.some((b) => b.type === "toolCall")) output.stopReason = "toolUse";
    yield doneEvent(output.stopReason, output, invalidArguments);
  } catch (error) {
    yield errorEvent(output, error, options, watch);
  } finally {
    await closeQuietly(chunks);
    abort.release();
  }
}

/** Streams one Chat Completions answer. Never throws; always ends with `done` or `error`. */
export const streamOpenAICompletions: StreamFunction = (model, context, options) => streamCompletions(model, context, options);

