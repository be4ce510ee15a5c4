/**
 * Where a run's extensions are found, from its settings and command line: the options of
 * `discoverExtensions` (discovery.ts). The project's own (its settings' list, its folder) only in
 * a trusted project; the project-trust question uses the same with `trusted: false`, so the host
 * started to ask it holds exactly what an untrusted run loads.
 */
import { installedPackages, settingsPackages } from "../resources/settings-packages.ts";
import type { Settings } from "../resources/settings.ts";
import type { DiscoveryOptions } from "./discovery.ts";

export interface DiscoveryInput {
  /** `-e` paths and `--no-extensions`. */
  choice: { paths?: readonly string[]; noExtensions?: boolean };
  cwd: string;
  agentDir: string;
  /** Whether the project's own extensions may load. */
  trusted: boolean;
  userSettings: Settings;
  projectSettings: Settings;
}

export function discoveryOptions(input: DiscoveryInput): DiscoveryOptions {
  const where = { agentDir: input.agentDir, cwd: input.cwd, trusted: input.trusted };
  // Problems with packages are said by the resources stage, which reads the same settings.
  const installed = installedPackages(settingsPackages(input.userSettings, input.trusted ? input.projectSettings : {}, where).packages, where).packages;
  const packagePaths = installed.flatMap((pkg) => pkg.files.extensions.map((path) => ({ path, scope: pkg.scope })));
  return {
    ...(packagePaths.length > 0 ? { packagePaths } : {}),
    cwd: input.cwd,
    agentDir: input.agentDir,
    projectTrusted: input.trusted,
    ...(input.choice.paths ? { cliPaths: input.choice.paths } : {}),
    noExtensions: input.choice.noExtensions ?? false,
    ...(input.trusted && input.projectSettings.extensions ? { projectSettingsPaths: input.projectSettings.extensions } : {}),
    ...(input.userSettings.extensions ? { userSettingsPaths: input.userSettings.extensions } : {}),
  };
}
