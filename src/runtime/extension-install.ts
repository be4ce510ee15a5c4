/**
 * What one extension host registered, put where the rest of pig looks — commands, flags and
 * shortcuts into the registries the modes use, providers into the model registry, tools into the
 * session's tools — and taken out again when the host is replaced (`/reload`), so the next
 * host's registrations replace them instead of piling up.
 */
import type { ToolRegistry } from "../agent/tool-registry.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import type { ExtensionHost } from "../extensions/host/host.ts";
import type { ExtensionRegistries } from "../extensions/registries.ts";
import { isBuiltinToolName } from "../tools/index.ts";
import { syncProviders, type ProviderErrorReport } from "./extension-providers.ts";
import { syncVirtualModels } from "./extension-virtual-models.ts";
import type { RunNotices } from "./run-notices.ts";

export interface Installed {
  /** Conflicts worth a line (flags, registration diagnostics). */
  warnings: string[];
  /**
   * Joins the host's tools to the session's, now and as they are registered later; `already`:
   * the session was built with them (at startup), so they are not registered twice.
   */
  attachTools(tools: ToolRegistry, already?: boolean): void;
  /** Takes out everything this host put in. */
  uninstall(): void;
}

export interface InstallTargets {
  registries: ExtensionRegistries;
  models: ModelRegistry;
  report: ProviderErrorReport;
  /** Once per run: a built-in tool replaced, a provider with the user's credentials pointed elsewhere. */
  notices: RunNotices;
  modelsChanged?: () => void;
}

export function installHost(host: ExtensionHost, ids: readonly string[], targets: InstallTargets): Installed {
  const { registries, models, report, notices, modelsChanged } = targets;
  const warnings = host.diagnostics.map((d) => d.message);
  for (const command of host.commands()) {
    registries.commands.register(
      {
        name: command.name,
        ...(command.description ? { description: command.description } : {}),
        ...(command.complete ? { getArgumentCompletions: (prefix: string) => command.complete!(prefix) } : {}),
        handler: (args) => command.run(args),
      },
      { path: command.extension, source: "extension", scope: "temporary", origin: "top-level" },
    );
  }
  for (const flag of host.flags()) {
    const conflict = registries.flags.register(
      { name: flag.name, type: flag.type, ...(flag.description ? { description: flag.description } : {}), ...(flag.default !== undefined ? { default: flag.default } : {}) },
      flag.extension,
    );
    if (conflict) warnings.push(conflict.message);
  }
  for (const shortcut of host.shortcuts()) {
    registries.shortcuts.register(shortcut.key, { ...(shortcut.description ? { description: shortcut.description } : {}), handler: () => shortcut.run() }, shortcut.extension);
  }
  const undoProviders = syncProviders(host, models, { report, notice: (text) => notices.say(text), ...(modelsChanged ? { changed: modelsChanged } : {}) });
  const undoVirtualModels = syncVirtualModels(host, models, { report, ...(modelsChanged ? { changed: modelsChanged } : {}) });
  let undoTools = (): void => {};
  return {
    warnings,
    attachTools(tools, already = false) {
      // Which extension each name was registered for by this host (its proxies route to it).
      const registered = new Map<string, string>(already ? host.toolsWithOwners().map(({ tool, extension }) => [tool.name, extension]) : []);
      const sync = () => {
        const fresh = host.toolsWithOwners();
        const names = new Set(fresh.map(({ tool }) => tool.name));
        // A tool of the previous host nobody registered again goes; the rest are replaced in place.
        for (const entry of tools.all()) if (entry.source.kind === "extension" && !names.has(entry.tool.name)) tools.unregister(entry.tool.name);
        for (const { tool, extension } of fresh) {
          // Upstream lets an extension's tool take a built-in's name; the user hears of it.
          if (isBuiltinToolName(tool.name)) notices.say(`Extension "${extension}" replaces the built-in tool "${tool.name}"; the model's ${tool.name} calls run the extension's tool`);
          if (registered.get(tool.name) === extension && tools.get(tool.name)) continue;
          registered.set(tool.name, extension);
          tools.register(tool, { kind: "extension", path: extension });
        }
      };
      sync();
      undoTools = host.onChange(sync);
    },
    uninstall() {
      undoTools();
      undoProviders();
      undoVirtualModels();
      for (const id of ids) {
        registries.commands.unregisterFrom(id);
        registries.flags.unregisterFrom(id);
        registries.shortcuts.unregisterFrom(id);
      }
    },
  };
}
