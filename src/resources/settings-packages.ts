/**
 * The `packages` arrays of the user's and (in a trusted project) the project's settings, as
 * installed packages and their resources. An entry is a source string, or
 * `{source, extensions?, skills?, prompts?, themes?}` whose lists filter that kind's resources
 * with the settings' pattern syntax (omitted: all; `[]`: none). A local path is relative to the
 * settings file's folder. A package named in both scopes is the project's.
 */
import { isInstalled, isTarball, packageDir, scopeDir, type InstallScope } from "./package-install.ts";
import { PackageSourceError, parsePackageSource, samePackage, type PackageSource } from "./package-source.ts";
import { readLocalPackage, type PackageFiles } from "./packages.ts";
import { RESOURCE_KINDS, type ResourceKind } from "./resource-paths.ts";
import { packageFilterKeeps } from "./resource-patterns.ts";
import { globalSettingsPath, projectSettingsPath, type Settings } from "./settings.ts";

export interface SettingsPackage {
  source: PackageSource;
  scope: InstallScope;
  /** Per-kind filters of the object form. */
  filters: Partial<Record<ResourceKind, readonly string[]>>;
  /** The settings file that names it. */
  settingsFile: string;
  /** Its entry in that file's `packages`, and where there. */
  entry: PackageEntry;
  index: number;
}

export interface PackageWhere {
  agentDir: string;
  cwd: string;
  trusted: boolean;
}

export type PackageEntry = NonNullable<Settings["packages"]>[number];

function entriesOf(settings: Settings, scope: InstallScope, where: Pick<PackageWhere, "agentDir" | "cwd">, problems: string[]): SettingsPackage[] {
  const settingsFile = scope === "user" ? globalSettingsPath(where.agentDir) : projectSettingsPath(where.cwd);
  const base = scopeDir({ ...where, scope });
  return (settings.packages ?? []).flatMap((entry: PackageEntry, index) => {
    const raw = typeof entry === "string" ? entry : entry.source;
    try {
      const filters: SettingsPackage["filters"] = {};
      if (typeof entry !== "string") for (const kind of RESOURCE_KINDS) if (entry[kind] !== undefined) filters[kind] = entry[kind];
      return [{ source: parsePackageSource(raw, base), scope, filters, settingsFile, entry, index }];
    } catch (error) {
      if (!(error instanceof PackageSourceError)) throw error;
      problems.push(`${settingsFile}: "packages": ${error.message}`);
      return [];
    }
  });
}

/** The packages one settings file names, in its order; an entry that is not a source is a problem. */
export function scopePackages(settings: Settings, scope: InstallScope, where: Pick<PackageWhere, "agentDir" | "cwd">): { packages: SettingsPackage[]; problems: string[] } {
  const problems: string[] = [];
  return { packages: entriesOf(settings, scope, where, problems), problems };
}

/** The packages the settings name, the project's first; a package in both scopes once (the project's). */
export function settingsPackages(user: Settings, project: Settings, where: PackageWhere): { packages: SettingsPackage[]; problems: string[] } {
  const problems: string[] = [];
  const projectList = where.trusted ? entriesOf(project, "project", where, problems) : [];
  const userList = entriesOf(user, "user", where, problems).filter((u) => !projectList.some((p) => samePackage(p.source, u.source)));
  return { packages: [...projectList, ...userList], problems };
}

export interface InstalledPackage {
  /** The source as written. */
  source: string;
  scope: InstallScope;
  root: string;
  files: PackageFiles;
}

/** A named package's folder and its resources (before the entry's filters), or what stands in the way. */
export function readSettingsPackage(
  pkg: Pick<SettingsPackage, "source" | "scope" | "settingsFile">,
  where: Pick<PackageWhere, "agentDir" | "cwd">,
): { root: string; files: PackageFiles } | { problem: string } {
  const place = { agentDir: where.agentDir, cwd: where.cwd, scope: pkg.scope };
  if (!isInstalled(pkg.source, place)) {
    const folder = pkg.source.kind === "local" && !isTarball(pkg.source);
    return {
      problem: folder
        ? `package ${pkg.source.raw} (${pkg.settingsFile}): ${packageDir(pkg.source, place)} does not exist`
        : `package ${pkg.source.raw} (${pkg.settingsFile}) is not installed: run pig install ${pkg.source.raw}${pkg.scope === "project" ? " -l" : ""}`,
    };
  }
  const root = packageDir(pkg.source, place);
  const files = readLocalPackage(root);
  if (!files) return { problem: `package ${pkg.source.raw} (${root}): no "pi" or "pig" key in its package.json and none of extensions/, skills/, prompts/, themes/` };
  return { root, files };
}

/** Each installed package's resources, filtered; a package not installed or not a package is a problem naming it. */
export function installedPackages(list: readonly SettingsPackage[], where: PackageWhere): { packages: InstalledPackage[]; problems: string[] } {
  const problems: string[] = [];
  const packages: InstalledPackage[] = [];
  for (const pkg of list) {
    const read = readSettingsPackage(pkg, where);
    if ("problem" in read) {
      problems.push(read.problem);
      continue;
    }
    const { root, files } = read;
    const filtered = {} as PackageFiles;
    for (const kind of RESOURCE_KINDS) {
      const kept = packageFilterKeeps(files[kind], pkg.filters[kind], root);
      filtered[kind] = files[kind].filter((f) => kept.has(f));
    }
    packages.push({ source: pkg.source.raw, scope: pkg.scope, root, files: filtered });
  }
  return { packages, problems };
}
