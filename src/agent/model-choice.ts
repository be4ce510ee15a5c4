/**
 * Choosing models and thinking levels: by name, by cycling (through `--models` / `enabledModels`
 * when given, else every model with a key), or directly. Each choice is remembered as the
 * default for the next start, and the model chosen last is the one `/new` starts on.
 */
import type { ModelRegistry } from "../ai/registry.ts";
import { supportedThinkingLevels, THINKING_LEVELS } from "../ai/thinking.ts";
import type { Model } from "../ai/types.ts";
import type { ThinkingLevel } from "../session/format.ts";
import { PromptError } from "./errors.ts";

export interface ModelChoiceHost {
  registry: ModelRegistry;
  /** Writes a global setting (nowhere when the session has no settings store). */
  remember(path: string[], value: unknown): void;
  current(): { model: Model | undefined; level: ThinkingLevel };
  switchModel(model: Model): void;
  switchLevel(level: ThinkingLevel): void;
  scopedModels?: Model[];
  scopedThinking?: Record<string, ThinkingLevel>;
  chosenModel?: Model;
}

export class ModelChoice {
  /** The model last chosen by the user (flag, `/model`, cycling): a new session starts on it. */
  private chosen: Model | undefined;
  private scoped: Model[];

  constructor(private readonly host: ModelChoiceHost) {
    this.chosen = host.chosenModel;
    this.scoped = host.scopedModels ?? [];
  }

  /** The model chosen last, when it still has a key. */
  chosenWithKey(): Model | undefined {
    return this.chosen && this.host.registry.hasKey(this.chosen.provider) ? this.chosen : undefined;
  }

  setModel(modelOrProvider: Model | string, modelId?: string): Model {
    let model: Model | undefined;
    if (typeof modelOrProvider === "string") {
      model = this.host.registry.find(modelOrProvider, modelId ?? "");
      if (!model || !this.host.registry.hasKey(modelOrProvider)) throw new PromptError(`Model not found: ${modelOrProvider}/${modelId}`);
    } else {
      model = modelOrProvider;
    }
    this.host.switchModel(model);
    this.persistModel(model);
    return model;
  }

  private persistModel(model: Model): void {
    this.host.remember(["defaultProvider"], model.provider);
    this.host.remember(["defaultModel"], model.id);
    this.chosen = model;
  }

  get scopedModels(): readonly Model[] {
    return this.scoped;
  }

  setScopedModels(models: readonly Model[]): void {
    this.scoped = [...models];
  }

  cycleModel(direction: "forward" | "backward"): { model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | null {
    const scoped = this.scoped.length > 0;
    const candidates = scoped ? this.scoped : this.host.registry.available();
    if (candidates.length < 2) return null;
    const current = this.host.current().model;
    const index = candidates.findIndex((m) => m.provider === current?.provider && m.id === current?.id);
    const step = direction === "forward" ? 1 : -1;
    // Not in the list: forward starts at the first model, backward at the last.
    const from = index === -1 && step === -1 ? 0 : index;
    const next = candidates[(from + step + candidates.length) % candidates.length]!;
    this.host.switchModel(next);
    const level = scoped ? this.host.scopedThinking?.[`${next.provider}/${next.id}`] : undefined;
    if (level) this.host.switchLevel(level);
    this.persistModel(next);
    return { model: next, thinkingLevel: this.host.current().level, isScoped: scoped };
  }

  setThinkingLevel(level: ThinkingLevel): void {
    this.host.switchLevel(level);
    const { model, level: now } = this.host.current();
    // A model without reasoning runs with "off" whatever was asked: not worth remembering.
    if (model?.reasoning || now !== "off") this.host.remember(["defaultThinkingLevel"], now);
  }

  availableThinkingLevels(): ThinkingLevel[] {
    const model = this.host.current().model;
    return model ? supportedThinkingLevels(model) : [...THINKING_LEVELS];
  }

  cycleThinkingLevel(): { level: ThinkingLevel } | null {
    const { model, level } = this.host.current();
    if (!model || !model.reasoning) return null;
    const levels = supportedThinkingLevels(model);
    const next = levels[(levels.indexOf(level) + 1) % levels.length]!;
    this.setThinkingLevel(next);
    return { level: this.host.current().level };
  }
}
