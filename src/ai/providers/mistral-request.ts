/**
 * The request pig sends to Mistral (`mistral-conversations`, Pi 0.87.1's name for it): a POST of
 * `<baseUrl>/v1/chat/completions`, streamed. Mistral's dialect of chat completions differs from
 * OpenAI's: tool call ids must be 9 characters of [a-zA-Z0-9] (other providers' ids are mapped,
 * the same id always to the same one), thinking is replayed as typed `thinking` chunks, tool
 * results carry the tool's `name`, images are `image_url` strings, and reasoning is asked for with
 * `prompt_mode: "reasoning"` (Magistral) or `reasoning_effort` (the models listed in
 * `usesReasoningEffort`). Body keys come in the order Pi 0.87.1 sends them. Pure.
 */
import { shortHash } from "../short-hash.ts";
import { IMAGE_ONLY_RESULT_TEXT, TOOL_IMAGE_PLACEHOLDER, USER_IMAGE_PLACEHOLDER, withoutImages } from "./content-text.ts";
import { sentTools } from "../strict-tools.ts";
import { fitOutputToWindow } from "../output-room.ts";
import type { LlmContext, LlmImage, LlmMessage, Model, StreamOptions, ToolSpec } from "../types.ts";
import { imageUrl, prepareMessages, sanitizeSurrogates } from "./openai-shared.ts";

type Json = Record<string, unknown>;

export const MISTRAL_TOOL_CALL_ID_LENGTH = 9;
const TOOL_IMAGE_OMITTED_NOTE = "[tool image omitted: model does not support images]";

export interface MistralRequest {
  url: string;
  headers: Record<string, string>;
  body: Json;
}

/** One candidate 9-character id for `id` (`attempt` > 0 after a collision). */
function candidateId(id: string, attempt: number): string {
  const alphanumeric = id.replace(/[^a-zA-Z0-9]/g, "");
  if (attempt === 0 && alphanumeric.length === MISTRAL_TOOL_CALL_ID_LENGTH) return alphanumeric;
  const seed = attempt === 0 ? alphanumeric || id : `${alphanumeric || id}:${attempt}`;
  return shortHash(seed).replace(/[^a-zA-Z0-9]/g, "").slice(0, MISTRAL_TOOL_CALL_ID_LENGTH);
}

/**
 * A mapping of tool call ids to ones Mistral accepts, for one request: an id that already fits
 * keeps its characters, others get a hash; two ids never map to the same one.
 */
export function mistralToolCallIds(): (id: string) => string {
  const byId = new Map<string, string>();
  const owners = new Map<string, string>();
  return (id) => {
    const known = byId.get(id);
    if (known) return known;
    for (let attempt = 0; ; attempt++) {
      const candidate = candidateId(id, attempt);
      const owner = owners.get(candidate);
      if (owner === undefined || owner === id) {
        byId.set(id, candidate);
        owners.set(candidate, id);
        return candidate;
      }
    }
  };
}

/** The id of a streamed tool call that came without one (`null`, "null"): stable per stream index. */
export function fallbackToolCallId(streamIndex: number): string {
  return candidateId(`toolcall:${streamIndex}`, 0);
}

function downgradeImages(messages: readonly LlmMessage[], model: Model): LlmMessage[] {
  if (model.input.includes("image")) return [...messages];
  return messages.map((message) => {
    if (message.role === "user" && Array.isArray(message.content)) return { ...message, content: withoutImages(message.content, USER_IMAGE_PLACEHOLDER) };
    if (message.role === "toolResult") return { ...message, content: withoutImages(message.content, TOOL_IMAGE_PLACEHOLDER) };
    return message;
  });
}

function toolResultText(text: string, hasImages: boolean, supportsImages: boolean, isError: boolean): string {
  const prefix = isError ? "[tool error] " : "";
  const trimmed = text.trim();
  if (trimmed.length > 0) return `${prefix}${trimmed}${hasImages && !supportsImages ? `\n${TOOL_IMAGE_OMITTED_NOTE}` : ""}`;
  if (hasImages) return `${prefix}${supportsImages ? IMAGE_ONLY_RESULT_TEXT : USER_IMAGE_PLACEHOLDER}`;
  return `${prefix}(no tool output)`;
}

