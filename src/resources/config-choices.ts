/**
 * What `pig config` offers for one settings file: each installed package it names, with every
 * file the package provides (its manifest's, before the entry's filters), and the file's own
 * resources of each kind (those its lists name and those in its scope's folders).
 */
import { scopeDir, type InstallScope } from "./package-place.ts";
import type { PackageFiles } from "./packages.ts";
import { RESOURCE_KINDS, scopeResourceFiles, type ResourceKind, type ScopeResourceFile } from "./resource-paths.ts";
import { packageFilterKeeps } from "./resource-patterns.ts";
import { scopeListKeeps, type ResourceList } from "./resource-toggles.ts";
import { readSettingsPackage, scopePackages, type SettingsPackage } from "./settings-packages.ts";
import type { Settings } from "./settings.ts";

export interface PackageChoice {
  pkg: SettingsPackage;
  root: string;
  /** Every file of each kind the package provides. */
  files: PackageFiles;
  /** Those that load now, under the entry's filters. */
  enabled: Record<ResourceKind, Set<string>>;
}

export interface OwnChoice {
  /** The folder its patterns are relative to: the agent dir, or the project's `.pig/`. */
  base: string;
  files: Record<ResourceKind, ScopeResourceFile[]>;
  lists: Record<ResourceKind, ResourceList>;
  /** Those that load now, under the lists' patterns. */
  enabled: Record<ResourceKind, Set<string>>;
}

export interface ConfigChoices {
  packages: PackageChoice[];
  own: OwnChoice;
  /** Packages left out, and why (not installed, not a package, nothing in it). */
  problems: string[];
}

export interface ConfigWhere {
  agentDir: string;
  cwd: string;
  home: string;
}

export function hasOwnFiles(own: OwnChoice): boolean {
  return RESOURCE_KINDS.some((kind) => own.files[kind].length > 0);
}

function ownChoice(settings: Settings, scope: InstallScope, where: ConfigWhere): OwnChoice {
  const base = scopeDir({ ...where, scope });
  const files = {} as OwnChoice["files"];
  const lists = {} as OwnChoice["lists"];
  const enabled = {} as OwnChoice["enabled"];
  for (const kind of RESOURCE_KINDS) {
    lists[kind] = settings[kind];
    files[kind] = scopeResourceFiles(kind, { scope, entries: settings[kind] ?? [], ...where });
    enabled[kind] = scopeListKeeps(files[kind], settings[kind] ?? [], base);
  }
  return { base, files, lists, enabled };
}

export function configChoices(settings: Settings, scope: InstallScope, where: ConfigWhere): ConfigChoices {
  const named = scopePackages(settings, scope, where);
  const problems = [...named.problems];
  const packages: PackageChoice[] = [];
  for (const pkg of named.packages) {
    if (pkg.delta) {
      problems.push(`package ${pkg.source.raw} (${pkg.settingsFile}) has "autoload": false, so it loads only what its patterns name; edit them in that file`);
      continue;
    }
    const read = readSettingsPackage(pkg, where);
    if ("problem" in read) {
      problems.push(read.problem);
      continue;
    }
    if (RESOURCE_KINDS.every((kind) => read.files[kind].length === 0)) {
      problems.push(`package ${pkg.source.raw} (${read.root}) provides no extensions, skills, prompt templates or themes`);
      continue;
    }
    const enabled = {} as PackageChoice["enabled"];
    for (const kind of RESOURCE_KINDS) enabled[kind] = packageFilterKeeps(read.files[kind], pkg.filters[kind], read.root);
    packages.push({ pkg, root: read.root, files: read.files, enabled });
  }
  return { packages, own: ownChoice(settings, scope, where), problems };
}
