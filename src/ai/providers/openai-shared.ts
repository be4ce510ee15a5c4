/**
 * What the two OpenAI APIs (Chat Completions and Responses) share: per-server compatibility
 * defaults, the message pre-pass (cross-model replay, dropped failed turns, synthetic tool
 * results) and the merging of request headers. Both are sent over plain fetch as the OpenAI SDK
 * sends them (openai-fetch.ts).
 */
import type { LlmMessage, LlmToolCall } from "../types.ts";
import type { AssistantMessage, Model, OpenAICompat } from "../types.ts";
import { closeToolCalls } from "../transform.ts";
import { beginsWithSame } from "../../util/same-start.ts";

/** A request as built, before the client adds Authorization, content type and the SDK's own headers. */
export interface OpenAIRequest {
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

// ── compatibility ───────────────────────────────────────────────────────────

/** Every compat key this layer reads, resolved (model.compat over `detectCompat`). */
export interface ResolvedCompat {
  supportsStore: boolean;
  supportsDeveloperRole: boolean;
  supportsReasoningEffort: boolean;
  supportsUsageInStreaming: boolean;
  maxTokensField: "max_completion_tokens" | "max_tokens";
  requiresToolResultName: boolean;
  requiresAssistantAfterToolResult: boolean;
  requiresThinkingAsText: boolean;
  requiresReasoningContentOnAssistantMessages: boolean;
  /** Mistral: tool call ids of exactly 9 characters [a-zA-Z0-9]. */
  requiresMistralToolIds: boolean;
  thinkingFormat: NonNullable<OpenAICompat["thinkingFormat"]>;
  supportsStrictMode: boolean;
  /** openai-responses: send `session_id` (`x-client-request-id` is always sent with a session id). */
  sendSessionIdHeader: boolean;
  /** openai-completions: send `session_id` / `x-client-request-id` / `x-session-affinity`. */
  sendSessionAffinityHeaders: boolean;
  /** openai-completions: mark prompt-cache breakpoints Anthropic-style (`cache_control`), e.g. Claude via OpenRouter. */
  cacheControlFormat: "anthropic" | undefined;
  /** openai-completions: OpenRouter's one `x-session-id`, or OpenAI's `session_id` beside the other two. */
  sessionAffinityFormat: "openrouter" | "openai";
  /** openai-completions: Z.AI streams tool arguments when asked (`tool_stream: true`). */
  zaiToolStream: boolean;
  /** The template values of the `chat-template` and `baseten` thinking formats. */
  chatTemplateKwargs: Record<string, unknown>;
  chatTemplateArgs: Record<string, unknown>;
  /** A reasoning token cap, as `thinking_token_budget` or the field named here. */
  supportsThinkingTokenBudget: boolean;
  thinkingTokenBudgetField: string | undefined;
  supportsLongCacheRetention: boolean;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host.toLowerCase();
  } catch {
    return baseUrl.toLowerCase();
  }
}

