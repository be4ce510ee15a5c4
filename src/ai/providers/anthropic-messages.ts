/**
 * The Anthropic Messages API (`POST <baseUrl>/v1/messages`, streamed as server-sent events),
 * over plain fetch, producing the request upstream Pi 0.73.1 sends and the events and assistant
 * message it builds from the answer.
 *
 * Request (as upstream): headers `x-api-key`, `anthropic-version: 2023-06-01`,
 * `anthropic-dangerous-direct-browser-access: true`, `accept` and `content-type` JSON, and
 * `anthropic-beta: interleaved-thinking-2025-05-14` for every model without adaptive thinking
 * (whether or not thinking is on); model and caller headers override these. Body keys in the
 * order `model, messages, max_tokens, stream, system, temperature, tools, thinking,
 * output_config`. Prompt caching marks the system block, the last tool and the last block of a
 * final user message with `cache_control: {type: "ephemeral"}`.
 *
 * Thinking: models with adaptive thinking (Opus 4.6/4.7, Sonnet 4.6) get `{type: "adaptive"}` and
 * an `output_config.effort`; the others a token budget (see `anthropicThinkingBudget`). A
 * reasoning model with thinking off is sent `{type: "disabled"}`.
 *
 * Errors end the stream with an `error` event whose message reads like upstream's (the Anthropic
 * SDK's wording): `<status> <JSON body>` for HTTP errors, the raw data of an in-stream `error`
 * event, "terminated" for a connection lost mid-stream, "Connection error." and "Request timed
 * out." before an answer. There are no retries here; the agent retries.
 */
import { parsePartialJson } from "../partial-json.ts";
import { closeToolCalls } from "../transform.ts";
import { iterateSse, type SseEvent } from "../sse.ts";
import {
  applyCost,
  newAssistantMessage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type LlmContext,
  type LlmImage,
  type LlmMessage,
  type LlmText,
  type LlmThinking,
  type LlmToolCall,
  type Model,
  type StopReason,
  type StreamFunction,
  type StreamOptions,
  type ThinkingLevel,
  type ToolSpec,
} from "../types.ts";

export const ANTHROPIC_VERSION = "2023-06-01";
export const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com";
export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";
export const FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14";
/** The Anthropic SDK's default request timeout (until the response headers arrive). */
export const DEFAULT_TIMEOUT_MS = 600_000;
export const ABORTED_MESSAGE = "Request was aborted";

// ── options ─────────────────────────────────────────────────────────────────

export type CacheRetention = "none" | "short" | "long";
export type BudgetLevel = "minimal" | "low" | "medium" | "high";
export type ThinkingBudgets = Partial<Record<BudgetLevel, number>>;

/** `StreamOptions` plus the upstream knobs this API understands (all optional). */
export interface AnthropicStreamOptions extends StreamOptions {
  /** Prompt caching: "short" (default; "long" when PI_CACHE_RETENTION=long) adds 5-minute breakpoints, "long" 1-hour ones, "none" none. */
  cacheRetention?: CacheRetention;
  /** Per-level thinking budgets (upstream setting `thinkingBudgets`), over the defaults. */
  thinkingBudgets?: ThinkingBudgets;
  /** Send the interleaved-thinking beta header (default true, as upstream). */
  interleavedThinking?: boolean;
  /** `thinking.display` (default "summarized"). */
  thinkingDisplay?: "summarized" | "omitted";
}

// ── thinking ────────────────────────────────────────────────────────────────

/** Upstream's default budgets per level; `xhigh` uses `high`'s. */
export const DEFAULT_THINKING_BUDGETS: Readonly<Record<BudgetLevel, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** Tokens upstream keeps for the answer when the budget has to shrink to fit. */
const MIN_OUTPUT_TOKENS = 1024;

/** Output cap when the caller gives none: the model's, at most 32000 (upstream's default). */
export function defaultMaxTokens(model: Model): number | undefined {
  return model.maxTokens > 0 ? Math.min(model.maxTokens, 32000) : undefined;
}

