/**
 * The run's resources (context files, prompts, skills, templates, themes), loaded once at start
 * and again on `/reload`; whoever reads them later reads the latest through `current()`.
 */
import { loadResources, type LoadedResources } from "../resources/load-resources.ts";
import type { RuntimeConfig } from "./config.ts";
import type { OpenedSession } from "./open-store.ts";

export interface RunResources {
  current(): LoadedResources;
  /** Reads everything again; the next request uses it. */
  reload(): LoadedResources;
}

export function loadRunResources(config: RuntimeConfig, opened: OpenedSession, agentDir: string): RunResources {
  const { trust, settings, cwd } = opened;
  const load = () =>
    loadResources({
      cwd,
      agentDir,
      trusted: trust.trusted,
      userSettings: settings.global,
      projectSettings: trust.trusted ? settings.project : {},
      flags: config.resources ?? {},
    });
  let resources = load();
  return {
    current: () => resources,
    reload() {
      resources = load();
      return resources;
    },
  };
}
