/**
 * Which model and thinking level a session runs with when it is opened or replaced (upstream
 * 0.73.1's order): an explicit choice; for a session with messages, its own model if it still
 * has a key; the settings default; a provider default. The thinking level: explicit; the
 * session's own if it recorded one; the settings default (`medium` when unset).
 */
import type { ModelRegistry } from "../ai/registry.ts";
import type { Model } from "../ai/types.ts";
import { isVirtualModel } from "../ai/virtual-models.ts";
import { type Settings } from "../resources/settings.ts";
import { settingsDefaults } from "../resources/settings-effective.ts";
import type { ThinkingLevel } from "../session/format.ts";
import type { ContextPlan } from "../session/context.ts";
import type { SessionStore } from "../session/store.ts";

export interface RestoreInput {
  store: SessionStore;
  registry: ModelRegistry;
  settings: Settings;
  model?: Model;
  thinking?: ThinkingLevel;
}

export interface Restored {
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  /** Set when the session's own model could not be used. */
  warning?: string;
}

export function restoreModelAndThinking(input: RestoreInput): Restored {
  const { store, registry, settings } = input;
  // The plan says which model, level and messages the context has without parsing messages.
  const context = store.planContext();
  const hasMessages = context.items.length > 0;
  let model = input.model;
  let warning: string | undefined;
  if (!model && hasMessages && context.model) {
    // A virtual model's selection holds over the physical models its answers name (upstream 1.x).
    const restored = virtualSelection(context, registry) ?? registry.find(context.model.provider, context.model.modelId);
    if (restored && registry.hasKey(restored.provider)) model = restored;
    else warning = `Could not restore model ${context.model.provider}/${context.model.modelId}`;
  }
  if (!model && settings.defaultProvider && settings.defaultModel) model = registry.find(settings.defaultProvider, settings.defaultModel);
  model ??= registry.defaultModel();
  if (warning && model) warning += `. Using ${model.provider}/${model.id}`;
  const thinkingLevel =
    input.thinking ?? (hasMessages && context.levelChanged ? (context.thinkingLevel as ThinkingLevel) : (settings.defaultThinkingLevel ?? settingsDefaults.defaultThinkingLevel));
  return { model, thinkingLevel, ...(warning ? { warning } : {}) };
}

/**
 * The virtual model the branch's last `model_change` selected, while one is registered: its
 * answers name the physical models it routed to, so the last answer's model is not the choice.
 */
function virtualSelection(context: ContextPlan, registry: ModelRegistry): Model | undefined {
  const change = context.lastModelChange;
  if (change?.type !== "model_change" || typeof change.provider !== "string" || typeof change.modelId !== "string") return undefined;
  const model = registry.find(change.provider, change.modelId);
  return model && isVirtualModel(model) ? model : undefined;
}

