/**
 * `/scoped-models`: which models Ctrl+P (and Ctrl+Shift+P) cycle through. The choice applies to
 * this session at once and can be saved as `enabledModels` in the global settings.
 */
import type { Model } from "../../../ai/types.ts";
import { globalSettingsPath } from "../../../resources/settings.ts";
import type { SlashCommand } from "../host.ts";
import { about } from "./about.ts";

const ref = (model: Model) => `${model.provider}/${model.id}`;

export const scopedModelsCommand: SlashCommand = {
  ...about("scoped-models"),
  async run(host) {
    const available = host.registry.available();
    if (available.length === 0) {
      host.info("No model has a key configured; /login stores one.");
      return;
    }
    const current = new Set(host.session.scopedModels.map(ref));
    const chosen = await host.pickMany(
      "Models to cycle with Ctrl+P (none selected: every available model)",
      available.map((model) => ({ value: ref(model), label: ref(model), ...(model.name && model.name !== model.id ? { hint: model.name } : {}) })),
      available.map(ref).filter((r) => current.has(r)),
    );
    if (chosen === undefined) return;
    const models = available.filter((model) => chosen.includes(ref(model)));
    host.session.setScopedModels(models);
    host.info(models.length > 0 ? `Ctrl+P cycles through ${models.length} model${models.length === 1 ? "" : "s"}.` : "Ctrl+P cycles through every available model.");
    if (!(await host.confirm("Save this as enabledModels in the global settings?", false))) return;
    if (host.settings.setGlobal(["enabledModels"], models.length > 0 ? models.map(ref) : undefined)) {
      host.info(`Saved enabledModels in ${globalSettingsPath(host.agentDir)}.`);
    }
    for (const diagnostic of host.settings.drainDiagnostics()) host.warn(diagnostic.message);
  },
};
