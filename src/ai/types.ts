/**
 * The provider layer's contract: models, the context sent to a model, and the events a
 * streaming answer produces. Every API implementation (`providers/<api>.ts`) turns a `LlmContext`
 * into one HTTP request and its stream into `AssistantMessageEvent`s, and never throws: failures
 * end the stream with an `error` event carrying a complete assistant message.
 */
import type {
  LlmAssistantMessage,
  LlmImage,
  LlmMessage,
  LlmText,
  LlmThinking,
  LlmToolCall,
  ThinkingLevel,
  Usage,
} from "./message-types.ts";

export type { LlmAssistantMessage, LlmImage, LlmMessage, LlmText, LlmThinking, LlmToolCall, ThinkingLevel, Usage };

export const APIS = [
  "openai-completions",
  "openai-responses",
  "anthropic-messages",
  "google-generative-ai",
  "google-vertex",
  "openai-codex-responses",
  "bedrock-converse-stream",
  "mistral-conversations",
  "pi-messages",
  "azure-openai-responses",
] as const;
export type Api = (typeof APIS)[number];
/** The name of an API an extension implements: any string besides pig's own. */
export type ExtensionApi = string & { readonly extensionApi?: never };

/** Prices in dollars per million tokens. */
export interface ModelCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * Per-level reasoning values: a string is sent as the API's effort value, `null` marks the level
 * unsupported, a missing key means supported with the provider's default mapping.
 */
export type ThinkingLevelMap = Partial<Record<ThinkingLevel, string | null>>;

/** Quirks of OpenAI-compatible servers (a subset of upstream's `compat` keys). */
export interface OpenAICompat {
  supportsStore?: boolean;
  supportsDeveloperRole?: boolean;
  supportsReasoningEffort?: boolean;
  supportsUsageInStreaming?: boolean;
  maxTokensField?: "max_completion_tokens" | "max_tokens";
  requiresToolResultName?: boolean;
  requiresAssistantAfterToolResult?: boolean;
  requiresThinkingAsText?: boolean;
  requiresReasoningContentOnAssistantMessages?: boolean;
  thinkingFormat?: "openai" | "openrouter" | "deepseek" | "zai" | "qwen" | "qwen-chat-template" | "chat-template" | "baseten" | "ant-ling" | "together" | "string-thinking";
  supportsStrictMode?: boolean;
  /** openai-responses: send `session_id` / `x-client-request-id` headers. */
  sendSessionIdHeader?: boolean;
  /** anthropic-messages: mark tools for eager input streaming. */
  supportsEagerToolInputStreaming?: boolean;
  supportsLongCacheRetention?: boolean;
  /** openai-completions through OpenRouter: its provider routing preferences, sent as `provider`. */
  openRouterRouting?: Record<string, unknown>;
  /** openai-completions through the Vercel AI Gateway: `{only, order}`, sent as `providerOptions.gateway`. */
  vercelGatewayRouting?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface Model {
  id: string;
  name: string;
  /** One of pig's APIs, or one an extension serves (`registerProvider` with `streamSimple`). */
  api: Api | ExtensionApi;
  provider: string;
  baseUrl: string;
  reasoning: boolean;
  thinkingLevelMap?: ThinkingLevelMap;
  input: ("text" | "image")[];
  cost: ModelCost;
  contextWindow: number;
  maxTokens: number;
  headers?: Record<string, string>;
  compat?: OpenAICompat;
  /** Prompt-cache lifetimes in seconds the provider offers (`short`, `long`), where the catalogue says. */
  promptCache?: Record<string, number>;
  /** Request and image limits the provider enforces, as the catalogue states them. */
  inputLimits?: Record<string, unknown>;
}

/** JSON Schema of a tool's parameters, as sent to the model. */
export type JsonSchema = { [key: string]: unknown };

export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** Upstream's `constrainedSampling`: JSON-schema constrained (strict) sampling, where an API offers it. */
  constrainedSampling?: ConstrainedSampling;
}

/** `prefer`: strict when the schema allows it; `require`: fail the request otherwise. */
export interface ConstrainedSampling {
  type: string;
  strict?: string;
}

/**
 * The transcript's system messages replayed into one (Pi ≥ 0.87): the prompt sections and tool
 * declarations in force, as the session stores them. APIs that send Pi's own transcript take it.
 */
export interface LlmSystemMessage {
  role: "system";
  content: string | LlmText[];
  sections?: Record<string, string | null>;
  toolsAdded?: { name: string; description: string; parameters: Record<string, unknown>; [key: string]: unknown }[];
  timestamp: number;
}

export interface LlmContext {
  systemPrompt: string;
  messages: LlmMessage[];
  tools?: ToolSpec[];
  /** The prompt and tools as a system message, when they come from the transcript (not an extension's prompt). */
  system?: LlmSystemMessage;
  /**
   * Estimated tokens of the prompt and tool declarations added since the latest answer (a patch
   * written before this prompt): the usage that answer reported does not include them.
   */
  promptTokensSinceAnswer?: number;
}