/** The chat messages for `messages` (already prepared), the system prompt first. */
export function convertMistralMessages(systemPrompt: string, messages: readonly LlmMessage[], supportsImages: boolean): Json[] {
  const out: Json[] = [];
  if (systemPrompt.length > 0) out.push({ role: "system", content: sanitizeSurrogates(systemPrompt) });
  for (const message of messages) {
    if (message.role === "user") {
      if (typeof message.content === "string") {
        out.push({ role: "user", content: sanitizeSurrogates(message.content) });
        continue;
      }
      const hadImages = message.content.some((block) => block.type === "image");
      const content = message.content
        .filter((block) => block.type === "text" || supportsImages)
        .map((block) => (block.type === "text" ? { type: "text", text: sanitizeSurrogates(block.text) } : { type: "image_url", image_url: imageUrl(block) }));
      if (content.length > 0) out.push({ role: "user", content });
      else if (hadImages && !supportsImages) out.push({ role: "user", content: USER_IMAGE_PLACEHOLDER });
      continue;
    }
    if (message.role === "assistant") {
      const content: Json[] = [];
      const calls: Json[] = [];
      for (const block of message.content) {
        if (block.type === "text") {
          if (block.text.trim().length > 0) content.push({ type: "text", text: sanitizeSurrogates(block.text) });
        } else if (block.type === "thinking") {
          if (block.thinking.trim().length > 0) content.push({ type: "thinking", thinking: [{ type: "text", text: sanitizeSurrogates(block.thinking) }] });
        } else {
          calls.push({ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.arguments ?? {}) }, index: 0 });
        }
      }
      if (content.length === 0 && calls.length === 0) continue;
      out.push({ role: "assistant", prefix: false, ...(content.length > 0 ? { content } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      continue;
    }
    const text = message.content.flatMap((block) => (block.type === "text" ? [sanitizeSurrogates(block.text)] : [])).join("\n");
    const images = message.content.filter((block): block is LlmImage => block.type === "image");
    const content: Json[] = [{ type: "text", text: toolResultText(text, images.length > 0, supportsImages, message.isError) }];
    if (supportsImages) for (const image of images) content.push({ type: "image_url", image_url: imageUrl(image) });
    out.push({ role: "tool", name: message.toolName, content, tool_call_id: message.toolCallId });
  }
  return out;
}

function convertTools(model: Model, tools: readonly ToolSpec[]): Json[] {
  const sent = sentTools(model, "mistral-conversations", tools);
  return tools.map((tool, i) => {
    const { parameters, strict } = sent[i]!;
    return { type: "function", function: { name: tool.name, description: tool.description, parameters, strict } };
  });
}

/** Models that take `reasoning_effort`; the other reasoning models take `prompt_mode` (Pi 0.87.1's list). */
export function usesReasoningEffort(model: Model): boolean {
  return model.id === "mistral-small-2603" || model.id === "mistral-small-latest" || model.id.startsWith("mistral-medium-") || model.id === "zai-glm-5-2";
}

/** `prompt_mode` / `reasoning_effort` for the (already clamped) thinking level. */
function reasoningFields(model: Model, options: StreamOptions): Json {
  const level = options.reasoning;
  if (!model.reasoning || level === undefined || level === "off") return {};
  if (usesReasoningEffort(model)) return { reasoning_effort: model.thinkingLevelMap?.[level] ?? "high" };
  return { prompt_mode: "reasoning" };
}

/** The endpoint: `<baseUrl>/v1/chat/completions` (Mistral's base URL has no `/v1`). */
export function mistralUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/v1/chat/completions`;
}

/** `pig (<platform> <release>; <arch>)`, the shape of the user agent Pi sends Mistral. */
export function mistralUserAgent(os: { platform: string; release: string; arch: string }): string {
  return `pig (${os.platform} ${os.release}; ${os.arch})`;
}

function hasHeader(headers: Record<string, string> | undefined, name: string): boolean {
  return Object.keys(headers ?? {}).some((key) => key.toLowerCase() === name);
}

/** Header sets merged left to right, names compared without case (a later `Authorization` replaces `authorization`). */
function mergeHeaders(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) {
      for (const key of Object.keys(out)) if (key.toLowerCase() === name.toLowerCase()) delete out[key];
      out[name] = value;
    }
  }
  return out;
}

/** The whole request for `context`. `userAgent`: see `mistralUserAgent`. */
export function buildMistralRequest(model: Model, context: LlmContext, options: StreamOptions, userAgent: string): MistralRequest {
  const prepared = prepareMessages(downgradeImages(context.messages, model), model, mistralToolCallIds());
  const body: Json = {
    model: model.id,
    stream: true,
    messages: convertMistralMessages(context.systemPrompt, prepared, model.input.includes("image")),
  };
  if (context.tools && context.tools.length > 0) body.tools = convertTools(model, context.tools);
  if (options.temperature !== undefined) body.temperature = options.temperature;
  const maxTokens = options.maxTokens ?? model.maxTokens;
  if (maxTokens) body.max_tokens = fitOutputToWindow(model, context, maxTokens);
  Object.assign(body, reasoningFields(model, options));
  if (options.sessionId) body.prompt_cache_key = options.sessionId;

  const base = { "User-Agent": userAgent, accept: "text/event-stream", authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" };
  // The session keeps its cache on one server unless the configuration routes it itself.
  const pinned = hasHeader(model.headers, "x-affinity") || hasHeader(options.headers, "x-affinity");
  const affinity: Record<string, string> = options.sessionId && !pinned ? { "x-affinity": options.sessionId } : {};
  return { url: mistralUrl(model.baseUrl), headers: mergeHeaders(base, model.headers, options.headers, affinity), body };
}