/**
 * Default compat flags for a model, recognised by provider name or base URL (host, or the default
 * port of a local server). Anything not recognised gets OpenAI's own behaviour, which is also what
 * upstream Pi does (its fixtures talk to a 127.0.0.1 server and get `store:false`,
 * `max_completion_tokens` and the `developer` role).
 *
 * | server (provider / base URL)                          | differences from OpenAI |
 * |-------------------------------------------------------|--------------------------|
 * | OpenAI (`openai`, api.openai.com)                      | none |
 * | OpenRouter (`openrouter`, openrouter.ai)               | reasoning as `reasoning: {effort}` (`thinkingFormat: "openrouter"`); `anthropic/*` models get `cache_control` breakpoints; the developer role only for `anthropic/*` and `openai/*`; the session in `x-session-id` |
 * | Groq (`groq`, api.groq.com)                            | none (as upstream) |
 * | Cerebras (`cerebras`, cerebras.ai)                     | no `store`, no developer role |
 * | xAI (`xai`, api.x.ai)                                  | no `store`, no developer role, no `reasoning_effort` |
 * | Mistral (`mistral`, mistral.ai)                        | `max_tokens`, no `store`, no developer role, tool results carry `name`, thinking replayed as text, 9-character tool ids |
 * | DeepSeek (`deepseek`, deepseek.com)                    | `max_tokens`, no `store`, no developer role, `thinking: {type}` (+ `reasoning_effort`), `reasoning_content` on every assistant message |
 * | Z.ai (`zai`, `zai-coding-cn`, api.z.ai, open.bigmodel.cn) | `max_tokens`, no `store`, no developer role, `thinking: {type}` instead of `reasoning_effort` |
 * | Together (`together`, api.together.ai/.xyz)            | `max_tokens`, no `store`, no developer role, `reasoning: {enabled}`, no long cache retention |
 * | NVIDIA (`nvidia`), Cloudflare AI Gateway (`cloudflare-ai-gateway`), Ant Ling (`ant-ling`) | `max_tokens`, no `store`, no developer role, no `reasoning_effort` (Ant Ling: `reasoning: {effort}`), no long cache retention |
 * | Cloudflare Workers AI (`cloudflare-workers-ai`, api.cloudflare.com) | no `store`, no developer role, no long cache retention |
 * | Moonshot (`moonshotai`, api.moonshot.*)                | `max_tokens`, no `store`, no developer role, no `reasoning_effort` |
 * | Chutes (chutes.ai), OpenCode (`opencode`, opencode.ai) | no `store`, no developer role (Chutes: `max_tokens`) |
 * | Gemini's OpenAI endpoint (`google`, generativelanguage.googleapis.com) | `max_tokens`, no `store`, no developer role |
 * | Ollama (`ollama`, port 11434)                          | `max_tokens`, no `store`, no developer role |
 * | LM Studio (`lmstudio`, port 1234)                      | `max_tokens`, no `store`, no developer role |
 * | llama.cpp server (`llama.cpp`, `llamacpp`)             | `max_tokens`, no `store`, no developer role |
 * | vLLM (`vllm`)                                          | no `store`, no developer role |
 *
 * Streamed reasoning is read from whichever of `reasoning_content`, `reasoning`, `reasoning_text`
 * a server uses, whatever the flags; a thinking block remembers the field it came in and is
 * replayed in that field.
 */
export function detectCompat(model: Pick<Model, "provider" | "baseUrl" | "id">): ResolvedCompat {
  const provider = model.provider.toLowerCase();
  const host = hostOf(model.baseUrl);
  const port = host.includes(":") ? host.slice(host.lastIndexOf(":") + 1) : "";
  const is = (name: string, ...hosts: string[]) => provider === name || hosts.some((h) => host.includes(h));

  const openrouter = is("openrouter", "openrouter.ai");
  const cerebras = is("cerebras", "cerebras.ai");
  const xai = is("xai", "api.x.ai");
  const mistral = is("mistral", "mistral.ai");
  const deepseek = is("deepseek", "deepseek.com");
  const zai = is("zai", "api.z.ai", "open.bigmodel.cn") || provider === "zai-coding-cn";
  const together = is("together", "api.together.ai", "api.together.xyz");
  const workersAi = is("cloudflare-workers-ai", "api.cloudflare.com");
  const aiGateway = is("cloudflare-ai-gateway", "gateway.ai.cloudflare.com");
  const nvidia = is("nvidia", "integrate.api.nvidia.com");
  const antLing = is("ant-ling", "api.ant-ling.com");
  const moonshot = provider === "moonshotai" || provider === "moonshotai-cn" || host.includes("api.moonshot.");
  const chutes = is("chutes", "chutes.ai");
  const opencode = is("opencode", "opencode.ai");
  const gemini = provider === "google" || provider === "gemini" || host.includes("generativelanguage.googleapis.com");
  const ollama = provider === "ollama" || port === "11434";
  const lmstudio = provider === "lmstudio" || provider === "lm-studio" || port === "1234";
  const llamacpp = provider === "llama.cpp" || provider === "llamacpp" || provider === "llama-cpp";
  const vllm = provider === "vllm";

  const nonStandard =
    cerebras || xai || mistral || deepseek || zai || moonshot || chutes || opencode || gemini || ollama || lmstudio || llamacpp || vllm ||
    together || workersAi || aiGateway || nvidia || antLing;
  const maxTokens =
    mistral || moonshot || chutes || gemini || ollama || lmstudio || llamacpp || deepseek || zai || together || aiGateway || nvidia || antLing;
  // Through OpenRouter only Anthropic's and OpenAI's models take the developer role.
  const developerRole = openrouter ? model.id.startsWith("anthropic/") || model.id.startsWith("openai/") : !nonStandard;

  return {
    supportsStore: !nonStandard,
    supportsDeveloperRole: developerRole,
    supportsReasoningEffort: !xai && !zai && !moonshot && !together && !aiGateway && !nvidia && !antLing,
    supportsUsageInStreaming: true,
    maxTokensField: maxTokens ? "max_tokens" : "max_completion_tokens",
    requiresToolResultName: mistral,
    requiresAssistantAfterToolResult: false,
    requiresThinkingAsText: mistral,
    requiresReasoningContentOnAssistantMessages: deepseek,
    requiresMistralToolIds: mistral,
    thinkingFormat: deepseek ? "deepseek" : zai ? "zai" : together ? "together" : antLing ? "ant-ling" : openrouter ? "openrouter" : "openai",
    // Being OpenAI-compatible says nothing of strict tool schemas (Pi ≥ 0.87): only `compat` turns it on.
    supportsStrictMode: false,
    sendSessionIdHeader: true,
    sendSessionAffinityHeaders: openrouter,
    cacheControlFormat: openrouter && model.id.startsWith("anthropic/") ? "anthropic" : undefined,
    sessionAffinityFormat: openrouter ? "openrouter" : "openai",
    zaiToolStream: false,
    chatTemplateKwargs: {},
    chatTemplateArgs: {},
    supportsThinkingTokenBudget: false,
    thinkingTokenBudgetField: undefined,
    supportsLongCacheRetention: !(together || workersAi || aiGateway || nvidia || antLing),
  };
}