/**
 * Budget-based thinking, as upstream: the budget is added on top of the requested output
 * (`max_tokens = min(base + budget, model.maxTokens)`); when that leaves no room for the budget
 * it shrinks to `max_tokens − 1024` (0 at least). A model with maxTokens 16384 and level high
 * gives max_tokens 16384, budget 15360.
 */
export function anthropicThinkingBudget(
  baseMaxTokens: number,
  modelMaxTokens: number,
  level: ThinkingLevel,
  budgets?: ThinkingBudgets,
): { maxTokens: number; budgetTokens: number } {
  const clamped: BudgetLevel = level === "xhigh" || level === "off" ? "high" : level;
  let budgetTokens = { ...DEFAULT_THINKING_BUDGETS, ...budgets }[clamped];
  const maxTokens = Math.min(baseMaxTokens + budgetTokens, modelMaxTokens);
  if (maxTokens <= budgetTokens) budgetTokens = Math.max(0, maxTokens - MIN_OUTPUT_TOKENS);
  return { maxTokens, budgetTokens };
}

/** Models that think adaptively (`thinking: {type: "adaptive"}` plus an effort). */
export function supportsAdaptiveThinking(modelId: string): boolean {
  return /opus-4[-.][67]|sonnet-4[-.]6/.test(modelId);
}

/** The `output_config.effort` for an adaptive model: the model's map, else low/medium/high. */
export function adaptiveEffort(model: Model, level: ThinkingLevel): string {
  const mapped = model.thinkingLevelMap?.[level];
  if (typeof mapped === "string") return mapped;
  if (level === "minimal" || level === "low") return "low";
  if (level === "medium") return "medium";
  return "high";
}

// ── OAuth (Claude subscription tokens) ──────────────────────────────────────

const CLAUDE_CODE_VERSION = "2.1.75";
const CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";
/** Claude Code's tool names; with an OAuth token, same-named tools are sent in this casing. */
const CLAUDE_CODE_TOOLS = [
  "Read", "Write", "Edit", "Bash", "Grep", "Glob", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode",
  "KillShell", "NotebookEdit", "Skill", "Task", "TaskOutput", "TodoWrite", "WebFetch", "WebSearch",
];
const CLAUDE_CODE_TOOL_BY_LOWER = new Map(CLAUDE_CODE_TOOLS.map((name) => [name.toLowerCase(), name]));

export function isOAuthToken(apiKey: string): boolean {
  return apiKey.includes("sk-ant-oat");
}

function toClaudeCodeName(name: string): string {
  return CLAUDE_CODE_TOOL_BY_LOWER.get(name.toLowerCase()) ?? name;
}

function fromClaudeCodeName(name: string, tools: readonly ToolSpec[] | undefined): string {
  const lower = name.toLowerCase();
  return tools?.find((tool) => tool.name.toLowerCase() === lower)?.name ?? name;
}

// ── wire types ──────────────────────────────────────────────────────────────

export interface CacheControl {
  type: "ephemeral";
  ttl?: "1h";
}

type ImageSource = { type: "base64"; media_type: string; data?: string } | { type: "url"; url: string };

export type AnthropicContentBlock =
  | { type: "text"; text: string; cache_control?: CacheControl }
  | { type: "image"; source: ImageSource; cache_control?: CacheControl }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string | undefined }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | {
      type: "tool_result";
      tool_use_id: string;
      content: string | AnthropicContentBlock[];
      is_error: boolean;
      cache_control?: CacheControl;
    };

export interface AnthropicMessageParam {
  role: "user" | "assistant";
  content: string | AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description: string;
  eager_input_streaming?: true;
  input_schema: { type: "object"; properties: unknown; required: unknown };
  cache_control?: CacheControl;
}

export interface AnthropicRequestBody {
  model: string;
  messages: AnthropicMessageParam[];
  max_tokens: number;
  stream: true;
  system?: { type: "text"; text: string; cache_control?: CacheControl }[];
  temperature?: number;
  tools?: AnthropicTool[];
  thinking?:
    | { type: "enabled"; budget_tokens: number; display: string }
    | { type: "adaptive"; display: string }
    | { type: "disabled" };
  output_config?: { effort: string };
}

