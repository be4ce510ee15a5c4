/**
 * Completion of `@path` mentions with the project's files: `@src/ap` → `@src/app.ts`. The project
 * is listed breadth-first (so a capped listing of a huge tree still has every shallow file),
 * honouring .gitignore/.ignore through the same rules as the built-in search, skipping `.git`
 * and `node_modules`, and cached for a few seconds so repeated Tabs do not walk again.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { inheritedRules, isIgnored, readIgnoreRules, type IgnoreRule } from "../../../tools/ignore.ts";
import { wordAt, type CompletionItem, type CompletionProvider } from "./completion.ts";
import { rankFuzzy } from "./fuzzy.ts";

export interface ProjectEntry {
  /** Relative to the project root, "/" separated. */
  rel: string;
  dir: boolean;
}

export interface FileMentionOptions {
  cwd: string;
  /** Entries listed at most (a home directory or monorepo must not stall Tab). */
  maxEntries?: number;
  /** Items offered at most. */
  maxItems?: number;
  /** How long a listing is reused. */
  cacheMs?: number;
}

const SKIPPED_DIRS = new Set([".git", "node_modules"]);

/** The project's files and directories, shallowest first, at most `maxEntries`. */
export async function listProjectEntries(root: string, maxEntries: number): Promise<ProjectEntry[]> {
  const out: ProjectEntry[] = [];
  const queue: { dir: string; rel: string; rules: IgnoreRule[] }[] = [{ dir: root, rel: "", rules: inheritedRules(root) }];
  for (let head = 0; head < queue.length && out.length < maxEntries; head++) {
    const { dir, rel, rules: inherited } = queue[head] as (typeof queue)[number];
    const own = readIgnoreRules(dir);
    const rules = own.length > 0 ? [...inherited, ...own] : inherited;
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of dirents) {
      const isDir = dirent.isDirectory();
      if (isDir && SKIPPED_DIRS.has(dirent.name)) continue;
      const path = join(dir, dirent.name);
      if (isIgnored(rules, path, isDir)) continue;
      const entryRel = rel ? `${rel}/${dirent.name}` : dirent.name;
      out.push({ rel: entryRel, dir: isDir });
      if (out.length >= maxEntries) break;
      if (isDir) queue.push({ dir: path, rel: entryRel, rules });
    }
  }
  return out;
}

/** The `@…` token around the cursor: from the "@" to the next whitespace. */
export function mentionToken(text: string, cursor: number): { from: number; to: number; query: string } | undefined {
  const { from, to, word } = wordAt(text, cursor);
  if (text[from] !== "@") return undefined;
  return { from, to, query: word.slice(1) };
}

function label(entry: ProjectEntry): string {
  return entry.dir ? `${entry.rel}/` : entry.rel;
}

function mentionItem(entry: ProjectEntry): CompletionItem {
  const path = label(entry);
  // Paths with spaces are quoted, and then complete as a whole.
  if (/\s/.test(path)) return { value: `@"${path}" `, label: path };
  return { value: entry.dir ? `@${path}` : `@${path} `, label: path };
}

/** The entries `query` asks for: a directory's children for "dir/", top level for "", else fuzzy. */
export function matchEntries(query: string, entries: readonly ProjectEntry[], limit: number): ProjectEntry[] {
  if (query === "" || query.endsWith("/")) {
    const depth = query === "" ? 0 : query.split("/").length - 1;
    const children = entries.filter((entry) => entry.rel.startsWith(query) && entry.rel.split("/").length - 1 === depth);
    if (children.length > 0 || query === "") return children.slice(0, limit);
  }
  return rankFuzzy(query, entries, label, limit);
}

export function fileMentionProvider(options: FileMentionOptions): CompletionProvider {
  const maxEntries = options.maxEntries ?? 20_000;
  const maxItems = options.maxItems ?? 50;
  const cacheMs = options.cacheMs ?? 5_000;
  let cached: { at: number; entries: Promise<ProjectEntry[]> } | undefined;
  const entries = (): Promise<ProjectEntry[]> => {
    if (!cached || Date.now() - cached.at > cacheMs) cached = { at: Date.now(), entries: listProjectEntries(options.cwd, maxEntries) };
    return cached.entries;
  };
  return async (text, cursor) => {
    const token = mentionToken(text, cursor);
    if (!token) return undefined;
    const matches = matchEntries(token.query, await entries(), maxItems);
    if (matches.length === 0) return undefined;
    return { replaceFrom: token.from, replaceTo: token.to, items: matches.map(mentionItem) };
  };
}
