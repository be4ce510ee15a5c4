/**
 * The filter syntax of the `skills` / `prompts` / `themes` / `extensions` settings arrays (and
 * of package filters), as upstream Pi defines it:
 *
 * - an entry containing `*` or `?`, or starting with `!`, `+` or `-`, is a pattern; anything
 *   else is a plain file or directory;
 * - plain glob patterns keep only the matching files (all files when there are none);
 * - `!glob` then drops matches, `+path` adds a file back, `-path` removes it, in that order;
 * - globs are tried against the path relative to the base dir, the file name and the absolute
 *   path (for a `SKILL.md` also against its directory in those three forms); `+`/`-` compare
 *   exactly (a leading `./` ignored) against the relative or absolute path (or the skill's dir).
 *
 * Globs are matched with Bun.Glob, which differs from upstream's minimatch in one known way:
 * `*` also matches names that start with a dot.
 */
import { basename, dirname, relative, sep } from "node:path";

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

export function isPatternEntry(entry: string): boolean {
  return /^[!+-]/.test(entry) || entry.includes("*") || entry.includes("?");
}

/** Separates plain paths from patterns, keeping each list's order. */
export function splitEntries(entries: readonly string[]): { plain: string[]; patterns: string[] } {
  const plain: string[] = [];
  const patterns: string[] = [];
  for (const entry of entries) (isPatternEntry(entry) ? patterns : plain).push(entry);
  return { plain, patterns };
}

/** The forms a file is matched in: relative, name, absolute; plus the same for a SKILL.md's directory. */
function subjects(filePath: string, baseDir: string): { file: string[]; skillDir: string[] } {
  const file = [toPosix(relative(baseDir, filePath)), basename(filePath), toPosix(filePath)];
  if (basename(filePath) !== "SKILL.md") return { file, skillDir: [] };
  const dir = dirname(filePath);
  return { file, skillDir: [toPosix(relative(baseDir, dir)), basename(dir), toPosix(dir)] };
}

const globCache = new Map<string, Bun.Glob>();
function glob(pattern: string): Bun.Glob {
  let compiled = globCache.get(pattern);
  if (!compiled) {
    compiled = new Bun.Glob(pattern);
    globCache.set(pattern, compiled);
  }
  return compiled;
}

export function matchesAnyGlob(filePath: string, patterns: readonly string[], baseDir: string): boolean {
  if (patterns.length === 0) return false;
  const { file, skillDir } = subjects(filePath, baseDir);
  return patterns.some((raw) => {
    const pattern = glob(toPosix(raw));
    return file.some((s) => pattern.match(s)) || skillDir.some((s) => pattern.match(s));
  });
}

export function matchesAnyExact(filePath: string, patterns: readonly string[], baseDir: string): boolean {
  if (patterns.length === 0) return false;
  const rel = toPosix(relative(baseDir, filePath));
  const abs = toPosix(filePath);
  const isSkill = basename(filePath) === "SKILL.md";
  const dirRel = isSkill ? toPosix(relative(baseDir, dirname(filePath))) : undefined;
  const dirAbs = isSkill ? toPosix(dirname(filePath)) : undefined;
  return patterns.some((raw) => {
    const wanted = toPosix(raw.startsWith("./") || raw.startsWith(".\\") ? raw.slice(2) : raw);
    return wanted === rel || wanted === abs || (isSkill && (wanted === dirRel || wanted === dirAbs));
  });
}

interface Overrides {
  excludes: string[];
  forceIncludes: string[];
  forceExcludes: string[];
}

function overridesOf(entries: readonly string[]): Overrides & { includes: string[] } {
  const out = { includes: [] as string[], excludes: [] as string[], forceIncludes: [] as string[], forceExcludes: [] as string[] };
  for (const entry of entries) {
    if (entry.startsWith("+")) out.forceIncludes.push(entry.slice(1));
    else if (entry.startsWith("-")) out.forceExcludes.push(entry.slice(1));
    else if (entry.startsWith("!")) out.excludes.push(entry.slice(1));
    else out.includes.push(entry);
  }
  return out;
}

/**
 * The files of `files` left enabled by `patterns`: every entry without a `!`/`+`/`-` prefix is an
 * include glob (settings pass only their pattern entries; package filters pass all of theirs).
 */
export function applyPatterns(files: readonly string[], patterns: readonly string[], baseDir: string): Set<string> {
  const { includes, excludes, forceIncludes, forceExcludes } = overridesOf(patterns);
  let result = includes.length === 0 ? [...files] : files.filter((f) => matchesAnyGlob(f, includes, baseDir));
  if (excludes.length > 0) result = result.filter((f) => !matchesAnyGlob(f, excludes, baseDir));
  const kept = new Set(result);
  for (const f of files) if (!kept.has(f) && matchesAnyExact(f, forceIncludes, baseDir)) kept.add(f);
  for (const f of [...kept]) if (matchesAnyExact(f, forceExcludes, baseDir)) kept.delete(f);
  return kept;
}

/**
 * The files of one kind a package entry's filter leaves on: all when the entry has no filter of
 * that kind, none for `[]`, else those its patterns keep (every entry without a prefix a glob).
 */
export function packageFilterKeeps(files: readonly string[], filter: readonly string[] | undefined, root: string): Set<string> {
  if (filter === undefined) return new Set(files);
  if (filter.length === 0) return new Set();
  return applyPatterns(files, filter, root);
}

/**
 * Whether an auto-discovered file stays enabled under its scope's settings entries: only the
 * `!`, `+` and `-` entries apply (plain globs only filter the settings' own plain entries).
 */
export function enabledByOverrides(filePath: string, entries: readonly string[], baseDir: string): boolean {
  const { excludes, forceIncludes, forceExcludes } = overridesOf(entries);
  let enabled = !matchesAnyGlob(filePath, excludes, baseDir);
  if (matchesAnyExact(filePath, forceIncludes, baseDir)) enabled = true;
  if (matchesAnyExact(filePath, forceExcludes, baseDir)) enabled = false;
  return enabled;
}