export interface AnthropicRequest {
  url: string;
  headers: Record<string, string>;
  body: AnthropicRequestBody;
}

// ── message conversion ──────────────────────────────────────────────────────

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Drops unpaired UTF-16 surrogates (they make the request body invalid). */
export function stripLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATES, "");
}

/** Anthropic ids match ^[a-zA-Z0-9_-]{1,64}$: other characters become "_", the rest is cut at 64. */
export function normalizeAnthropicToolCallId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

const USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)";
const TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)";
const IMAGE_ONLY_TOOL_RESULT_TEXT = "(see attached image)";

/** For a model without image input: each run of images becomes one placeholder text. */
function withoutImages(content: (LlmText | LlmImage)[], placeholder: string): (LlmText | LlmImage)[] {
  const out: (LlmText | LlmImage)[] = [];
  let afterPlaceholder = false;
  for (const block of content) {
    if (block.type === "image") {
      if (!afterPlaceholder) out.push({ type: "text", text: placeholder });
      afterPlaceholder = true;
    } else {
      out.push(block);
      afterPlaceholder = block.text === placeholder;
    }
  }
  return out;
}

/**
 * Upstream's provider-independent preparation: images replaced for text-only models; assistant
 * messages of another model lose what only that model can read (thinking becomes text,
 * redacted thinking and signatures go, tool-call ids are normalized, results follow); failed and
 * aborted assistant messages are left out; a tool call left without a result gets an error
 * result "No result provided" before the next assistant or user message (or at the end).
 */
export function prepareMessages(messages: readonly LlmMessage[], model: Model): LlmMessage[] {
  const vision = model.input.includes("image");
  const renamed = new Map<string, string>();
  const transformed: LlmMessage[] = messages.map((message): LlmMessage => {
    if (message.role === "user") {
      if (vision || typeof message.content === "string") return message;
      return { ...message, content: withoutImages(message.content, USER_IMAGE_PLACEHOLDER) };
    }
    if (message.role === "toolResult") {
      const content = vision ? message.content : withoutImages(message.content, TOOL_IMAGE_PLACEHOLDER);
      const id = renamed.get(message.toolCallId);
      if (id !== undefined && id !== message.toolCallId) return { ...message, toolCallId: id, content };
      return content === message.content ? message : { ...message, content };
    }
    const same = message.provider === model.provider && message.api === model.api && message.model === model.id;
    const content = message.content.flatMap((block): (LlmText | LlmThinking | LlmToolCall)[] => {
      if (block.type === "thinking") {
        if (block.redacted) return same ? [block] : [];
        if (same && block.thinkingSignature) return [block];
        if (!block.thinking || block.thinking.trim() === "") return [];
        return same ? [block] : [{ type: "text", text: block.thinking }];
      }
      if (block.type === "text") return same ? [block] : [{ type: "text", text: block.text }];
      if (same) return [block];
      const { thoughtSignature: _dropped, ...call } = block;
      const id = normalizeAnthropicToolCallId(block.id);
      if (id !== block.id) renamed.set(block.id, id);
      return [{ ...call, id }];
    });
    return { ...message, content };
  });

  return closeToolCalls(transformed);
}

function imageBlock(image: LlmImage): AnthropicContentBlock {
  if (image.data === undefined && image.url !== undefined) return { type: "image", source: { type: "url", url: image.url } };
  return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}

/** A tool result's content: the texts joined by "\n", or blocks when there are images. */
function toolResultContent(content: (LlmText | LlmImage)[]): string | AnthropicContentBlock[] {
  if (!content.some((block) => block.type === "image")) {
    return stripLoneSurrogates(content.map((block) => (block as LlmText).text).join("\n"));
  }
  const blocks = content.map((block): AnthropicContentBlock =>
    block.type === "text" ? { type: "text", text: stripLoneSurrogates(block.text) } : imageBlock(block),
  );
  if (!blocks.some((block) => block.type === "text")) blocks.unshift({ type: "text", text: IMAGE_ONLY_TOOL_RESULT_TEXT });
  return blocks;
}

