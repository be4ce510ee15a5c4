/**
 * Which files of one resource kind (skills, prompt templates, themes, extensions) a run uses,
 * in precedence order, with where each came from. Loading and naming the resources is the
 * kind's own module's job; "first name wins" is decided there, on this order.
 *
 * Order (upstream Pi 0.73.1): resources of `-e` packages → project settings entries → project
 * auto-discovered → user settings entries → user auto-discovered → packages (project, then user)
 * → `--skill` / `--prompt-template` / `--theme` paths. For extensions the `-e` paths come first
 * instead of last. The same file reached twice (e.g. through a symlink) is used once, at its
 * first place.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import {
  collectExtensionFiles,
  collectFilesDeep,
  collectSkillFiles,
  listFiles,
} from "./resource-files.ts";
import { applyPatterns, enabledByOverrides, splitEntries } from "./resource-patterns.ts";
import {
  autoDiscoveredSource,
  cliExtensionSource,
  cliPathSource,
  packageSource,
  settingsEntrySource,
  type SourceSettingsScope,
  type SourceInfo,
  type SourceScope,
} from "./source-info.ts";

export const RESOURCE_KINDS = ["skills", "prompts", "themes", "extensions"] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** Resources of one kind that a package provides; package installation and manifests live elsewhere. */
export interface PackageResources {
  /** The package source as written in settings or on the command line, e.g. `npm:foo`. */
  source: string;
  /** `temporary` for `-e` packages, whose resources come before everything else. */
  scope: SourceScope;
  /** The package's root directory (reported as `sourceInfo.baseDir`). */
  root?: string;
  /** Files or directories of this kind, already filtered by the package manifest and settings. */
  paths: readonly string[];
}

export interface ResourcePathOptions {
  cwd: string;
  agentDir: string;
  /** Used for `~` and for `~/.agents/skills`. */
  home: string;
  /** The kind's array in `<cwd>/.pig/settings.json`. */
  projectEntries?: readonly string[];
  /** The kind's array in `<agentDir>/settings.json`. */
  userEntries?: readonly string[];
  packageDirs?: readonly PackageResources[];
  /** `--skill` / `--prompt-template` / `--theme` values, or local `-e` paths for extensions. */
  cliPaths?: readonly string[];
  /** False for `--no-skills` and friends: only `-e` package resources and CLI paths remain. Default true. */
  includeDiscovered?: boolean;
  /** False in an untrusted project: nothing from project scope is used. */
  trusted: boolean;
}

export interface ResourceCollision {
  resourceType: "skill" | "prompt" | "theme" | "extension";
  name: string;
  winnerPath: string;
  loserPath: string;
}

export interface ResourceDiagnostic {
  type: "warning" | "error" | "collision";
  message: string;
  path?: string;
  collision?: ResourceCollision;
}

export interface ResolvedResource {
  path: string;
  sourceInfo: SourceInfo;
}

export interface ResolvedResources {
  resources: ResolvedResource[];
  diagnostics: ResourceDiagnostic[];
}

const LABELS: Record<ResourceKind, string> = {
  skills: "Skill",
  prompts: "Prompt template",
  themes: "Theme",
  extensions: "Extension",
};

/** The file ending a resource file of the kind must have; extensions accept any entry point. */
const FILE_ENDINGS: Record<ResourceKind, string | undefined> = {
  skills: ".md",
  prompts: ".md",
  themes: ".json",
  extensions: undefined,
};

/** `<cwd>/.pig`: project settings, and the base of relative project settings entries. */
export function projectConfigDir(cwd: string): string {
  return join(cwd, ".pig");
}

/** Upstream's tilde rule: `~`, `~/x` and also `~x` (read as `~/x`) are under the home directory. */
export function expandTilde(input: string, home: string): string {
  const trimmed = input.trim();
  if (trimmed === "~") return home;
  if (trimmed.startsWith("~/")) return join(home, trimmed.slice(2));
  if (trimmed.startsWith("~")) return join(home, trimmed.slice(1));
  return trimmed;
}

export function resolveEntryPath(input: string, baseDir: string, home: string): string {
  return resolve(baseDir, expandTilde(input, home));
}

/** The nearest directory at or above `start` holding `.git` (a directory or a worktree file). */
export function findGitRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The project's `.agents/skills` dirs: cwd's and each ancestor's up to the git root (to the
 * filesystem root outside a repository), nearest first, without the user's `~/.agents/skills`.
 */
