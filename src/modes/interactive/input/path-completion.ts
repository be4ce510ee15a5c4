/**
 * Tab completion of a path being typed anywhere in the prompt, the way a shell completes it:
 * `cat src/ap` → `cat src/app.ts `. The word before the cursor is split at its last "/", the
 * directory is listed (relative to the project, `~/` from the home directory), and the entries
 * starting with the rest are offered; directories end in "/" so Tab can go on into them. A word
 * completes once it holds a "/", or at once as the file argument of `/export` and `/import`.
 */
import { statSync, type Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { wordAt, type CompletionItem, type CompletionProvider } from "./completion.ts";

export interface PathCompletionOptions {
  cwd: string;
  home?: string;
  /** Items offered at most. */
  maxItems?: number;
}

export function pathCompletionProvider(options: PathCompletionOptions): CompletionProvider {
  const home = options.home ?? homedir();
  const maxItems = options.maxItems ?? 50;
  return async (text, cursor) => {
    const { from, to, word } = wordAt(text, cursor);
    // `@mentions` and slash commands have their own providers; a bare word completes only when
    // it already looks like a path.
    const fileArgument = /^\/(export|import)\s/.test(text) && from > 0;
    if (word.startsWith("@") || (!word.includes("/") && !fileArgument)) return undefined;
    if (from === 0 && word.startsWith("/") && word.indexOf("/", 1) < 0 && text.trimStart().startsWith("/")) return undefined;
    const cut = word.lastIndexOf("/");
    const dirPart = word.slice(0, cut + 1);
    const prefix = word.slice(cut + 1);
    const expanded = dirPart.startsWith("~/") ? join(home, dirPart.slice(2)) : dirPart;
    const dir = isAbsolute(expanded) ? expanded : join(options.cwd, expanded);
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    const items: CompletionItem[] = dirents
      .filter((d) => d.name.startsWith(prefix) && (prefix.startsWith(".") || !d.name.startsWith(".")))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, maxItems)
      .map((d) => {
        const isDir = d.isDirectory() || (d.isSymbolicLink() && isDirectory(join(dir, d.name)));
        const name = isDir ? `${d.name}/` : d.name;
        return { value: `${dirPart}${name}${isDir ? "" : " "}`, label: name };
      });
    if (items.length === 0) return undefined;
    return { replaceFrom: from, replaceTo: to, items };
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
