/**
 * Directory traversal for the built-in grep/find: depth-first in name order (so results are
 * stable), hidden entries included, `.git` skipped, ignored entries (and everything under an
 * ignored directory) left out, symbolic links listed but never followed.
 */
import type { Dirent } from "node:fs";
import { asyncFs } from "../util/async-fs.ts";
import { join, relative, sep } from "node:path";
import { throwIfAborted } from "./abort.ts";
import { inheritedRules, isIgnored, readIgnoreRules, type IgnoreRule } from "./ignore.ts";

export interface WalkEntry {
  path: string;
  /** Path relative to the walk's root, with "/" separators. */
  rel: string;
  name: string;
  kind: "file" | "dir" | "symlink" | "other";
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Directories to skip entirely (besides ignored ones), e.g. a negated --glob. */
  skipDir?: (entry: WalkEntry) => boolean;
  /** Non-directories to list even when ignored (rg lets an explicit --glob override ignore files). */
  forceInclude?: (entry: WalkEntry) => boolean;
}

function kindOf(entry: Dirent): WalkEntry["kind"] {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isDirectory()) return "dir";
  if (entry.isFile()) return "file";
  return "other";
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** Yields every entry under `root` (not `root` itself), parents before their children. */
export async function* walk(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  yield* walkDir(root, root, inheritedRules(root), options);
}

async function* walkDir(root: string, dir: string, parentRules: IgnoreRule[], options: WalkOptions): AsyncGenerator<WalkEntry> {
  throwIfAborted(options.signal);
  const own = readIgnoreRules(dir);
  const rules = own.length > 0 ? [...parentRules, ...own] : parentRules;
  let entries: Dirent[];
  try {
    entries = await asyncFs().readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable directories are skipped, as rg and fd do
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of entries) {
    const kind = kindOf(dirent);
    if (kind === "dir" && dirent.name === ".git") continue;
    const path = join(dir, dirent.name);
    const entry: WalkEntry = { path, rel: toPosix(relative(root, path)), name: dirent.name, kind };
    if (isIgnored(rules, path, kind === "dir") && (kind === "dir" || !options.forceInclude?.(entry))) continue;
    if (kind === "dir" && options.skipDir?.(entry)) continue;
    yield entry;
    if (kind === "dir") yield* walkDir(root, path, rules, options);
  }
}
