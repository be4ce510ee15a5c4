/**
 * What `pig config` writes so that exactly the chosen files of one kind load, in upstream Pi's
 * pattern syntax (resource-patterns.ts): a package entry's filter of that kind, or a settings
 * file's own resource list.
 *
 * A list whose files already load as chosen is left as it is. Otherwise the person's own entries
 * stay, except the exact `+path` / `-path` ones the choice now contradicts, and exact entries are
 * added for the files still wrong: `+path` to turn one on, `-path` to turn one off, named
 * relative to the package root (or the settings folder). A package filter under which every
 * file is on is dropped, one under which none is becomes `[]`; an entry left with nothing but
 * its source goes back to the plain string form.
 */
import { isAbsolute, relative, sep } from "node:path";
import { RESOURCE_KINDS, type ResourceKind, type ScopeResourceFile } from "./resource-paths.ts";
import { applyPatterns, enabledByOverrides, matchesAnyExact, packageFilterKeeps, splitEntries } from "./resource-patterns.ts";
import type { PackageEntry } from "./settings-packages.ts";

/** A kind's list as written: undefined when the settings have none. */
export type ResourceList = readonly string[] | undefined;

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** How a pattern names `file`: relative to `base` with `/` separators, absolute when it lies outside. */
export function patternPath(file: string, base: string): string {
  const rel = relative(base, file);
  const outside = rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  return toPosix(outside ? file : rel);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/** An exact `+`/`-` entry that names a file the choice puts the other way. */
function contradicts(entry: string, files: readonly string[], chosen: ReadonlySet<string>, base: string): boolean {
  const on = entry.startsWith("+");
  if (!on && !entry.startsWith("-")) return false;
  const target = [entry.slice(1)];
  return files.some((f) => chosen.has(f) !== on && matchesAnyExact(f, target, base));
}

/** `entries` without what contradicts `chosen`, then exact entries for each file `enabled` still gets wrong. */
function adjusted(
  files: readonly string[],
  entries: readonly string[],
  chosen: ReadonlySet<string>,
  base: string,
  enabled: (entries: readonly string[]) => ReadonlySet<string>,
): string[] {
  const kept = entries.filter((e) => !contradicts(e, files, chosen, base));
  const now = enabled(kept);
  const added = files.flatMap((f) => (chosen.has(f) === now.has(f) ? [] : [`${chosen.has(f) ? "+" : "-"}${patternPath(f, base)}`]));
  return [...kept, ...added];
}

/**
 * A package entry's new filter of one kind, for `files` (the kind's files the package provides)
 * of which `chosen` should load; `current` returned as it is when it already does that.
 */
export function packageFilterFor(files: readonly string[], current: ResourceList, chosen: ReadonlySet<string>, root: string): ResourceList {
  const wanted = new Set(files.filter((f) => chosen.has(f)));
  if (sameSet(packageFilterKeeps(files, current, root), wanted)) return current;
  if (wanted.size === files.length) return undefined;
  if (wanted.size === 0) return [];
  // A non-empty list is read as patterns, so the person's `[]` ("none") cannot be built on.
  return adjusted(files, current ?? [], wanted, root, (entries) => applyPatterns(files, entries, root));
}

/**
 * The files of a settings scope's own (`resources`) that its list `entries` enables: listed ones
 * by every pattern of the list, ones found in its folders by its `!`, `+` and `-` entries.
 */
export function scopeListKeeps(resources: readonly ScopeResourceFile[], entries: readonly string[], base: string): Set<string> {
  const { patterns } = splitEntries(entries);
  const fromList = applyPatterns(
    resources.filter((r) => r.listed).map((r) => r.path),
    patterns,
    base,
  );
  return new Set(resources.filter((r) => (r.listed ? fromList.has(r.path) : enabledByOverrides(r.path, entries, base))).map((r) => r.path));
}

/**
 * A settings scope's new list of one kind (`extensions`, `skills`, …) so that `chosen` of its own
 * files load. Its paths always stay: only patterns change.
 */
export function scopeListFor(resources: readonly ScopeResourceFile[], current: ResourceList, chosen: ReadonlySet<string>, base: string): ResourceList {
  const files = resources.map((r) => r.path);
  const wanted = new Set(files.filter((f) => chosen.has(f)));
  if (sameSet(scopeListKeeps(resources, current ?? [], base), wanted)) return current;
  return adjusted(files, current ?? [], wanted, base, (entries) => scopeListKeeps(resources, entries, base));
}

/**
 * `entry` with the kinds in `filters` set (undefined: the kind's filter dropped). Its other
 * fields stay, in their order; with nothing left but the source it becomes the source string.
 */
export function withFilters(entry: PackageEntry, filters: Partial<Record<ResourceKind, ResourceList>>): PackageEntry {
  const object: Exclude<PackageEntry, string> = typeof entry === "string" ? { source: entry } : { ...entry };
  for (const kind of RESOURCE_KINDS) {
    if (!(kind in filters)) continue;
    const filter = filters[kind];
    if (filter === undefined) delete object[kind];
    else object[kind] = [...filter];
  }
  return Object.keys(object).every((key) => key === "source") ? object.source : object;
}
