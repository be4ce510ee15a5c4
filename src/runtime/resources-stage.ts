/**
 * The run's resources (context files, prompts, skills, templates, themes), loaded once at start
 * and again on `/reload`; whoever reads them later reads the latest through `current()`.
 */
import { resolve } from "node:path";
import { loadResources, type LoadedResources } from "../resources/load-resources.ts";
import type { RuntimeConfig } from "./config.ts";
import type { OpenedSession } from "./open-store.ts";
import type { DiscoveredPaths } from "./run-extensions.ts";
import { installedPackages, settingsPackages } from "../resources/settings-packages.ts";

export interface RunResources {
  current(): LoadedResources;
  /** Reads everything again; the next request uses it. */
  reload(): LoadedResources;
}

/**
 * `runConfig` is asked at each load (a switch of Piglet changes it); `discovered` too: its paths join the command line's (`--skill`,
 * `--prompt-template`, `--theme`), after them.
 */
export function loadRunResources(runConfig: () => RuntimeConfig, opened: OpenedSession, agentDir: string, discovered?: () => DiscoveredPaths): RunResources {
  const { trust, settings, cwd } = opened;
  const load = () => {
    const config = runConfig();
    const flags = config.resources ?? {};
    const extra = discovered?.();
    const add = (given: readonly string[] | undefined, paths: readonly string[] | undefined) =>
      paths && paths.length > 0 ? [...(given ?? []), ...paths.map((p) => resolve(cwd, p))] : given;
    const skills = add(flags.skills, extra?.skillPaths);
    const promptTemplates = add(flags.promptTemplates, extra?.promptPaths);
    const themes = add(flags.themes, extra?.themePaths);
    const where = { agentDir, cwd, trusted: trust.trusted };
    const named = settingsPackages(settings.global, trust.trusted ? settings.project : {}, where);
    const installed = installedPackages(named.packages, where);
    const loaded = loadResources({
      cwd,
      agentDir,
      trusted: trust.trusted,
      userSettings: settings.global,
      projectSettings: trust.trusted ? settings.project : {},
      installedPackages: installed.packages,
      ...(config.extensions?.paths ? { extensionPaths: config.extensions.paths } : {}),
      flags: { ...flags, ...(skills ? { skills } : {}), ...(promptTemplates ? { promptTemplates } : {}), ...(themes ? { themes } : {}) },
    });
    // A package that cannot be used is said, naming it; the rest load.
    for (const message of [...named.problems, ...installed.problems]) loaded.diagnostics.push({ level: "warning", message });
    return loaded;
  };
  let resources = load();
  return {
    current: () => resources,
    reload() {
      resources = load();
      return resources;
    },
  };
}
