/**
 * Providers that extensions register (`pi.registerProvider`): the config as it crosses the
 * socket (checked here, at the boundary), upstream's validation with its error texts, and how a
 * config changes the model list. Functions stay in the extension; `hasStreamSimple` says it
 * serves `provider.stream` for its `api`.
 */
import * as v from "valibot";
import { builtOnce } from "../util/built-once.ts";
import { THINKING_LEVELS } from "./message-types.ts";
import type { Model, OpenAICompat } from "./types.ts";

// Built when the first extension registers a provider: a run without extensions never does.
const providerConfigSchema = builtOnce(() => {
  const Headers = v.record(v.string(), v.string());
  const ModelDefSchema = v.looseObject({
    id: v.pipe(v.string(), v.minLength(1)),
    name: v.optional(v.string()),
    api: v.optional(v.string()),
    baseUrl: v.optional(v.string()),
    reasoning: v.optional(v.boolean()),
    thinkingLevelMap: v.optional(v.record(v.picklist(THINKING_LEVELS), v.nullable(v.string()))),
    input: v.optional(v.array(v.picklist(["text", "image"]))),
    cost: v.optional(v.looseObject({ input: v.optional(v.number()), output: v.optional(v.number()), cacheRead: v.optional(v.number()), cacheWrite: v.optional(v.number()) })),
    contextWindow: v.optional(v.number()),
    maxTokens: v.optional(v.number()),
    headers: v.optional(Headers),
    compat: v.optional(v.record(v.string(), v.unknown())),
  });
  return v.looseObject({
    name: v.optional(v.string()),
    baseUrl: v.optional(v.string()),
    apiKey: v.optional(v.string()),
    api: v.optional(v.string()),
    headers: v.optional(Headers),
    authHeader: v.optional(v.boolean()),
    models: v.optional(v.array(ModelDefSchema)),
    hasStreamSimple: v.optional(v.boolean()),
    hasOAuth: v.optional(v.boolean()),
  });
});
export type ExtensionProviderConfig = v.InferOutput<ReturnType<typeof providerConfigSchema>>;

/** The config as sent, checked; an error names the provider and the field. */
export function parseProviderConfig(provider: string, raw: unknown): ExtensionProviderConfig {
  const parsed = v.safeParse(providerConfigSchema(), raw);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const where = issue.path?.map((p) => String(p.key)).join(".") ?? "config";
  throw new Error(`Provider ${provider}: ${where}: ${issue.message}`);
}

/** Upstream's checks, in its order and words. */
export function validateProviderConfig(provider: string, config: ExtensionProviderConfig): void {
  if (config.hasStreamSimple && !config.api) throw new Error(`Provider ${provider}: "api" is required when registering streamSimple.`);
  if (!config.models || config.models.length === 0) return;
  if (!config.baseUrl) throw new Error(`Provider ${provider}: "baseUrl" is required when defining models.`);
  if (!config.apiKey && !config.hasOAuth) throw new Error(`Provider ${provider}: "apiKey" or "oauth" is required when defining models.`);
  for (const model of config.models) {
    if (!model.api && !config.api) throw new Error(`Provider ${provider}, model ${model.id}: no "api" specified.`);
  }
}

/** A repeated registration: the fields the new config defines override the stored ones. */
export function mergeProviderConfig(stored: ExtensionProviderConfig | undefined, next: ExtensionProviderConfig): ExtensionProviderConfig {
  if (!stored) return next;
  const out: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(next)) if (value !== undefined) out[key] = value;
  return out as ExtensionProviderConfig;
}

/**
 * `models` replaces the provider's models; only `baseUrl` rewrites the base URL of the ones it
 * has. Changes `models` in place (callers hold the array).
 */
export function applyProviderConfig(models: Model[], provider: string, config: ExtensionProviderConfig): void {
  if (config.models && config.models.length > 0) {
    const kept = models.filter((m) => m.provider !== provider);
    const added = config.models.map((def): Model => ({
      id: def.id,
      name: def.name ?? def.id,
      api: def.api ?? config.api!,
      provider,
      baseUrl: def.baseUrl ?? config.baseUrl!,
      reasoning: def.reasoning ?? false,
      ...(def.thinkingLevelMap ? { thinkingLevelMap: def.thinkingLevelMap } : {}),
      input: def.input ?? ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...def.cost },
      contextWindow: def.contextWindow ?? 128000,
      maxTokens: def.maxTokens ?? 16384,
      ...(def.headers ? { headers: def.headers } : {}),
      ...(def.compat ? { compat: def.compat as OpenAICompat } : {}),
    }));
    models.splice(0, models.length, ...kept, ...added);
    return;
  }
  if (config.baseUrl) for (const m of models) if (m.provider === provider) m.baseUrl = config.baseUrl;
}