/**
 * The `messages` array: empty texts (and messages left empty) skipped, thinking replayed with
 * its signature (without one as plain text; redacted as `redacted_thinking`), consecutive tool
 * results merged into one user message, and the last block of a final user message marked for
 * caching.
 */
export function convertAnthropicMessages(
  messages: readonly LlmMessage[],
  model: Model,
  opts: { cacheControl?: CacheControl; oauth?: boolean } = {},
): AnthropicMessageParam[] {
  const prepared = prepareMessages(messages, model);
  const out: AnthropicMessageParam[] = [];
  for (let i = 0; i < prepared.length; i++) {
    const message = prepared[i]!;
    if (message.role === "user") {
      if (typeof message.content === "string") {
        if (message.content.trim().length > 0) out.push({ role: "user", content: stripLoneSurrogates(message.content) });
        continue;
      }
      const blocks = message.content
        .map((block): AnthropicContentBlock =>
          block.type === "text" ? { type: "text", text: stripLoneSurrogates(block.text) } : imageBlock(block),
        )
        .filter((block) => block.type !== "text" || block.text.trim().length > 0);
      if (blocks.length > 0) out.push({ role: "user", content: blocks });
    } else if (message.role === "assistant") {
      const blocks: AnthropicContentBlock[] = [];
      for (const block of message.content) {
        if (block.type === "text") {
          if (block.text.trim().length === 0) continue;
          blocks.push({ type: "text", text: stripLoneSurrogates(block.text) });
        } else if (block.type === "thinking") {
          if (block.redacted) {
            blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
          } else if (block.thinking.trim().length === 0) {
            continue;
          } else if (!block.thinkingSignature || block.thinkingSignature.trim().length === 0) {
            blocks.push({ type: "text", text: stripLoneSurrogates(block.thinking) });
          } else {
            blocks.push({ type: "thinking", thinking: stripLoneSurrogates(block.thinking), signature: block.thinkingSignature });
          }
        } else if (block.type === "toolCall") {
          blocks.push({
            type: "tool_use",
            id: block.id,
            name: opts.oauth ? toClaudeCodeName(block.name) : block.name,
            input: block.arguments ?? {},
          });
        }
      }
      if (blocks.length > 0) out.push({ role: "assistant", content: blocks });
    } else {
      const results: AnthropicContentBlock[] = [];
      let j = i;
      for (; j < prepared.length; j++) {
        const result = prepared[j]!;
        if (result.role !== "toolResult") break;
        results.push({
          type: "tool_result",
          tool_use_id: result.toolCallId,
          content: toolResultContent(result.content),
          is_error: result.isError,
        });
      }
      i = j - 1;
      out.push({ role: "user", content: results });
    }
  }

  const last = out[out.length - 1];
  if (opts.cacheControl && last?.role === "user") {
    if (typeof last.content === "string") {
      last.content = [{ type: "text", text: last.content, cache_control: opts.cacheControl }];
    } else {
      const block = last.content[last.content.length - 1];
      if (block && (block.type === "text" || block.type === "image" || block.type === "tool_result")) {
        block.cache_control = opts.cacheControl;
      }
    }
  }
  return out;
}

/** Tools: name, description, eager input streaming, and a schema of `type/properties/required`. */
export function convertAnthropicTools(
  tools: readonly ToolSpec[],
  opts: { eagerInputStreaming?: boolean; cacheControl?: CacheControl; oauth?: boolean } = {},
): AnthropicTool[] {
  return tools.map((tool, index) => {
    const converted: AnthropicTool = {
      name: opts.oauth ? toClaudeCodeName(tool.name) : tool.name,
      description: tool.description,
      ...(opts.eagerInputStreaming ? { eager_input_streaming: true as const } : {}),
      input_schema: {
        type: "object",
        properties: tool.parameters.properties ?? {},
        required: tool.parameters.required ?? [],
      },
    };
    if (opts.cacheControl && index === tools.length - 1) converted.cache_control = opts.cacheControl;
    return converted;
  });
}