/** What resolveCompat answered for a model, and the fields it answered from. */
interface ResolvedFor {
  provider: string;
  baseUrl: string;
  id: string;
  compat: Model["compat"];
  resolved: Readonly<ResolvedCompat>;
}

/** Asked before every request of a run for the same model object: answered once while the fields it reads stay. */
const resolvedFor = new WeakMap<Model, ResolvedFor>();

/** `detectCompat` with the model's explicit `compat` keys on top. */
export function resolveCompat(model: Model): Readonly<ResolvedCompat> {
  const known = resolvedFor.get(model);
  if (known && known.provider === model.provider && known.baseUrl === model.baseUrl && known.id === model.id && known.compat === model.compat) return known.resolved;
  const resolved = Object.freeze(compatOf(model));
  resolvedFor.set(model, { provider: model.provider, baseUrl: model.baseUrl, id: model.id, compat: model.compat, resolved });
  return resolved;
}

function compatOf(model: Model): ResolvedCompat {
  const detected = detectCompat(model);
  const explicit = model.compat;
  if (!explicit) return detected;
  const out = { ...detected } as Record<string, unknown>;
  // Keys without a detected value are still the model's to give.
  for (const key of [...Object.keys(detected), "thinkingTokenBudgetField"]) {
    const value = (explicit as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out as unknown as ResolvedCompat;
}

// ── text ────────────────────────────────────────────────────────────────────

export { stripLoneSurrogates as sanitizeSurrogates } from "./content-text.ts";

/** A data URL for an image block (or its URL when it has no inline data). */
export function imageUrl(image: { mimeType: string; data?: string; url?: string }): string {
  if (image.data !== undefined) return `data:${image.mimeType};base64,${image.data}`;
  return image.url ?? "";
}

export { shortHash } from "../short-hash.ts";

// ── message pre-pass ────────────────────────────────────────────────────────

/** True when an assistant message was produced by this very model (same provider, API and id). */
export function isSameModel(message: { provider: string; api: string; model: string }, model: Model): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

/**
 * Prepares stored messages for replay to `model` (upstream's `transformMessages`):
 * - assistant messages that ended in `error` or `aborted` are left out;
 * - thinking from another model becomes plain text (empty thinking and redacted thinking are
 *   dropped); the same model's thinking is kept as it is;
 * - tool call ids of other models go through `normalizeToolCallId`, and their results follow;
 * - a tool call left without a result gets an error result "No result provided" before the next
 *   user or assistant message.
 *
 * `reuseKey` names everything the preparation depends on besides the messages (the model and the
 * normaliser's rules). Given, a call whose messages begin with those of the latest call with the
 * same key goes on from where that one stood: a long run's request prepares only its new
 * messages, and a message prepared once stays the same object on every later request.
 */
export function prepareMessages(
  messages: readonly LlmMessage[],
  model: Model,
  normalizeToolCallId?: (id: string, source: AssistantMessage) => string,
  reuseKey?: string,
): LlmMessage[] {
  const known = reuseKey !== undefined && latestPreparation?.key === reuseKey && beginsWithSame(messages, latestPreparation.read) ? latestPreparation : undefined;
  // Goes on with the kept walk itself (its lists and map grow): it is the latest again below.
  const walk: Preparation = known ?? { key: reuseKey ?? "", read: [], transformed: [], idMap: new Map() };
  for (let i = walk.read.length; i < messages.length; i++) {
    const message = messages[i]!;
    // Made before either list grows: a message that throws leaves the kept walk as it was.
    const prepared = prepareOne(message, model, walk.idMap, normalizeToolCallId);
    walk.read.push(message);
    walk.transformed.push(prepared);
  }
  if (reuseKey !== undefined) latestPreparation = walk;
  return closeToolCalls(walk.transformed);
}

/** Where the latest keyed preparation stood: the messages it read, what they became, and the ids it renamed. */
interface Preparation {
  key: string;
  read: LlmMessage[];
  transformed: LlmMessage[];
  idMap: Map<string, string>;
}

let latestPreparation: Preparation | undefined;

/** One message prepared for `model`; `idMap` gathers the renamed tool call ids their results follow. */
function prepareOne(
  message: LlmMessage,
  model: Model,
  idMap: Map<string, string>,
  normalizeToolCallId?: (id: string, source: AssistantMessage) => string,
): LlmMessage {
  if (message.role === "user") return message;
  if (message.role === "toolResult") {
    const mapped = idMap.get(message.toolCallId);
    return mapped !== undefined && mapped !== message.toolCallId ? { ...message, toolCallId: mapped } : message;
  }
  // The same model's answer goes back as it is: the same object on every request, which the
  // providers' per-message caches key on.
  if (isSameModel(message, model)) return message;
  // Another model's answer from here on. The ids it renames join `idMap` once the whole answer
  // is prepared: one that throws part way leaves the map as it was.
  const renamed: [string, string][] = [];
  const content = message.content.flatMap((block): AssistantMessage["content"] => {
    if (block.type === "thinking") {
      if (block.redacted || !block.thinking || block.thinking.trim() === "") return [];
      return [{ type: "text", text: block.thinking }];
    }
    if (block.type === "text") return [{ type: "text", text: block.text }];
    if (block.type === "toolCall") {
      let call: LlmToolCall = block;
      if (call.thoughtSignature !== undefined) {
        const { thoughtSignature: _dropped, ...rest } = call;
        call = rest;
      }
      if (normalizeToolCallId) {
        const id = normalizeToolCallId(call.id, message);
        if (id !== call.id) {
          renamed.push([call.id, id]);
          call = { ...call, id };
        }
      }
      return [call];
    }
    return [block];
  });
  for (const [from, to] of renamed) idMap.set(from, to);
  return { ...message, content };
}

// ── headers ─────────────────────────────────────────────────────────────────

/** Request headers: the model's, then `extra` (e.g. session headers), then the caller's. */
export function mergeHeaders(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) if (source) Object.assign(out, source);
  return out;
}

/**
 * `PI_CACHE_RETENTION=long` (upstream's variable): ask OpenAI to keep the prompt cache for
 * 24 hours, where the request names a cache key and the model does not opt out
 * (`compat.supportsLongCacheRetention: false`).
 */
export function addCacheRetention(body: Record<string, unknown>, model: Model, env: NodeJS.ProcessEnv = process.env): void {
  if (body.prompt_cache_key === undefined || env.PI_CACHE_RETENTION !== "long") return;
  if (model.compat?.supportsLongCacheRetention === false) return;
  body.prompt_cache_retention = "24h";
}

