/**
 * The request for the Anthropic Messages API: headers, body (see `anthropic-messages.ts` for what
 * upstream sends), prompt caching, and thinking (budgets or adaptive effort).
 */
import type { BudgetLevel, LlmContext, Model, StreamOptions, ThinkingBudgets, ThinkingLevel } from "../types.ts";
import { fitOutputToWindow } from "../output-room.ts";
import { convertAnthropicMessages, convertAnthropicTools, stripLoneSurrogates } from "./anthropic-convert.ts";
import { CLAUDE_CODE_IDENTITY, CLAUDE_CODE_VERSION, isOAuthToken } from "./anthropic-oauth.ts";
import type { AnthropicRequest, AnthropicRequestBody, AnthropicTool, CacheControl } from "./anthropic-wire.ts";
import { endpointUrl } from "../endpoint.ts";
import { pigUserAgent } from "../user-agent.ts";

export const ANTHROPIC_VERSION = "2023-06-01";
export { DEFAULT_ANTHROPIC_BASE_URL } from "../endpoint.ts";
export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";
export const FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14";
export const SERVER_SIDE_FALLBACK_BETA = "server-side-fallback-2026-07-01";
export const MID_CONVERSATION_TOOL_CHANGES_BETA = "mid-conversation-tool-changes-2026-07-01";
export const MID_CONVERSATION_OUTPUT_CONFIG_BETA = "mid-conversation-output-config-2026-07-01";
export const THINKING_BINDING_CONTROLS_BETA = "thinking-binding-controls-2026-08-01";

/**
 * A deferred tool Pi 0.87.1 declares whenever a model takes tool changes in the conversation
 * (`compat.supportsMidConvoSystemMessages` and `supportsMidConvoToolChanges`): the first deferred
 * tool makes Anthropic add prompt scaffolding, so declaring one from the first request keeps the
 * cached prefix the same when a real tool is added later. It is never activated.
 */
export const DEFERRED_TOOL_PLACEHOLDER: AnthropicTool = {
  name: "__pi_deferred_placeholder__",
  description: "Reserved placeholder. Never available. Never call this.",
  input_schema: { type: "object", properties: {}, required: [] },
  defer_loading: true,
};

// ── options ─────────────────────────────────────────────────────────────────

export type CacheRetention = "none" | "short" | "long";
export type { BudgetLevel, ThinkingBudgets } from "../types.ts";

/** `StreamOptions` plus the upstream knobs this API understands (all optional). */
export interface AnthropicStreamOptions extends StreamOptions {
  /** Prompt caching: "short" (default; "long" when PI_CACHE_RETENTION=long) adds 5-minute breakpoints, "long" 1-hour ones, "none" none. */
  cacheRetention?: CacheRetention;
  /** Send the interleaved-thinking beta header (default true, as upstream). */
  interleavedThinking?: boolean;
  /** `thinking.display` (default "summarized"). */
  thinkingDisplay?: "summarized" | "omitted";
}

// ── thinking ────────────────────────────────────────────────────────────────

/** Upstream's default budgets per level; `xhigh` and `max` use `high`'s. */
export const DEFAULT_THINKING_BUDGETS: Readonly<Record<BudgetLevel, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** Tokens upstream keeps for the answer when the budget has to shrink to fit. */
const MIN_OUTPUT_TOKENS = 1024;

/** Output cap when the caller gives none: the model's (Pi 0.87.1; 0.73.1 capped it at 32000). */
export function defaultMaxTokens(model: Model): number | undefined {
  return model.maxTokens > 0 ? model.maxTokens : undefined;
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
  const clamped: BudgetLevel = level === "xhigh" || level === "max" || level === "off" ? "high" : level;
  let budgetTokens = { ...DEFAULT_THINKING_BUDGETS, ...budgets }[clamped];
  const maxTokens = Math.min(baseMaxTokens + budgetTokens, modelMaxTokens);
  if (maxTokens <= budgetTokens) budgetTokens = Math.max(0, maxTokens - MIN_OUTPUT_TOKENS);
  return { maxTokens, budgetTokens };
}

/** Model ids that think adaptively (`thinking: {type: "adaptive"}` plus an effort). */
export function supportsAdaptiveThinking(modelId: string): boolean {
  return /opus-4[-.][67]|sonnet-4[-.]6/.test(modelId);
}