// ── request ─────────────────────────────────────────────────────────────────

function cacheControlFor(model: Model, retention: CacheRetention | undefined): CacheControl | undefined {
  const chosen = retention ?? (process.env.PI_CACHE_RETENTION === "long" ? "long" : "short");
  if (chosen === "none") return undefined;
  const long = chosen === "long" && model.compat?.supportsLongCacheRetention !== false;
  return long ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) delete headers[key];
  headers[lower] = value;
}

/** The request upstream sends for `context` (pure apart from PI_CACHE_RETENTION). */
export function buildAnthropicRequest(model: Model, context: LlmContext, options: AnthropicStreamOptions): AnthropicRequest {
  const apiKey = options.apiKey ?? "";
  const oauth = isOAuthToken(apiKey);
  const cacheControl = cacheControlFor(model, options.cacheRetention);
  const eager = model.compat?.supportsEagerToolInputStreaming !== false;
  const hasTools = (context.tools?.length ?? 0) > 0;
  const level = options.reasoning && options.reasoning !== "off" ? options.reasoning : undefined;
  const adaptive = supportsAdaptiveThinking(model.id);
  const display = options.thinkingDisplay ?? "summarized";

  const base = options.maxTokens ?? defaultMaxTokens(model);
  let maxTokens = base;
  let budgetTokens: number | undefined;
  if (level && !adaptive) {
    const adjusted = anthropicThinkingBudget(base ?? 0, model.maxTokens, level, options.thinkingBudgets);
    maxTokens = adjusted.maxTokens;
    budgetTokens = adjusted.budgetTokens;
  }

  const body: AnthropicRequestBody = {
    model: model.id,
    messages: convertAnthropicMessages(context.messages, model, { cacheControl, oauth }),
    max_tokens: maxTokens || Math.trunc(model.maxTokens / 3),
    stream: true,
  };
  const system: NonNullable<AnthropicRequestBody["system"]> = [];
  const withCache = <T extends object>(block: T): T => (cacheControl ? { ...block, cache_control: cacheControl } : block);
  if (oauth) system.push(withCache({ type: "text" as const, text: CLAUDE_CODE_IDENTITY }));
  if (context.systemPrompt) system.push(withCache({ type: "text" as const, text: stripLoneSurrogates(context.systemPrompt) }));
  if (system.length > 0) body.system = system;
  if (options.temperature !== undefined && !level) body.temperature = options.temperature;
  if (hasTools) body.tools = convertAnthropicTools(context.tools!, { eagerInputStreaming: eager, cacheControl, oauth });
  if (model.reasoning) {
    if (!level) body.thinking = { type: "disabled" };
    else if (adaptive) {
      body.thinking = { type: "adaptive", display };
      body.output_config = { effort: adaptiveEffort(model, level) };
    } else {
      body.thinking = { type: "enabled", budget_tokens: budgetTokens || 1024, display };
    }
  }

  const betas: string[] = [];
  if (hasTools && !eager) betas.push(FINE_GRAINED_TOOL_STREAMING_BETA);
  if ((options.interleavedThinking ?? true) && !adaptive) betas.push(INTERLEAVED_THINKING_BETA);

  const headers: Record<string, string> = {};
  if (oauth) setHeader(headers, "authorization", `Bearer ${apiKey}`);
  else setHeader(headers, "x-api-key", apiKey);
  setHeader(headers, "anthropic-version", ANTHROPIC_VERSION);
  setHeader(headers, "accept", "application/json");
  setHeader(headers, "anthropic-dangerous-direct-browser-access", "true");
  if (oauth) {
    setHeader(headers, "anthropic-beta", ["claude-code-20250219", "oauth-2025-04-20", ...betas].join(","));
    setHeader(headers, "user-agent", `claude-cli/${CLAUDE_CODE_VERSION}`);
    setHeader(headers, "x-app", "cli");
  } else if (betas.length > 0) {
    setHeader(headers, "anthropic-beta", betas.join(","));
  }
  for (const extra of [model.headers, options.headers]) {
    for (const [name, value] of Object.entries(extra ?? {})) setHeader(headers, name, value);
  }
  setHeader(headers, "content-type", "application/json");

  const baseUrl = (model.baseUrl || DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, "");
  return { url: `${baseUrl}/v1/messages`, headers, body };
}

