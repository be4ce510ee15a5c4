/**
 * The `packages` arrays of the user's and (in a trusted project) the project's settings, as
 * installed packages and their resources. An entry is a source string, or
 * `{source, extensions?, skills?, prompts?, themes?}` whose lists filter that kind's resources
 * with the settings' pattern syntax (omitted: all; `[]`: none). A local path is relative to the
 * settings file's folder. A package named in both scopes is the project's.
 *
 * `autoload: false` makes an entry a delta: only the files its patterns name get a state (`+x`
 * and `-x` exact, a glob on, `!glob` off; the last pattern naming a file wins), and nothing else
 * of the package loads through it. A project delta whose package the user's settings also name
 * reads the user's installation, and the user's entry then loads the files the delta left alone.
 * Across entries, the first state given to a file stands.
 */
import { isInstalled, isTarball, packageDir, scopeDir, type InstallScope } from "./package-place.ts";
import { PackageSourceError, parsePackageSource, samePackage, type PackageSource } from "./package-source.ts";
import { readLocalPackage, type PackageFiles } from "./packages.ts";
import { RESOURCE_KINDS, type ResourceKind } from "./resource-paths.ts";
import { matchesAnyExact, matchesAnyGlob, packageFilterKeeps } from "./resource-patterns.ts";
import { globalSettingsPath, projectSettingsPath, type Settings } from "./settings.ts";

export interface SettingsPackage {
  source: PackageSource;
  scope: InstallScope;
  /** Per-kind filters of the object form. */
  filters: Partial<Record<ResourceKind, readonly string[]>>;
  /** The settings file that names it. */
  settingsFile: string;
  /** `autoload: false`: a delta that states only the files its patterns name. */
  delta: boolean;
  /** A project delta over the user's entry for the same package: where that one is installed. */
  over?: { source: PackageSource; scope: InstallScope };
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
      const delta = typeof entry !== "string" && entry.autoload === false;
      return [{ source: parsePackageSource(raw, base), scope, filters, settingsFile, delta, entry, index }];
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

/**
 * The packages the settings name, the project's first. A package in both scopes loads once, as
 * the project's, unless the project's entry is a delta: then both stay, the delta first.
 */
export function settingsPackages(user: Settings, project: Settings, where: PackageWhere): { packages: SettingsPackage[]; problems: string[] } {
  const problems: string[] = [];
  const projectList = where.trusted ? entriesOf(project, "project", where, problems) : [];
  const userAll = entriesOf(user, "user", where, problems);
  const withBase = projectList.map((p): SettingsPackage => {
    const base = p.delta ? userAll.find((u) => samePackage(p.source, u.source)) : undefined;
    return base ? { ...p, over: { source: base.source, scope: "user" } } : p;
  });
  const userList = userAll.filter((u) => {
    const named = withBase.find((p) => samePackage(p.source, u.source));
    return !named || named.over !== undefined;
  });
  return { packages: [...withBase, ...userList], problems };
}

export interface InstalledPackage {
  /** The source as written. */
  source: string;
  scope: InstallScope;
  root: string;
  files: PackageFiles;
}

/** The state `patterns` give each file of `files` they name; files they do not name are absent. */
export function deltaStates(files: readonly string[], patterns: readonly string[], root: string): Map<string, boolean> {
  const states = new Map<string, boolean>();
  for (const pattern of patterns) {
    const prefix = /^[+!-]/.test(pattern) ? pattern[0] : "";
    const target = prefix ? pattern.slice(1) : pattern;
    const names = prefix === "+" || prefix === "-" ? (f: string) => matchesAnyExact(f, [target], root) : (f: string) => matchesAnyGlob(f, [target], root);
    for (const file of files) if (names(file)) states.set(file, prefix === "" || prefix === "+");
  }
  return states;
}

/** The state a plain or filtered entry gives each of the package's files. */
function entryStates(files: readonly string[], filter: readonly string[] | undefined, root: string): Map<string, boolean> {
  const kept = packageFilterKeeps(files, filter, root);
  return new Map(files.map((f) => [f, kept.has(f)]));
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

/**
 * Each installed package's enabled resources. A package not installed or not a package is a
 * problem naming it (a delta over the user's entry leaves that report to the user's entry).
 */
export function installedPackages(list: readonly SettingsPackage[], where: PackageWhere): { packages: InstalledPackage[]; problems: string[] } {
  const problems: string[] = [];
  const packages: InstalledPackage[] = [];
  const stated = Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, new Set<string>()])) as Record<ResourceKind, Set<string>>;
  for (const pkg of list) {
    const read = readSettingsPackage(pkg.over ? { ...pkg.over, settingsFile: pkg.settingsFile } : pkg, where);
    if ("problem" in read) {
      if (!pkg.over) problems.push(read.problem);
      continue;
    }
    const { root, files } = read;
    const enabled = {} as PackageFiles;
    for (const kind of RESOURCE_KINDS) {
      const states = pkg.delta ? deltaStates(files[kind], pkg.filters[kind] ?? [], root) : entryStates(files[kind], pkg.filters[kind], root);
      enabled[kind] = [];
      for (const file of files[kind]) {
        const on = states.get(file);
        if (on === undefined || stated[kind].has(file)) continue;
        stated[kind].add(file);
        if (on) enabled[kind].push(file);
      }
    }
    packages.push({ source: pkg.source.raw, scope: pkg.scope, root, files: enabled });
  }
  return { packages, problems };
}