/**
 * Whether `model` thinks adaptively: its `compat.forceAdaptiveThinking` (how Pi 0.87.1's catalogue
 * says it), else, for a model defined without the flag, its id.
 */
export function thinksAdaptively(model: Model): boolean {
  const flag = model.compat?.forceAdaptiveThinking;
  return typeof flag === "boolean" ? flag : supportsAdaptiveThinking(model.id);
}

/** The `output_config.effort` for an adaptive model: the model's map, else low/medium/high. */
export function adaptiveEffort(model: Model, level: ThinkingLevel): string {
  const mapped = model.thinkingLevelMap?.[level];
  if (typeof mapped === "string") return mapped;
  if (level === "minimal" || level === "low") return "low";
  if (level === "medium") return "medium";
  return "high";
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

/** A fallback model Anthropic may answer with (`compat.allowedFallbackModels`). */
function fallbackModels(model: Model): string[] {
  const list = model.compat?.allowedFallbackModels;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => (typeof entry === "object" && entry !== null && typeof entry.model === "string" ? [entry.model] : []));
}

/** OpenRouter keeps a session on one upstream by `x-session-id`; a model's compat may ask for Anthropic's `x-session-affinity`. */
function sessionAffinityHeader(model: Model): string | undefined {
  const openRouter = model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai");
  if (!(model.compat?.sendSessionAffinityHeaders ?? openRouter)) return undefined;
  return (model.compat?.sessionAffinityFormat ?? (openRouter ? "openrouter" : undefined)) === "openrouter" ? "x-session-id" : "x-session-affinity";
}

/**
 * The effort a model whose effort changes mid-conversation (`compat.supportsMidConvoEffort`) is
 * asked to answer at, which its answer keeps as `providerThinkingLevel`; undefined for others.
 */
export function midConversationEffort(model: Model, reasoning: ThinkingLevel | undefined): string | undefined {
  if (model.compat?.supportsMidConvoEffort !== true) return undefined;
  return reasoning && reasoning !== "off" ? adaptiveEffort(model, reasoning) : "high";
}

