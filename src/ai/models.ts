/**
 * The built-in model catalogue: the main models of each provider with their context window,
 * output cap, reasoning support, input kinds and prices ($ per million tokens). Facts as of
 * upstream Pi 0.73.1's catalogue, with the `max` thinking level where Pi 0.87.1 offers it; Gemini and Mistral are reached through their
 * OpenAI-compatible endpoints. More models come from `models.json`.
 */
import type { Model } from "./types.ts";

export const BUILTIN_MODELS: readonly Model[] = [
  { id: "claude-opus-4-7", name: "Claude Opus 4.7", api: "anthropic-messages", provider: "anthropic", baseUrl: "https://api.anthropic.com", reasoning: true, thinkingLevelMap: { xhigh: "xhigh", max: "max" }, input: ["text", "image"], cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, contextWindow: 1000000, maxTokens: 128000 },
  { id: "claude-sonnet-4-6", name: "Claude Sonnet 4.6", api: "anthropic-messages", provider: "anthropic", baseUrl: "https://api.anthropic.com", reasoning: true, thinkingLevelMap: { max: "max" }, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 1000000, maxTokens: 64000 },
  { id: "claude-haiku-4-5", name: "Claude Haiku 4.5 (latest)", api: "anthropic-messages", provider: "anthropic", baseUrl: "https://api.anthropic.com", reasoning: true, input: ["text", "image"], cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, contextWindow: 200000, maxTokens: 64000 },
  { id: "claude-opus-4-6", name: "Claude Opus 4.6", api: "anthropic-messages", provider: "anthropic", baseUrl: "https://api.anthropic.com", reasoning: true, thinkingLevelMap: { max: "max" }, input: ["text", "image"], cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, contextWindow: 1000000, maxTokens: 128000 },
  { id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5 (latest)", api: "anthropic-messages", provider: "anthropic", baseUrl: "https://api.anthropic.com", reasoning: true, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 200000, maxTokens: 64000 },
  { id: "gpt-5.4", name: "GPT-5.4", api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1", reasoning: true, thinkingLevelMap: { off: null, xhigh: "xhigh" }, input: ["text", "image"], cost: { input: 2.5, output: 15, cacheRead: 0.25, cacheWrite: 0 }, contextWindow: 272000, maxTokens: 128000 },
  { id: "gpt-5.4-mini", name: "GPT-5.4 mini", api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1", reasoning: true, thinkingLevelMap: { off: null, xhigh: "xhigh" }, input: ["text", "image"], cost: { input: 0.75, output: 4.5, cacheRead: 0.075, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { id: "gpt-5.5", name: "GPT-5.5", api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1", reasoning: true, thinkingLevelMap: { off: null, xhigh: "xhigh" }, input: ["text", "image"], cost: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0 }, contextWindow: 272000, maxTokens: 128000 },
  { id: "gpt-5.4-nano", name: "GPT-5.4 nano", api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1", reasoning: true, thinkingLevelMap: { off: null, xhigh: "xhigh" }, input: ["text", "image"], cost: { input: 0.2, output: 1.25, cacheRead: 0.02, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { id: "gpt-4.1", name: "GPT-4.1", api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1", reasoning: false, input: ["text", "image"], cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 }, contextWindow: 1047576, maxTokens: 32768 },
  { id: "o4-mini", name: "o4-mini", api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1", reasoning: true, input: ["text", "image"], cost: { input: 1.1, output: 4.4, cacheRead: 0.28, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 100000 },
  { id: "gpt-5.2", name: "GPT-5.2", api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1", reasoning: true, thinkingLevelMap: { off: null, xhigh: "xhigh" }, input: ["text", "image"], cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { id: "gemini-3.1-pro-preview", name: "Gemini 3.1 Pro Preview", api: "openai-completions", provider: "google", baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai", reasoning: true, input: ["text", "image"], cost: { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", api: "openai-completions", provider: "google", baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai", reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { id: "gemini-2.5-flash", name: "Gemini 2.5 Flash", api: "openai-completions", provider: "google", baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai", reasoning: true, input: ["text", "image"], cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { id: "gemini-3-flash-preview", name: "Gemini 3 Flash Preview", api: "openai-completions", provider: "google", baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai", reasoning: true, input: ["text", "image"], cost: { input: 0.5, output: 3, cacheRead: 0.05, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { id: "openai/gpt-oss-120b", name: "GPT OSS 120B", api: "openai-completions", provider: "groq", baseUrl: "https://api.groq.com/openai/v1", reasoning: true, input: ["text"], cost: { input: 0.15, output: 0.6, cacheRead: 0, cacheWrite: 0 }, contextWindow: 131072, maxTokens: 65536 },
  { id: "llama-3.3-70b-versatile", name: "Llama 3.3 70B Versatile", api: "openai-completions", provider: "groq", baseUrl: "https://api.groq.com/openai/v1", reasoning: false, input: ["text"], cost: { input: 0.59, output: 0.79, cacheRead: 0, cacheWrite: 0 }, contextWindow: 131072, maxTokens: 32768 },
  { id: "moonshotai/kimi-k2-instruct-0905", name: "Kimi K2 Instruct 0905", api: "openai-completions", provider: "groq", baseUrl: "https://api.groq.com/openai/v1", reasoning: false, input: ["text"], cost: { input: 1, output: 3, cacheRead: 0, cacheWrite: 0 }, contextWindow: 262144, maxTokens: 16384 },
  { id: "zai-glm-4.7", name: "Z.AI GLM-4.7", api: "openai-completions", provider: "cerebras", baseUrl: "https://api.cerebras.ai/v1", reasoning: false, input: ["text"], cost: { input: 2.25, output: 2.75, cacheRead: 0, cacheWrite: 0 }, contextWindow: 131072, maxTokens: 40000 },
  { id: "gpt-oss-120b", name: "GPT OSS 120B", api: "openai-completions", provider: "cerebras", baseUrl: "https://api.cerebras.ai/v1", reasoning: true, input: ["text"], cost: { input: 0.25, output: 0.69, cacheRead: 0, cacheWrite: 0 }, contextWindow: 131072, maxTokens: 32768 },
  { id: "qwen-3-235b-a22b-instruct-2507", name: "Qwen 3 235B Instruct", api: "openai-completions", provider: "cerebras", baseUrl: "https://api.cerebras.ai/v1", reasoning: false, input: ["text"], cost: { input: 0.6, output: 1.2, cacheRead: 0, cacheWrite: 0 }, contextWindow: 131000, maxTokens: 32000 },
  { id: "grok-4.20-0309-reasoning", name: "Grok 4.20 (Reasoning)", api: "openai-completions", provider: "xai", baseUrl: "https://api.x.ai/v1", reasoning: true, input: ["text", "image"], cost: { input: 2, output: 6, cacheRead: 0.2, cacheWrite: 0 }, contextWindow: 2000000, maxTokens: 30000 },
  { id: "grok-code-fast-1", name: "Grok Code Fast 1", api: "openai-completions", provider: "xai", baseUrl: "https://api.x.ai/v1", reasoning: true, input: ["text"], cost: { input: 0.2, output: 1.5, cacheRead: 0.02, cacheWrite: 0 }, contextWindow: 256000, maxTokens: 10000 },
  { id: "grok-4-fast", name: "Grok 4 Fast", api: "openai-completions", provider: "xai", baseUrl: "https://api.x.ai/v1", reasoning: true, input: ["text", "image"], cost: { input: 0.2, output: 0.5, cacheRead: 0.05, cacheWrite: 0 }, contextWindow: 2000000, maxTokens: 30000 },
  { id: "devstral-medium-latest", name: "Devstral 2 (latest)", api: "openai-completions", provider: "mistral", baseUrl: "https://api.mistral.ai/v1", reasoning: false, input: ["text"], cost: { input: 0.4, output: 2, cacheRead: 0, cacheWrite: 0 }, contextWindow: 262144, maxTokens: 262144 },
  { id: "mistral-large-latest", name: "Mistral Large (latest)", api: "openai-completions", provider: "mistral", baseUrl: "https://api.mistral.ai/v1", reasoning: false, input: ["text", "image"], cost: { input: 0.5, output: 1.5, cacheRead: 0, cacheWrite: 0 }, contextWindow: 262144, maxTokens: 262144 },
  { id: "codestral-latest", name: "Codestral (latest)", api: "openai-completions", provider: "mistral", baseUrl: "https://api.mistral.ai/v1", reasoning: false, input: ["text"], cost: { input: 0.3, output: 0.9, cacheRead: 0, cacheWrite: 0 }, contextWindow: 256000, maxTokens: 4096 },
  { id: "deepseek-v4-pro", name: "DeepSeek V4 Pro", api: "openai-completions", provider: "deepseek", baseUrl: "https://api.deepseek.com", reasoning: true, thinkingLevelMap: { minimal: null, low: null, medium: null, high: "high", max: "max" }, input: ["text"], cost: { input: 0.435, output: 0.87, cacheRead: 0.003625, cacheWrite: 0 }, contextWindow: 1000000, maxTokens: 384000, compat: { requiresReasoningContentOnAssistantMessages: true, thinkingFormat: "deepseek" } },
  { id: "moonshotai/kimi-k2.6", name: "MoonshotAI: Kimi K2.6", api: "openai-completions", provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1", reasoning: true, input: ["text", "image"], cost: { input: 0.75, output: 3.5, cacheRead: 0.15, cacheWrite: 0 }, contextWindow: 262144, maxTokens: 16384 },
  { id: "anthropic/claude-sonnet-4.6", name: "Anthropic: Claude Sonnet 4.6", api: "openai-completions", provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1", reasoning: true, thinkingLevelMap: { max: "max" }, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 1000000, maxTokens: 128000 },
  { id: "openai/gpt-5.4", name: "OpenAI: GPT-5.4", api: "openai-completions", provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1", reasoning: true, thinkingLevelMap: { xhigh: "xhigh" }, input: ["text", "image"], cost: { input: 2.5, output: 15, cacheRead: 0.25, cacheWrite: 0 }, contextWindow: 1050000, maxTokens: 128000 },
  { id: "z-ai/glm-5.1", name: "Z.ai: GLM 5.1", api: "openai-completions", provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1", reasoning: true, input: ["text"], cost: { input: 1.0499999999999998, output: 3.5, cacheRead: 0.5249999999999999, cacheWrite: 0 }, contextWindow: 202752, maxTokens: 65535 },
];

/** Per provider: the environment variables holding its key, in order of preference. */
export const PROVIDER_ENV_KEYS: Readonly<Record<string, readonly string[]>> = {
  anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
  openai: ["OPENAI_API_KEY"],
  google: ["GEMINI_API_KEY"],
  groq: ["GROQ_API_KEY"],
  cerebras: ["CEREBRAS_API_KEY"],
  xai: ["XAI_API_KEY"],
  mistral: ["MISTRAL_API_KEY"],
  deepseek: ["DEEPSEEK_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
};

/** Per provider: the model picked when only the provider is known (upstream's defaults). */
export const PROVIDER_DEFAULT_MODEL: Readonly<Record<string, string>> = {
  anthropic: "claude-opus-4-7",
  openai: "gpt-5.4",
  google: "gemini-3.1-pro-preview",
  openrouter: "moonshotai/kimi-k2.6",
  xai: "grok-4.20-0309-reasoning",
  groq: "openai/gpt-oss-120b",
  cerebras: "zai-glm-4.7",
  mistral: "devstral-medium-latest",
  deepseek: "deepseek-v4-pro",
};

/** The order providers are tried in when nothing names a model. */
export const PROVIDER_ORDER: readonly string[] = Object.keys(PROVIDER_DEFAULT_MODEL);
