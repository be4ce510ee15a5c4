/**
 * `/model [search]`: choose among the models that have a key. An argument naming exactly one
 * model (`provider/id`, or an id only one provider has) switches at once; any other argument
 * narrows the list first.
 */
import type { Model } from "../../../ai/types.ts";
import type { InteractiveHost, PickOption, SlashCommand } from "../host.ts";
import { formatTokens, matchesWords } from "./format.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";
import { about } from "./about.ts";

const key = (model: Model) => `${model.provider}/${model.id}`;

/** The one model `arg` names exactly, if any. */
export function exactModel(models: readonly Model[], arg: string): Model | undefined {
  const wanted = arg.trim().toLowerCase();
  const full = models.find((m) => key(m).toLowerCase() === wanted);
  if (full) return full;
  const byId = models.filter((m) => m.id.toLowerCase() === wanted);
  return byId.length === 1 ? byId[0] : undefined;
}

export function modelOption(model: Model, current: Model | undefined): PickOption<Model> {
  const facts = [`${formatTokens(model.contextWindow)} context`];
  if (model.reasoning) facts.push("reasoning");
  if (model.input.includes("image")) facts.push("images");
  if (current && key(current) === key(model)) facts.push("current");
  return { value: model, label: terminalSafe(key(model)), hint: facts.join(" · ") };
}

function switchTo(host: InteractiveHost, model: Model): void {
  const chosen = host.session.setModel(model.provider, model.id);
  const level = host.session.thinkingLevel;
  host.info(`Model: ${key(chosen)}${chosen.reasoning ? ` (thinking: ${level})` : ""}`);
  for (const diagnostic of host.settings.drainDiagnostics()) host.warn(diagnostic.message);
}

export const modelCommand: SlashCommand = {
  ...about("model"),
  async run(host, args) {
    const models = host.session.availableModels();
    if (models.length === 0) {
      host.warn("No models available: no provider has an API key. Set one (e.g. OPENAI_API_KEY) or add it to auth.json.");
      return;
    }
    const exact = args ? exactModel(models, args) : undefined;
    if (exact) return switchTo(host, exact);
    const shown = args ? models.filter((m) => matchesWords(args, `${key(m)} ${m.name}`)) : models;
    if (shown.length === 0) {
      host.warn(`No available model matches "${args}".`);
      return;
    }
    const current = host.session.model;
    const initial = current ? shown.find((m) => key(m) === key(current)) : undefined;
    const picked = await host.pick(
      "Model",
      shown.map((m) => modelOption(m, current)),
      { search: true, ...(initial ? { initial } : {}) },
    );
    if (picked) switchTo(host, picked);
  },
};