export function projectAgentsSkillDirs(cwd: string, home: string): string[] {
  const userDir = resolve(home, ".agents", "skills");
  const gitRoot = findGitRoot(cwd);
  const dirs: string[] = [];
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, ".agents", "skills");
    if (candidate !== userDir) dirs.push(candidate);
    if (dir === gitRoot) break;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs;
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function kindOf(path: string): "file" | "dir" | undefined {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? "dir" : stats.isFile() ? "file" : undefined;
  } catch {
    return undefined;
  }
}

/** The files a settings entry or package path stands for (settings and package dirs are searched recursively). */
export function filesOfEntry(kind: ResourceKind, path: string): string[] {
  const type = kindOf(path);
  if (type === "file") return [path];
  if (type !== "dir") return [];
  if (kind === "skills") return collectSkillFiles(path, "pig");
  if (kind === "extensions") return collectExtensionFiles(path);
  return collectFilesDeep(path, FILE_ENDINGS[kind] ?? "");
}

/** The files of a scope's auto-discovered directories. */
function autoFiles(kind: ResourceKind, scopeDir: string, agentsSkillDirs: readonly string[]): string[] {
  const dir = join(scopeDir, kind);
  if (kind === "skills") {
    return [...collectSkillFiles(dir, "pig"), ...agentsSkillDirs.flatMap((d) => collectSkillFiles(d, "agents"))];
  }
  if (kind === "extensions") return collectExtensionFiles(dir);
  return listFiles(dir, FILE_ENDINGS[kind] ?? "", true);
}

/** The files a CLI directory stands for: prompt and theme dirs are read one level deep, unfiltered. */
function filesOfCliDir(kind: ResourceKind, dir: string): string[] {
  if (kind === "skills") return collectSkillFiles(dir, "pig");
  if (kind === "extensions") return [dir]; // the extension loader resolves a directory's entry point
  return listFiles(dir, FILE_ENDINGS[kind] ?? "", false);
}

interface Candidate {
  path: string;
  sourceInfo: SourceInfo;
  enabled: boolean;
}

function settingsCandidates(kind: ResourceKind, entries: readonly string[], scope: SourceSettingsScope, baseDir: string, home: string): Candidate[] {
  const { plain, patterns } = splitEntries(entries);
  const files = plain.flatMap((entry) => filesOfEntry(kind, resolveEntryPath(entry, baseDir, home)));
  const enabled = applyPatterns(files, patterns, baseDir);
  return files.map((path) => ({ path, sourceInfo: settingsEntrySource(path, scope), enabled: enabled.has(path) }));
}

function autoCandidates(files: readonly string[], entries: readonly string[], scope: SourceSettingsScope, baseDir: string): Candidate[] {
  return files.map((path) => ({
    path,
    sourceInfo: autoDiscoveredSource(path, scope, baseDir),
    enabled: enabledByOverrides(path, entries, baseDir),
  }));
}

function packageCandidates(kind: ResourceKind, pkg: PackageResources): Candidate[] {
  return pkg.paths.flatMap((p) => filesOfEntry(kind, p)).map((path) => ({
    path,
    sourceInfo: packageSource(path, pkg.source, pkg.scope, pkg.root),
    enabled: true,
  }));
}

function cliSourceInfo(kind: ResourceKind, file: string, options: ResourcePathOptions): SourceInfo {
  if (kind === "extensions") return cliExtensionSource(file);
  const userRoot = join(options.agentDir, kind);
  const projectRoot = join(projectConfigDir(options.cwd), kind);
  const root = isUnder(file, userRoot) ? userRoot : isUnder(file, projectRoot) ? projectRoot : undefined;
  const scope: SourceScope = root === userRoot ? "user" : root === projectRoot ? "project" : "temporary";
  // Skills are relative to their own directory; templates and themes to the kind's root when under one.
  const baseDir = kind === "skills" || root === undefined ? dirname(file) : root;
  return cliPathSource(file, scope, baseDir);
}

function cliCandidates(kind: ResourceKind, options: ResourcePathOptions, diagnostics: ResourceDiagnostic[]): Candidate[] {
  const out: Candidate[] = [];
  for (const raw of options.cliPaths ?? []) {
    const path = resolve(options.cwd, expandTilde(raw, options.home));
    const type = kindOf(path);
    if (type === undefined) {
      diagnostics.push({ type: "error", message: `${LABELS[kind]} path does not exist: ${raw}`, path: raw });
      continue;
    }
    const files = type === "dir" ? filesOfCliDir(kind, path) : [path];
    for (const file of files) out.push({ path: file, sourceInfo: cliSourceInfo(kind, file, options), enabled: true });
  }
  return out;
}

