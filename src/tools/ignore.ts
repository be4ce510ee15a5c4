/**
 * .gitignore semantics for the built-in search (used when rg/fd are not installed): patterns from
 * `.git/info/exclude`, then every `.gitignore` / `.ignore` from the repository root down to the
 * directory being read; the last matching pattern decides, `!` re-includes.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

export interface IgnoreRule {
  /** Directory the pattern is relative to. */
  base: string;
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /** Patterns without an inner slash match the entry's name at any depth. */
  nameOnly: boolean;
}

/** Files read in every directory, in increasing precedence. */
export const IGNORE_FILES = [".gitignore", ".ignore"];

function escapeRegex(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}

/** Translates one gitignore glob (no leading `!`, no trailing `/`) to a regex source. */
function globSource(glob: string): string {
  let out = "";
  let i = 0;
  while (i < glob.length) {
    const ch = glob[i] as string;
    if (ch === "*" && glob[i + 1] === "*") {
      const atStart = i === 0 || glob[i - 1] === "/";
      const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
      if (atStart && atEnd) {
        if (i + 2 === glob.length) out += ".*";
        else {
          out += "(?:.*/)?";
          i++; // the slash after ** is part of the optional group
        }
        i += 2;
        continue;
      }
      out += "[^/]*";
      i += 2;
      continue;
    }
    if (ch === "*") out += "[^/]*";
    else if (ch === "?") out += "[^/]";
    else if (ch === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1] as string);
      i++;
    } else if (ch === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) out += "\\[";
      else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else out += escapeRegex(ch);
    i++;
  }
  return out;
}

/** Parses an ignore file's text into rules relative to `base`. */
export function parseIgnoreFile(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of text.split("\n")) {
    line = line.replace(/\r$/, "");
    if (line === "" || line.startsWith("#")) continue;
    // Trailing spaces are dropped unless escaped with a backslash.
    line = line.replace(/(?<!\\)\s+$/, "");
    if (line === "") continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.replace(/\/+$/, "");
    }
    if (line === "") continue;
    const nameOnly = !line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    try {
      rules.push({ base, regex: new RegExp(`^${globSource(line)}$`), negate, dirOnly, nameOnly });
    } catch {
      // A pattern we cannot translate is skipped, as git skips malformed ones.
    }
  }
  return rules;
}

/** The rules of the ignore files directly in `dir`. */
export function readIgnoreRules(dir: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const name of IGNORE_FILES) {
    const file = join(dir, name);
    try {
      rules.push(...parseIgnoreFile(readFileSync(file, "utf8"), dir));
    } catch {
      // Missing or unreadable: nothing to add.
    }
  }
  return rules;
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/**
 * The rules in force at `root` before its own ignore files: `.git/info/exclude` and the ignore
 * files of every directory from the enclosing repository's root down to `root`'s parent. Outside
 * a repository only files inside the search root count (a stray ~/.gitignore must not hide things).
 */
export function inheritedRules(root: string): IgnoreRule[] {
  const chain: string[] = [];
  let dir = root;
  let repoRoot: string | undefined;
  for (;;) {
    if (existsSync(join(dir, ".git"))) {
      repoRoot = dir;
      break;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
    chain.push(dir);
  }
  if (!repoRoot) return [];
  const rules: IgnoreRule[] = [];
  try {
    rules.push(...parseIgnoreFile(readFileSync(join(repoRoot, ".git", "info", "exclude"), "utf8"), repoRoot));
  } catch {
    // No exclude file.
  }
  for (const ancestor of chain.reverse()) rules.push(...readIgnoreRules(ancestor));
  return rules;
}

/** Whether `path` (absolute) is ignored by `rules`; the last matching rule decides. */
export function isIgnored(rules: readonly IgnoreRule[], path: string, isDir: boolean): boolean {
  let ignored = false;
  const name = path.slice(path.lastIndexOf(sep) + 1);
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    let subject: string;
    if (rule.nameOnly) subject = name;
    else {
      const rel = relative(rule.base, path);
      if (rel === "" || rel.startsWith("..")) continue;
      subject = toPosix(rel);
    }
    if (rule.regex.test(subject)) ignored = !rule.negate;
  }
  return ignored;
}