// ── errors ──────────────────────────────────────────────────────────────────

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : JSON.stringify(error);
}

/** The server's requested wait, from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** `<status> <message>` as the Anthropic SDK words an HTTP error: a JSON body is re-serialized whole. */
export function httpErrorMessage(status: number, bodyText: string): string {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  let message: string;
  if (json) {
    const inner = (json as { message?: unknown }).message;
    message = inner ? (typeof inner === "string" ? inner : JSON.stringify(inner)) : JSON.stringify(json);
  } else {
    message = bodyText;
  }
  return message ? `${status} ${message}` : `${status} status code (no body)`;
}

function formatSeconds(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
}

/** A failure with the extra fields the final `error` event carries. */
class StreamFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly retryDelayTooLong?: boolean,
  ) {
    super(message);
  }
}

// ── streaming ───────────────────────────────────────────────────────────────

const MESSAGE_EVENTS = new Set([
  "message_start",
  "message_delta",
  "message_stop",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
]);

/** Upstream's stop reasons; an unknown one fails the answer. */
export function mapStopReason(reason: string): StopReason {
  switch (reason) {
    case "end_turn":
    case "pause_turn":
    case "stop_sequence":
      return "stop";
    case "max_tokens":
      return "length";
    case "tool_use":
      return "toolUse";
    case "refusal":
    case "sensitive":
      return "error";
    default:
      throw new Error(`Unhandled stop reason: ${reason}`);
  }
}

/**
 * JSON that may carry raw control characters or stray backslashes inside strings (seen from
 * some proxies): parsed as is, else after escaping those.
 */
function parseLenientJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const repaired = repairJsonStrings(text);
    if (repaired === text) throw error;
    return JSON.parse(repaired);
  }
}

function repairJsonStrings(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!inString) {
      out += c;
      if (c === '"') inString = true;
      continue;
    }
    if (c === '"') {
      out += c;
      inString = false;
    } else if (c === "\\") {
      const next = text[i + 1];
      if (next !== undefined && next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += text.slice(i, i + 6);
        i += 5;
      } else if (next !== undefined && '"\\/bfnrt'.includes(next)) {
        out += c + next;
        i++;
      } else {
        out += "\\\\";
      }
    } else {
      const code = c.charCodeAt(0);
      if (code < 0x20) {
        const named: Record<string, string> = { "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
        out += named[c] ?? `\\u${code.toString(16).padStart(4, "0")}`;
      } else {
        out += c;
      }
    }
  }
  return out;
}

/** Final tool arguments: the whole JSON when complete (repaired if need be), else what parses. */
function parseToolArguments(json: string): Record<string, unknown> {
  if (json.trim() === "") return {};
  try {
    const value = parseLenientJson(json);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // incomplete: fall through
  }
  return parsePartialJson(json);
}

/** A block while it streams: upstream keeps the event index (and tool JSON) on it until it ends. */
type StreamingBlock = (LlmText | LlmThinking | LlmToolCall) & { index?: number; partialJson?: string };

interface ContentBlockEvent {
  type: string;
  index?: number;
  content_block?: { type?: string; id?: string; name?: string; input?: Record<string, unknown>; data?: string };
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; signature?: string; stop_reason?: string | null };
  message?: { id?: string; usage?: AnthropicUsage };
  usage?: AnthropicUsage;
}

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

function updateTotals(model: Model, output: AssistantMessage): void {
  const u = output.usage;
  u.totalTokens = u.input + u.output + u.cacheRead + u.cacheWrite;
  applyCost(model, u);
}

/**
 * Streams the answer. Events carry `output` itself as `partial` (upstream does the same; take a
 * copy to keep a snapshot). Exactly one `done` or `error` ends the stream; nothing throws.
 */
