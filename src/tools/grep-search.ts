/**
 * The two ways grep finds matching lines: ripgrep's JSON output, or the built-in scan (same
 * results shape, .gitignore-aware, for machines without rg). Both stop at the match limit.
 */
import { asyncFs } from "../util/async-fs.ts";
import { isAbsolute, relative, sep } from "node:path";
import { throwIfAborted } from "./abort.ts";
import { runSearchProcess } from "./search-process.ts";
import { walk, type WalkEntry } from "./walk.ts";

export interface GrepQuery {
  pattern: string;
  /** The session directory: rg matches globs that contain "/" relative to its working directory. */
  cwd: string;
  /** Absolute file or directory. */
  root: string;
  isDirectory: boolean;
  glob?: string;
  ignoreCase: boolean;
  literal: boolean;
  limit: number;
  signal: AbortSignal;
}

export interface GrepMatch {
  file: string;
  line: number;
  /** The matching line without its line break and without carriage returns. */
  text: string;
}

export interface GrepMatches {
  matches: GrepMatch[];
  limitReached: boolean;
}

function cleanLine(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "").replace(/\n$/, "");
}

interface RgText {
  text?: string;
  bytes?: string;
}

function rgText(value: RgText | undefined): string | undefined {
  if (!value) return undefined;
  if (typeof value.text === "string") return value.text;
  if (typeof value.bytes === "string") return Buffer.from(value.bytes, "base64").toString("utf8");
  return undefined;
}

interface RgEvent {
  type?: string;
  data?: { path?: RgText; lines?: RgText; line_number?: number };
}

export function searchWithRipgrep(rg: string, query: GrepQuery): Promise<GrepMatches> {
  const args = ["--json", "--line-number", "--color=never", "--hidden"];
  if (query.ignoreCase) args.push("--ignore-case");
  if (query.literal) args.push("--fixed-strings");
  if (query.glob) args.push("--glob", query.glob);
  args.push("--", query.pattern, query.root);

  const matches: GrepMatch[] = [];
  let limitReached = false;
  return runSearchProcess(rg, args, {
    name: "ripgrep",
    cwd: query.cwd,
    signal: query.signal,
    onLine: (line, child) => {
      if (limitReached || line.trim() === "") return;
      let event: RgEvent;
      try {
        event = JSON.parse(line) as RgEvent;
      } catch {
        return;
      }
      if (event.type !== "match") return;
      const file = rgText(event.data?.path);
      const lineNumber = event.data?.line_number;
      if (file !== undefined && typeof lineNumber === "number") {
        matches.push({ file, line: lineNumber, text: cleanLine(rgText(event.data?.lines) ?? "") });
      }
      if (matches.length >= query.limit) {
        limitReached = true;
        child.kill();
      }
    },
    onExit: (code, stderr) => {
      if (!limitReached && code !== 0 && code !== 1) throw new Error(stderr.trim() || `ripgrep exited with code ${code}`);
      return { matches, limitReached };
    },
  });
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The pattern as a JavaScript regex (rg's syntax is close for everyday patterns). */
export function compilePattern(pattern: string, literal: boolean, ignoreCase: boolean): RegExp {
  let source = literal ? escapeRegex(pattern) : pattern;
  let flags = ignoreCase ? "i" : "";
  // rg accepts a leading inline flag group; JavaScript does not.
  if (!literal && source.startsWith("(?i)")) {
    source = source.slice(4);
    flags = "i";
  }
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (error) {
      throw new Error(`regex parse error: ${(error as Error).message}`);
    }
  }
}

interface GlobFilter {
  file: (e: WalkEntry) => boolean;
  dir: (e: WalkEntry) => boolean;
  /** Files a positive glob names explicitly: rg searches them even when ignore files exclude them. */
  override: (e: WalkEntry) => boolean;
}

/**
 * rg's --glob: a pattern without "/" tests the name, one with "/" the path relative to the working
 * directory (the session's, as rg resolves it; absolute outside it); a leading "!" excludes.
 */
export function globFilter(glob: string | undefined, cwd: string): GlobFilter {
  if (!glob) return { file: () => true, dir: () => true, override: () => false };
  const negate = glob.startsWith("!");
  const pattern = negate ? glob.slice(1) : glob;
  const matcher = new Bun.Glob(pattern.startsWith("/") ? pattern.slice(1) : pattern);
  const byName = !pattern.includes("/");
  const fromCwd = (e: WalkEntry) => {
    const rel = relative(cwd, e.path);
    return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? e.path : rel.split(sep).join("/");
  };
  const matches = (e: WalkEntry) => matcher.match(byName ? e.name : fromCwd(e));
  return negate
    ? { file: (e) => !matches(e), dir: (e) => !matches(e), override: () => false }
    : // A positive glob selects files; directories are still entered to find them.
      { file: matches, dir: () => true, override: matches };
}

/** Files a search covers: the file itself, or every searchable file under the directory. */
async function* candidateFiles(query: GrepQuery): AsyncGenerator<string> {
  if (!query.isDirectory) {
    yield query.root;
    return;
  }
  const filter = globFilter(query.glob, query.cwd);
  const walking = walk(query.root, { signal: query.signal, skipDir: (e) => !filter.dir(e), forceInclude: filter.override });
  for await (const entry of walking) {
    if (entry.kind === "file" && filter.file(entry)) yield entry.path;
  }
}

/** The first bytes rg looks at to call a file binary: a NUL means binary. */
const BINARY_PROBE_BYTES = 8192;

/**
 * A whole-file test that can only err towards "maybe": most files have no match, and one regex
 * run over the text is much cheaper than one per line. Lookarounds could see across line breaks
 * and wrongly rule a file out, so patterns with them go line by line.
 */
function wholeFileFilter(regex: RegExp): (text: string) => boolean {
  if (/\(\?<?[=!]/.test(regex.source)) return () => true;
  const multiline = new RegExp(regex.source, `${regex.flags}m`);
  return (text) => multiline.test(text);
}

export async function searchBuiltin(query: GrepQuery): Promise<GrepMatches> {
  const regex = compilePattern(query.pattern, query.literal, query.ignoreCase);
  const mayMatch = wholeFileFilter(regex);
  const matches: GrepMatch[] = [];
  for await (const file of candidateFiles(query)) {
    throwIfAborted(query.signal);
    let bytes: Buffer;
    try {
      bytes = await asyncFs().readFile(file);
    } catch {
      continue;
    }
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) continue;
    const content = bytes.toString("utf8");
    if (!mayMatch(content)) continue;
    const lines = content.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (let i = 0; i < lines.length; i++) {
      const text = cleanLine(lines[i] ?? "");
      if (!regex.test(text)) continue;
      matches.push({ file, line: i + 1, text });
      if (matches.length >= query.limit) return { matches, limitReached: true };
    }
  }
  return { matches, limitReached: false };
}
