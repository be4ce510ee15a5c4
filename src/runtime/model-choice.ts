/**
 * Which model a run starts on: the one named (`--provider` / `--model`), the models the scope
 * (`--models`, `enabledModels`) cycles through, and, without a named one, where a new session
 * starts in that scope.
 */
import { matchModels, parseModelPattern } from "../ai/model-select.ts";
import type { ThinkingLevel } from "../ai/message-types.ts";
import { defaultModelOf } from "../ai/catalogue/index.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import type { Model } from "../ai/types.ts";
import type { Settings } from "../resources/settings.ts";
import type { RuntimeConfig } from "./config.ts";
import { UserError } from "./errors.ts";

export interface NamedModel {
  model?: Model;
  /** The `:level` the pattern ended with. */
  thinking?: ThinkingLevel;
}

export interface ScopedModel {
  model: Model;
  thinking?: ThinkingLevel;
}

/** The model named by `provider` / `model`; throws a clear error when none matches. */
export function namedModel(
  config: Pick<RuntimeConfig, "provider" | "model">,
  registry: ModelRegistry,
  warnings: string[],
): NamedModel {
  const providers = registry.providers;
  if (config.provider && !providers.has(config.provider)) {
    throw new UserError(`Unknown provider "${config.provider}". Use --list-models to see available providers/models.`);
  }
  if (!config.model) {
    if (!config.provider) return {};
    const id = defaultModelOf(config.provider);
    const model = (id && registry.find(config.provider, id)) || registry.modelsOf(config.provider)[0];
    return model ? { model } : {};
  }
  const pattern = parseModelPattern(config.model, providers);
  const provider = config.provider ?? pattern.provider;
  const thinking = pattern.thinking ? { thinking: pattern.thinking } : {};
  if (!provider) {
    const exact = exactAcrossProviders(pattern.pattern, registry);
    if (exact) return { model: exact, ...thinking };
  }
  const matches = matchModels(provider ? registry.modelsOf(provider) : registry.models, { ...pattern, ...(provider ? { provider } : {}) });
  if (matches[0]) return { model: matches[0], ...thinking };
  if (provider) {
    const base = registry.find(provider, defaultModelOf(provider) ?? "") ?? registry.modelsOf(provider)[0];
    if (base) {
      warnings.push(`Model "${pattern.pattern}" not found for provider "${provider}". Using custom model id.`);
      return { model: { ...base, id: pattern.pattern, name: pattern.pattern }, ...thinking };
    }
  }
  throw new UserError(`Model "${config.model}" not found. Use --list-models to see available models.`);
}

/**
 * The model `--model` (with `--provider`) names exactly, `provider/id`, among the models the
 * registry has now: one an extension registered (a provider's, a virtual model) is known only
 * once the extensions have started, after a looser match may have picked another.
 */
export function exactlyNamed(config: Pick<RuntimeConfig, "provider" | "model">, registry: ModelRegistry): Model | undefined {
  if (!config.model) return undefined;
  const pattern = parseModelPattern(config.model, registry.providers);
  const provider = config.provider ?? pattern.provider;
  return provider ? registry.find(provider, pattern.pattern) : undefined;
}

/**
 * The named model, with the registry's problems first in the error when there is none: a
 * models.json pig could not use may be why. A key given for the run is set on its provider.
 */
export function chooseNamedModel(config: RuntimeConfig, registry: ModelRegistry, warnings: string[]): NamedModel {
  let chosen: NamedModel;
  try {
    chosen = namedModel(config, registry, warnings);
  } catch (error) {
    if (error instanceof UserError) throw new UserError(error.message, error.exitCode, [...error.warnings, ...warnings]);
    throw error;
  }
  if (config.apiKey) {
    if (!chosen.model) throw new UserError("--api-key requires a model to be specified via --model or --provider");
    registry.setRuntimeKey(chosen.model.provider, config.apiKey);
  }
  return chosen;
}

/** The models Ctrl+P and cycle_model go through, each with its `:level`. */
export function scopedModels(patterns: readonly string[], registry: ModelRegistry): ScopedModel[] {
  return patterns.flatMap((pattern) => {
    const parsed = parseModelPattern(pattern, registry.providers);
    return matchModels(registry.available(), parsed)
      .slice(0, /[*?[]/.test(parsed.pattern) ? undefined : 1)
      .map((m) => ({ model: m, ...(parsed.thinking ? { thinking: parsed.thinking } : {}) }));
  });
}

/**
 * Without a named model, a new session starts in the scope: on the saved default if it is
 * there, else on the first scoped model (with its level), as upstream.
 */
export function startingChoice(
  named: NamedModel,
  thinking: ThinkingLevel | undefined,
  scoped: readonly ScopedModel[],
  settings: Settings,
  hasMessages: boolean,
): NamedModel {
  let model = named.model;
  let level = thinking ?? named.thinking;
  if (!model && scoped.length > 0 && !hasMessages) {
    const saved = scoped.find((s) => s.model.provider === settings.defaultProvider && s.model.id === settings.defaultModel);
    const pick = saved ?? scoped[0]!;
    model = pick.model;
    level ??= pick.thinking;
  }
  return { ...(model ? { model } : {}), ...(level ? { thinking: level } : {}) };
}

/** The `:level` of each scoped model that names one, keyed `provider/id`. */
export function scopedThinking(scoped: readonly ScopedModel[]): Record<string, ThinkingLevel> {
  const out: Record<string, ThinkingLevel> = {};
  for (const s of scoped) if (s.thinking) out[`${s.model.provider}/${s.model.id}`] = s.thinking;
  return out;
}

/**
 * A bare model id several providers offer (`gpt-5.5`: OpenAI, Azure, Codex, Copilot…) names the
 * one of them with credentials; with none or several, the run stops and says which providers
 * offer it, as upstream does, instead of picking by catalogue order.
 */
function exactAcrossProviders(id: string, registry: ModelRegistry): Model | undefined {
  const lower = id.toLowerCase();
  const exact = registry.models.filter((m) => m.id.toLowerCase() === lower);
  if (exact.length <= 1) return exact[0];
  const signedIn = exact.filter((m) => registry.hasKey(m.provider));
  if (signedIn.length === 1) return signedIn[0];
  const names = exact.map((m) => `${m.provider}/${m.id}`).sort((a, b) => a.localeCompare(b)).join(", ");
  const why = signedIn.length === 0 ? "No matching provider is authenticated." : "More than one matching provider is authenticated.";
  throw new UserError(`Model "${id}" is ambiguous across providers: ${names}. ${why} Use --provider or provider/model.`);
}