/**
 * The enabled candidates, each canonical path at its first place. A disabled first occurrence
 * still hides later ones of the same group (upstream dedupes before applying the filters).
 */
function firstEnabled(candidates: readonly Candidate[]): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    const key = canonical(candidate.path);
    if (seen.has(key)) continue;
    seen.add(key);
    if (candidate.enabled) out.push(candidate);
  }
  return out;
}

/** A file a settings scope provides itself: named by its list (`listed`), or found in its folders. */
export interface ScopeResourceFile {
  path: string;
  listed: boolean;
}

/**
 * The files of one kind that a settings scope provides itself, each once at its first place, in
 * load order, whether its list's patterns enable them or not (`pig config` lists them all).
 */
export function scopeResourceFiles(
  kind: ResourceKind,
  options: { scope: SourceSettingsScope; entries: readonly string[]; cwd: string; agentDir: string; home: string },
): ScopeResourceFile[] {
  const { scope, entries, cwd, agentDir, home } = options;
  const base = scope === "project" ? projectConfigDir(cwd) : agentDir;
  const agentsDirs = kind !== "skills" ? [] : scope === "project" ? projectAgentsSkillDirs(cwd, home) : [join(home, ".agents", "skills")];
  const listed = splitEntries(entries).plain.flatMap((entry) => filesOfEntry(kind, resolveEntryPath(entry, base, home)));
  const seen = new Set<string>();
  const ending = FILE_ENDINGS[kind];
  const out: ScopeResourceFile[] = [];
  for (const [path, isListed] of [...listed.map((p) => [p, true] as const), ...autoFiles(kind, base, agentsDirs).map((p) => [p, false] as const)]) {
    const key = canonical(path);
    if (seen.has(key) || (ending && !path.endsWith(ending))) continue;
    seen.add(key);
    out.push({ path, listed: isListed });
  }
  return out;
}

const PACKAGE_SCOPE_ORDER: Record<SourceScope, number> = { temporary: 0, project: 1, user: 2 };

export function resolveResourcePaths(kind: ResourceKind, options: ResourcePathOptions): ResolvedResources {
  const diagnostics: ResourceDiagnostic[] = [];
  const { cwd, agentDir, home, trusted } = options;
  const includeDiscovered = options.includeDiscovered ?? true;
  const packages = [...(options.packageDirs ?? [])]
    .filter((pkg) => trusted || pkg.scope !== "project")
    .sort((a, b) => PACKAGE_SCOPE_ORDER[a.scope] - PACKAGE_SCOPE_ORDER[b.scope]);

  // Three groups, merged in order: `-e` resources (and -e paths for extensions), the settings /
  // auto / package resources, and the CLI paths of skills, templates and themes.
  const front = packages.filter((p) => p.scope === "temporary").flatMap((p) => packageCandidates(kind, p));
  const cli = cliCandidates(kind, options, diagnostics);
  if (kind === "extensions") front.push(...cli);

  const discovered: Candidate[] = [];
  if (includeDiscovered) {
    const projectBase = projectConfigDir(cwd);
    const projectEntries = options.projectEntries ?? [];
    const userEntries = options.userEntries ?? [];
    if (trusted) {
      const agentsDirs = kind === "skills" ? projectAgentsSkillDirs(cwd, home) : [];
      discovered.push(...settingsCandidates(kind, projectEntries, "project", projectBase, home));
      discovered.push(...autoCandidates(autoFiles(kind, projectBase, agentsDirs), projectEntries, "project", projectBase));
    }
    const userAgentsDirs = kind === "skills" ? [join(home, ".agents", "skills")] : [];
    discovered.push(...settingsCandidates(kind, userEntries, "user", agentDir, home));
    discovered.push(...autoCandidates(autoFiles(kind, agentDir, userAgentsDirs), userEntries, "user", agentDir));
    discovered.push(...packages.filter((p) => p.scope !== "temporary").flatMap((p) => packageCandidates(kind, p)));
  }
  const back = kind === "extensions" ? [] : cli;

  const kept = firstEnabled([...firstEnabled(front), ...firstEnabled(discovered), ...back]);
  const ending = FILE_ENDINGS[kind];
  const resources: ResolvedResource[] = [];
  for (const { path, sourceInfo } of kept) {
    if (ending && !path.endsWith(ending)) {
      diagnostics.push({ type: "warning", message: `${LABELS[kind]} path is not a ${ending} file: ${path}`, path });
      continue;
    }
    resources.push({ path, sourceInfo });
  }
  return { resources, diagnostics };
}
