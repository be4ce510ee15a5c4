/**
 * Reading resource directories from disk: the per-kind directory scans (skills, prompt
 * templates, themes, extensions). Frontmatter is frontmatter.ts's.
 *
 * Scans follow upstream Pi: names starting with "." and `node_modules` are skipped, `.gitignore`,
 * `.ignore` and `.fdignore` inside the scanned tree are honoured (nothing above the scan root),
 * and symbolic links are followed (broken ones skipped). Unlike upstream, entries are visited in
 * name order (so "first wins" is stable across filesystems) and a link back to a directory that
 * is already being scanned is not followed again.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import * as v from "valibot";
import { isIgnored, parseIgnoreFile, type IgnoreRule } from "../tools/ignore.ts";

const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".fdignore"];

interface DirEntry {
  name: string;
  path: string;
  isDir: boolean;
  isFile: boolean;
}

/** The entries of `dir` in name order with symlinks resolved; undefined when unreadable. */
function readEntries(dir: string): DirEntry[] | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return undefined;
  }
  const out: DirEntry[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const stats = statSync(path); // follows links; a broken link throws and is skipped
      out.push({ name, path, isDir: stats.isDirectory(), isFile: stats.isFile() });
    } catch {
      // Broken symlink or vanished entry.
    }
  }
  return out;
}

function ownIgnoreRules(dir: string, inherited: readonly IgnoreRule[]): IgnoreRule[] {
  const rules = [...inherited];
  for (const name of IGNORE_FILE_NAMES) {
    try {
      rules.push(...parseIgnoreFile(readFileSync(join(dir, name), "utf8"), dir));
    } catch {
      // Absent or unreadable.
    }
  }
  return rules;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function skippedName(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

/**
 * `pig` mode: root-level `*.md` files are skills too (`.pig/skills`, `<agentDir>/skills`,
 * settings, package and CLI dirs). `agents` mode (`.agents/skills`): only `SKILL.md` files.
 */
export type SkillDirMode = "pig" | "agents";

/**
 * Skill files under `root`: a directory holding `SKILL.md` is one skill and is not searched
 * further; other directories are searched for `SKILL.md`; in `pig` mode the root's own `*.md`
 * files are skills as well.
 */
export function collectSkillFiles(root: string, mode: SkillDirMode): string[] {
  const out: string[] = [];
  const visit = (dir: string, rules: readonly IgnoreRule[], branch: ReadonlySet<string>): void => {
    const entries = readEntries(dir);
    if (!entries) return;
    const here = ownIgnoreRules(dir, rules);
    // A directory named SKILL.md counts, so that reading it reports the mistake instead of a silence.
    const skillFile = entries.find((e) => e.name === "SKILL.md" && (e.isFile || e.isDir) && !isIgnored(here, e.path, false));
    if (skillFile) {
      out.push(skillFile.path);
      return;
    }
    for (const entry of entries) {
      if (skippedName(entry.name)) continue;
      if (entry.isFile) {
        if (mode === "pig" && dir === root && entry.name.endsWith(".md") && !isIgnored(here, entry.path, false)) {
          out.push(entry.path);
        }
        continue;
      }
      if (!entry.isDir || isIgnored(here, entry.path, true)) continue;
      const real = realOrSelf(entry.path);
      if (branch.has(real)) continue;
      visit(entry.path, here, new Set([...branch, real]));
    }
  };
  if (existsSync(root)) visit(root, [], new Set([realOrSelf(root)]));
  return out;
}

/** Every file under `root` (recursively) whose name ends with `extension`. */
export function collectFilesDeep(root: string, extension: string): string[] {
  const out: string[] = [];
  const visit = (dir: string, rules: readonly IgnoreRule[], branch: ReadonlySet<string>): void => {
    const entries = readEntries(dir);
    if (!entries) return;
    const here = ownIgnoreRules(dir, rules);
    for (const entry of entries) {
      if (skippedName(entry.name) || isIgnored(here, entry.path, entry.isDir)) continue;
      if (entry.isFile && entry.name.endsWith(extension)) out.push(entry.path);
      else if (entry.isDir) {
        const real = realOrSelf(entry.path);
        if (!branch.has(real)) visit(entry.path, here, new Set([...branch, real]));
      }
    }
  };
  if (existsSync(root)) visit(root, [], new Set([realOrSelf(root)]));
  return out;
}

/**
 * The files directly in `dir` whose name ends with `extension`. `filtered` skips dot-names,
 * `node_modules` and ignored files (auto-discovered dirs); CLI dirs are listed unfiltered, as upstream.
 */
export function listFiles(dir: string, extension: string, filtered: boolean): string[] {
  const entries = readEntries(dir);
  if (!entries) return [];
  const rules = filtered ? ownIgnoreRules(dir, []) : [];
  return entries
    // A directory with the file ending is listed too: reading it says what is wrong.
    .filter((e) => (e.isFile || e.isDir) && e.name.endsWith(extension))
    .filter((e) => !filtered || (!skippedName(e.name) && !isIgnored(rules, e.path, false)))
    .map((e) => e.path);
}

const ManifestSchema = v.looseObject({
  pi: v.optional(v.looseObject({ extensions: v.optional(v.array(v.string())) })),
});

/** pig's own extension manifest (extensions/manifest.ts reads it); a directory holding one is that extension. */
export const EXTENSION_MANIFEST_FILE = "pig-extension.json";

/** Files an extensions directory runs: upstream's `.ts`/`.js`, and pig's `.mjs` and Python. */
export const EXTENSION_FILE = /\.(ts|js|mjs|py)$/;

/**
 * A directory's explicit extension entry points: its `pig-extension.json`, else package.json
 * `pi.extensions` (the listed paths that exist), else index.ts / index.js.
 */
export function extensionEntryPoints(dir: string): string[] | undefined {
  const manifest = join(dir, EXTENSION_MANIFEST_FILE);
  if (existsSync(manifest)) return [manifest];
  try {
    const pkg = v.safeParse(ManifestSchema, JSON.parse(readFileSync(join(dir, "package.json"), "utf8")));
    const listed = pkg.success ? (pkg.output.pi?.extensions ?? []) : [];
    const existing = listed.map((p) => resolve(dir, p)).filter((p) => existsSync(p));
    if (existing.length > 0) return existing;
  } catch {
    // No package.json, or not JSON: fall back to the index files.
  }
  for (const index of ["index.ts", "index.js"]) {
    if (existsSync(join(dir, index))) return [join(dir, index)];
  }
  return undefined;
}

/** Extensions in a directory: its own entry points, else each extension file and each subdirectory's entry points. */
export function collectExtensionFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const own = extensionEntryPoints(dir);
  if (own) return own;
  const entries = readEntries(dir) ?? [];
  const rules = ownIgnoreRules(dir, []);
  const out: string[] = [];
  for (const entry of entries) {
    if (skippedName(entry.name) || isIgnored(rules, entry.path, entry.isDir)) continue;
    if (entry.isFile && EXTENSION_FILE.test(entry.name)) out.push(entry.path);
    else if (entry.isDir) out.push(...(extensionEntryPoints(entry.path) ?? []));
  }
  return out;
}