/** The request upstream sends for `context` (pure apart from PI_CACHE_RETENTION and the user agent's OS facts). */
export function buildAnthropicRequest(model: Model, context: LlmContext, options: AnthropicStreamOptions, userAgent = pigUserAgent()): AnthropicRequest {
  const apiKey = options.apiKey ?? "";
  const oauth = isOAuthToken(apiKey);
  const cacheControl = cacheControlFor(model, options.cacheRetention);
  const eager = model.compat?.supportsEagerToolInputStreaming !== false;
  const hasTools = (context.tools?.length ?? 0) > 0;
  // A model that takes tool changes mid-conversation gets Pi's deferred placeholder tool (pig sends
  // the tools in force as the active ones rather than rendering the changes as they happened).
  const toolChanges = hasTools && model.compat?.supportsMidConvoSystemMessages === true && model.compat?.supportsMidConvoToolChanges === true;
  const level = options.reasoning && options.reasoning !== "off" ? options.reasoning : undefined;
  const adaptive = thinksAdaptively(model);
  const display = options.thinkingDisplay ?? "summarized";
  const fallbacks = fallbackModels(model);
  // Claude models whose effort may change mid-conversation (`compat.supportsMidConvoEffort`) always
  // think adaptively, at the current effort (high when thinking is not asked for), and are told
  // each earlier answer's effort; a thinking block made at another effort is dropped, not refused.
  const activeEffort = midConversationEffort(model, level);
  const managed = activeEffort !== undefined;

  const fit = (tokens: number | undefined) => (tokens ? fitOutputToWindow(model, context, tokens) : tokens);
  const base = fit(options.maxTokens ?? defaultMaxTokens(model));
  let maxTokens = base;
  let budgetTokens: number | undefined;
  if (level && !adaptive) {
    const adjusted = anthropicThinkingBudget(base ?? 0, model.maxTokens, level, options.thinkingBudgets);
    maxTokens = fit(adjusted.maxTokens);
    budgetTokens = Math.min(adjusted.budgetTokens, Math.max(0, (maxTokens ?? 0) - MIN_OUTPUT_TOKENS));
  }

  const body: AnthropicRequestBody = {
    model: model.id,
    messages: convertAnthropicMessages(context.messages, model, {
      cacheControl,
      oauth,
      allowEmptySignature: model.compat?.allowEmptySignature === true,
      effortMarkers: managed,
    }),
    max_tokens: maxTokens || Math.trunc(model.maxTokens / 3),
    stream: true,
  };
  const system: NonNullable<AnthropicRequestBody["system"]> = [];
  const withCache = <T extends object>(block: T): T => (cacheControl ? { ...block, cache_control: cacheControl } : block);
  if (oauth) system.push(withCache({ type: "text" as const, text: CLAUDE_CODE_IDENTITY }));
  if (context.systemPrompt) system.push(withCache({ type: "text" as const, text: stripLoneSurrogates(context.systemPrompt) }));
  if (system.length > 0) body.system = system;
  if (managed) body.messages.push({ role: "system", content: [], output_config: { effort: activeEffort } });
  if (options.temperature !== undefined && !level && !managed && model.compat?.supportsTemperature !== false) body.temperature = options.temperature;
  if (hasTools) {
    const toolCache = model.compat?.supportsCacheControlOnTools === false ? undefined : cacheControl;
    body.tools = convertAnthropicTools(model, context.tools!, { eagerInputStreaming: eager, cacheControl: toolCache, oauth });
    if (toolChanges) body.tools.push({ ...DEFERRED_TOOL_PLACEHOLDER });
  }
  if (managed) {
    // The request's own effort stays "high" (as Pi sends it): the marker after the last message sets this answer's.
    body.thinking = { type: "adaptive", display, block_binding: { prefix_mismatch_behavior: "drop_block" } };
    body.output_config = { effort: "high" };
  } else if (model.reasoning) {
    if (!level) {
      // A model that cannot turn thinking off (`thinkingLevelMap.off: null`) is not told to.
      if (model.thinkingLevelMap?.off !== null) body.thinking = { type: "disabled" };
    } else if (adaptive) {
      body.thinking = { type: "adaptive", display };
      body.output_config = { effort: adaptiveEffort(model, level) };
    } else {
      body.thinking = { type: "enabled", budget_tokens: budgetTokens || 1024, display };
    }
  }
  if (fallbacks.length > 0) body.fallbacks = fallbacks.map((id) => ({ model: id }));

  const betas: string[] = [];
  if (oauth) betas.push("claude-code-20250219", "oauth-2025-04-20");
  if (hasTools && !eager) betas.push(FINE_GRAINED_TOOL_STREAMING_BETA);
  if (model.reasoning && level && (options.interleavedThinking ?? true) && !adaptive) betas.push(INTERLEAVED_THINKING_BETA);
  if (fallbacks.length > 0) betas.push(SERVER_SIDE_FALLBACK_BETA);
  if (managed) betas.push(MID_CONVERSATION_OUTPUT_CONFIG_BETA, THINKING_BINDING_CONTROLS_BETA);
  if (toolChanges) betas.push(MID_CONVERSATION_TOOL_CHANGES_BETA);

  const headers: Record<string, string> = {};
  setHeader(headers, "user-agent", oauth ? `claude-cli/${CLAUDE_CODE_VERSION}` : userAgent);
  // A gateway token (ANTHROPIC_AUTH_TOKEN, Copilot's, providers/provider-request.ts) arrives as an Authorization header of its own.
  const gatewayToken = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === "authorization");
  if (oauth) setHeader(headers, "authorization", `Bearer ${apiKey}`);
  // No key, or a token in an Authorization header of its own (ANTHROPIC_AUTH_TOKEN, Copilot): no x-api-key.
  else if (apiKey && !gatewayToken) setHeader(headers, "x-api-key", apiKey);
  setHeader(headers, "anthropic-version", ANTHROPIC_VERSION);
  setHeader(headers, "accept", "application/json");
  setHeader(headers, "anthropic-dangerous-direct-browser-access", "true");
  if (oauth) setHeader(headers, "x-app", "cli");
  // A server behind a router (OpenRouter, Cloudflare's AI Gateway) keeps a session on one replica
  // while the prompt is cached, as upstream asks it to.
  const affinity = oauth ? undefined : sessionAffinityHeader(model);
  if (affinity && options.sessionId && cacheControl) setHeader(headers, affinity, options.sessionId);
  if (betas.length > 0) setHeader(headers, "anthropic-beta", betas.join(","));
  for (const extra of [model.headers, options.headers]) {
    for (const [name, value] of Object.entries(extra ?? {})) setHeader(headers, name, value);
  }
  setHeader(headers, "content-type", "application/json");

  return { url: endpointUrl(model), headers, body };
}