export const streamAnthropicMessages: StreamFunction = (model, context, options) =>
  streamMessages(model, context, options as AnthropicStreamOptions);

async function* streamMessages(
  model: Model,
  context: LlmContext,
  options: AnthropicStreamOptions,
): AsyncGenerator<AssistantMessageEvent> {
  const output = newAssistantMessage(model);
  const blocks = output.content as StreamingBlock[];
  const userSignal = options.signal;
  const controller = new AbortController();
  const onAbort = () => controller.abort(userSignal?.reason);
  userSignal?.addEventListener("abort", onAbort, { once: true });
  let events: AsyncGenerator<SseEvent> | undefined;
  try {
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    if (!options.apiKey) throw new Error(`No API key for provider: ${model.provider}`);
    const request = buildAnthropicRequest(model, context, options);
    const oauth = isOAuthToken(options.apiKey);

    let timedOut = false;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: "POST",
        headers: request.headers,
        body: JSON.stringify(request.body),
        signal: controller.signal,
      });
    } catch (error) {
      if (userSignal?.aborted) throw error;
      throw new Error(timedOut ? "Request timed out." : "Connection error.", { cause: error });
    } finally {
      clearTimeout(timer);
    }

    if (!response.ok) {
      const text = await response.text().catch((error: unknown) => errorText(error));
      let message = httpErrorMessage(response.status, text);
      const wait = retryAfterMs(response.headers);
      const cap = options.maxRetryDelayMs ?? 0;
      const retryable = response.status === 429 || response.status >= 500;
      const tooLong = retryable && wait !== undefined && cap > 0 && wait > cap;
      if (tooLong) message = `Server requested ${formatSeconds(wait)} retry delay (max: ${formatSeconds(cap)}). ${message}`;
      throw new StreamFailure(message, wait, tooLong || undefined);
    }
    if (!response.body) throw new Error("Attempted to iterate over an Anthropic response with no body");

    yield { type: "start", partial: output };

    let sawStart = false;
    let sawStop = false;
    events = iterateSse(response.body);
    for (;;) {
      let next: IteratorResult<SseEvent>;
      try {
        next = await events.next();
      } catch (error) {
        // undici's wording for a connection lost mid-body, which upstream reports as is.
        if (userSignal?.aborted) throw error;
        throw new Error("terminated", { cause: error });
      }
      if (next.done) break;
      const sse = next.value;
      if (sse.event === "error") throw new Error(sse.data);
      if (!MESSAGE_EVENTS.has(sse.event ?? "")) continue;
      let event: ContentBlockEvent;
      try {
        event = parseLenientJson(sse.data) as ContentBlockEvent;
      } catch (error) {
        throw new Error(
          `Could not parse Anthropic SSE event ${sse.event}: ${errorText(error)}; data=${sse.data}; raw=${sse.raw.join("\\n")}`,
        );
      }

      switch (event.type) {
        case "message_start": {
          sawStart = true;
          if (event.message?.id !== undefined) output.responseId = event.message.id;
          const usage = event.message?.usage;
          output.usage.input = usage?.input_tokens || 0;
          output.usage.output = usage?.output_tokens || 0;
          output.usage.cacheRead = usage?.cache_read_input_tokens || 0;
          output.usage.cacheWrite = usage?.cache_creation_input_tokens || 0;
          updateTotals(model, output);
          break;
        }
        case "message_stop":
          sawStop = true;
          break;
        case "content_block_start": {
          const block = event.content_block;
          let created: StreamingBlock;
          let type: "text_start" | "thinking_start" | "toolcall_start";
          if (block?.type === "text") {
            created = { type: "text", text: "", index: event.index };
            type = "text_start";
          } else if (block?.type === "thinking") {
            created = { type: "thinking", thinking: "", thinkingSignature: "", index: event.index };
            type = "thinking_start";
          } else if (block?.type === "redacted_thinking") {
            created = {
              type: "thinking",
              thinking: "[Reasoning redacted]",
              thinkingSignature: block.data,
              redacted: true,
              index: event.index,
            };
            type = "thinking_start";
          } else if (block?.type === "tool_use") {
            const name = block.name ?? "";
            created = {
              type: "toolCall",
              id: block.id ?? "",
              name: oauth ? fromClaudeCodeName(name, context.tools) : name,
              arguments: block.input ?? {},
              partialJson: "",
              index: event.index,
            };
            type = "toolcall_start";
          } else {
            break; // server tools, citations … are not part of Pi's message
          }
          blocks.push(created);
          yield { type, contentIndex: blocks.length - 1, partial: output };
          break;
        }
        case "content_block_delta": {
          const at = blocks.findIndex((b) => b.index === event.index);
          const block = blocks[at];
          const delta = event.delta;
          if (!block || !delta) break;
          if (delta.type === "text_delta" && block.type === "text") {
            const text = delta.text ?? "";
            block.text += text;
            yield { type: "text_delta", contentIndex: at, delta: text, partial: output };
          } else if (delta.type === "thinking_delta" && block.type === "thinking") {
            const text = delta.thinking ?? "";
            block.thinking += text;
            yield { type: "thinking_delta", contentIndex: at, delta: text, partial: output };
          } else if (delta.type === "input_json_delta" && block.type === "toolCall") {
            const json = delta.partial_json ?? "";
            block.partialJson = (block.partialJson ?? "") + json;
            block.arguments = parsePartialJson(block.partialJson);
            yield { type: "toolcall_delta", contentIndex: at, delta: json, partial: output };
          } else if (delta.type === "signature_delta" && block.type === "thinking") {
            block.thinkingSignature = (block.thinkingSignature || "") + (delta.signature ?? "");
          }
          break;
        }
        case "content_block_stop": {
          const at = blocks.findIndex((b) => b.index === event.index);
          const block = blocks[at];
          if (!block) break;
          delete block.index;
          if (block.type === "text") {
            yield { type: "text_end", contentIndex: at, content: block.text, partial: output };
          } else if (block.type === "thinking") {
            yield { type: "thinking_end", contentIndex: at, content: block.thinking, partial: output };
          } else {
            // Arguments sent whole at the start (no deltas) stay as they are.
            if (block.partialJson) block.arguments = parseToolArguments(block.partialJson);
            delete block.partialJson;
            yield { type: "toolcall_end", contentIndex: at, toolCall: block, partial: output };
          }
          break;
        }
        case "message_delta": {
          const reason = event.delta?.stop_reason;
          if (reason) output.stopReason = mapStopReason(reason);
          const usage = event.usage;
          if (usage?.input_tokens != null) output.usage.input = usage.input_tokens;
          if (usage?.output_tokens != null) output.usage.output = usage.output_tokens;
          if (usage?.cache_read_input_tokens != null) output.usage.cacheRead = usage.cache_read_input_tokens;
          if (usage?.cache_creation_input_tokens != null) output.usage.cacheWrite = usage.cache_creation_input_tokens;
          updateTotals(model, output);
          break;
        }
      }
    }
    if (sawStart && !sawStop) throw new Error("Anthropic stream ended before message_stop");
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    if (output.stopReason === "error" || output.stopReason === "aborted") throw new Error("An unknown error occurred");
    yield { type: "done", reason: output.stopReason, message: output };
  } catch (error) {
    for (const block of blocks) {
      delete block.index;
      delete block.partialJson;
    }
    const aborted = userSignal?.aborted === true;
    output.stopReason = aborted ? "aborted" : "error";
    output.errorMessage = aborted ? ABORTED_MESSAGE : errorText(error);
    const failure = error instanceof StreamFailure ? error : undefined;
    yield {
      type: "error",
      reason: aborted ? "aborted" : "error",
      error: output,
      ...(failure?.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
      ...(failure?.retryDelayTooLong ? { retryDelayTooLong: true } : {}),
    };
  } finally {
    userSignal?.removeEventListener("abort", onAbort);
    if (events) await events.return(undefined).catch(() => {});
    controller.abort();
  }
}