export interface StreamOptions {
  apiKey: string;
  /** Extra request headers (model, provider and per-request headers merged). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The thinking level to request; undefined or "off" means no reasoning. Already clamped. */
  reasoning?: ThinkingLevel;
  /** Output token cap; defaults to the model's `maxTokens`. */
  maxTokens?: number;
  temperature?: number;
  /** Values the credential carries for its provider (auth.json `env`, e.g. a Cloudflare account id); they win over the process environment. */
  credentialEnv?: Record<string, string>;
  /** The session id, for prompt caching and session headers. */
  sessionId?: string;
  /** Retries inside the HTTP client (upstream `retry.provider.maxRetries`); pig's default is 0. */
  maxRetries?: number;
  /** Request timeout in ms (upstream `retry.provider.timeoutMs`). */
  timeoutMs?: number;
  /** Fail at once when the server asks to wait longer than this (ms; 0 = no cap). */
  maxRetryDelayMs?: number;
  /**
   * Fail the attempt when the server sends nothing (no headers, no body byte) for this long
   * (ms; 0 or absent = no limit; setting `retry.provider.idleTimeoutMs`).
   */
  idleTimeoutMs?: number;
  /** Token budgets per thinking level, for APIs that take a budget (setting `thinkingBudgets`). */
  thinkingBudgets?: ThinkingBudgets;
  /**
   * Called with the request body right before it is sent; a value other than undefined is sent
   * instead (upstream's `before_provider_request`).
   */
  onPayload?: (payload: unknown) => Promise<unknown>;
  /**
   * Called with the request headers pig assembled, credentials shown as `[redacted]`
   * (ai/credential-headers.ts), before the HTTP call; the changes it returns are applied: a
   * string sets a header, `null` removes it, the marker given back keeps the real value
   * (upstream's `before_provider_headers`).
   */
  onHeaders?: (headers: Record<string, string>) => Promise<Record<string, string | null> | undefined>;
  /** Called once the HTTP response has arrived, before its body is read (`after_provider_response`). */
  onResponse?: (response: { status: number; headers: Record<string, string> }) => void | Promise<void>;
  /** Called with each event of the answer's stream as it is read, before pig reads it (`provider_stream_event`; ai/stream-observer.ts). */
  onStreamEvent?: (data: unknown) => void | Promise<void>;
}

export type BudgetLevel = "minimal" | "low" | "medium" | "high";
export type ThinkingBudgets = Partial<Record<BudgetLevel, number>>;

/** `pending`: an answer still streaming (its partial message); no finished answer has it. */
export type StopReason = "pending" | "stop" | "length" | "toolUse" | "error" | "aborted";

/** A tool call whose arguments did not arrive as valid JSON. */
export interface InvalidArguments {
  contentIndex: number;
  text: string;
}

/** An assistant message as it is being streamed: the session's assistant message shape. */
export type AssistantMessage = LlmAssistantMessage;

export type AssistantMessageEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_end"; contentIndex: number; toolCall: LlmToolCall; partial: AssistantMessage }
  | {
      type: "done";
      reason: "stop" | "length" | "toolUse";
      message: AssistantMessage;
      /**
       * Tool calls whose argument text was not a whole JSON object (cut off, malformed), by their
       * index in `message.content`, with the text as received. They are answered with an error
       * instead of being run. Not persisted.
       */
      invalidArguments?: InvalidArguments[];
    }
  | {
      type: "error";
      reason: "error" | "aborted";
      error: AssistantMessage;
      /** How long the server asked to wait before retrying (from retry-after), when it said. Not persisted. */
      retryAfterMs?: number;
      /** Set when that wait exceeds the configured maximum: retrying would not help. */
      retryDelayTooLong?: boolean;
    };

/**
 * One provider API: streams the answer to `context`. The iterable always ends with exactly one
 * `done` or `error` event; it never throws (HTTP errors, disconnects and aborts become `error`).
 */
export type StreamFunction = (model: Model, context: LlmContext, options: StreamOptions) => AsyncIterable<AssistantMessageEvent>;

export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** Fills `usage.cost` from the model's prices (dollars per million tokens). */
export function applyCost(model: Model, usage: Usage): Usage {
  usage.cost.input = (model.cost.input / 1_000_000) * usage.input;
  usage.cost.output = (model.cost.output / 1_000_000) * usage.output;
  usage.cost.cacheRead = (model.cost.cacheRead / 1_000_000) * usage.cacheRead;
  usage.cost.cacheWrite = (model.cost.cacheWrite / 1_000_000) * usage.cacheWrite;
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
  return usage;
}

/** A fresh assistant message for `model`, as the first `start` event carries it. */
export function newAssistantMessage(model: Model): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
}

/** The `done` event that ends a stream; `invalidArguments` is there only when a call has some. */
export function doneEvent(
  reason: "stop" | "length" | "toolUse",
  message: AssistantMessage,
  invalidArguments: InvalidArguments[],
): AssistantMessageEvent {
  return { type: "done", reason, message, ...(invalidArguments.length > 0 ? { invalidArguments } : {}) };
}
