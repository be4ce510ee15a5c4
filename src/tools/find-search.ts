/**
 * The two ways find lists paths matching a glob: fd, or the built-in walk with fd's rules (a
 * pattern without "/" tests entry names, one with "/" the full path; smart case; directories
 * listed with a trailing "/"). Both return paths relative to the search directory.
 */
import { relative, sep } from "node:path";
import { abortError } from "./abort.ts";
import { fdSupportsNoRequireGit } from "./search-bin.ts";
import { runSearchProcess } from "./search-process.ts";
import { walk } from "./walk.ts";

export interface FindQuery {
  pattern: string;
  /** Absolute directory. */
  root: string;
  limit: number;
  signal: AbortSignal;
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** A path pattern is matched against the whole path, anywhere below the root unless anchored. */
function fullPathPattern(pattern: string): string {
  if (pattern.startsWith("/") || pattern.startsWith("**/") || pattern === "**") return pattern;
  return `**/${pattern}`;
}

/** fd's line for one result, relative to the search directory ("/" kept on directories). */
function relativeLine(root: string, line: string): string {
  const dirSuffix = line.endsWith("/") || line.endsWith(sep) ? "/" : "";
  const bare = dirSuffix ? line.slice(0, -1) : line;
  const prefix = root.endsWith(sep) ? root : root + sep;
  const rel = bare.startsWith(prefix) ? bare.slice(prefix.length) : relative(root, bare);
  return toPosix(rel) + dirSuffix;
}

export function findWithFd(fd: string, query: FindQuery): Promise<string[]> {
  const args = ["--glob", "--color=never", "--hidden"];
  if (fdSupportsNoRequireGit(fd)) args.push("--no-require-git");
  args.push("--max-results", String(query.limit));
  let pattern = query.pattern;
  if (pattern.includes("/")) {
    args.push("--full-path");
    pattern = fullPathPattern(pattern);
  }
  args.push("--", pattern, query.root);

  const lines: string[] = [];
  return runSearchProcess(fd, args, {
    name: "fd",
    signal: query.signal,
    onLine: (line) => {
      const trimmed = line.replace(/\r/g, "").trim();
      if (trimmed !== "") lines.push(trimmed);
    },
    onExit: (code, stderr) => {
      if (code !== 0 && lines.length === 0) throw new Error(stderr.trim() || `fd exited with code ${code}`);
      return lines.map((line) => relativeLine(query.root, line));
    },
  });
}

export async function findBuiltin(query: FindQuery): Promise<string[]> {
  const fullPath = query.pattern.includes("/");
  const pattern = fullPath ? fullPathPattern(query.pattern) : query.pattern;
  // fd's smart case: a pattern without capitals matches regardless of case.
  const caseSensitive = /\p{Lu}/u.test(pattern);
  const glob = new Bun.Glob(caseSensitive ? pattern : pattern.toLowerCase());
  const results: string[] = [];
  if (query.limit <= 0) return results;
  for await (const entry of walk(query.root, { signal: query.signal })) {
    const subject = fullPath ? toPosix(entry.path) : entry.name;
    if (!glob.match(caseSensitive ? subject : subject.toLowerCase())) continue;
    results.push(entry.kind === "dir" ? `${entry.rel}/` : entry.rel);
    if (results.length >= query.limit) break;
  }
  if (query.signal.aborted) throw abortError();
  return results;
}
