/**
 * How tool arguments name files. Models often copy paths from chat renderings, so the usual
 * damage is undone first: a leading `@` (file mention syntax), exotic Unicode spaces, `~`.
 * `resolveReadPath` additionally guesses the spelling macOS uses for screenshot names and
 * typographic apostrophes, because those files are often read by a name typed with ASCII.
 */
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** No-break and typographic spaces that look like a plain space but aren't one. */
const ODD_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** Undoes chat-rendering damage and expands `~`; the result may still be relative. */
export function expandPath(path: string): string {
  let out = path.startsWith("@") ? path.slice(1) : path;
  out = out.replace(ODD_SPACES, " ");
  if (out === "~") return homedir();
  if (out.startsWith("~/")) return join(homedir(), out.slice(2));
  return out;
}

/** The absolute path a tool argument names, relative ones taken against the session's cwd. */
export function resolveToCwd(path: string, cwd: string): string {
  const expanded = expandPath(path);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}

/** Where a search (grep, find) starts: `path` (default ".") resolved, and whether it is a directory. */
export function resolveSearchRoot(path: string | undefined, cwd: string): { root: string; isDirectory: boolean } {
  const root = resolveToCwd(path || ".", cwd);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch {
    throw new Error(`Path not found: ${root}`);
  }
  return { root, isDirectory };
}

/** Spellings to try, in order, when the path as typed does not exist. */
function readPathVariants(path: string): string[] {
  // macOS writes "Screenshot 2024-01-01 at 10.00.00 PM.png" with U+202F before AM/PM.
  const narrowSpace = path.replace(/ (am|pm)\./gi, "\u202F$1.");
  const nfd = path.normalize("NFD");
  const curly = path.replace(/'/g, "\u2019");
  const nfdCurly = nfd.replace(/'/g, "\u2019");
  return [narrowSpace, nfd, curly, nfdCurly];
}

/** Like `resolveToCwd`, then tries the known alternative spellings of a missing file. */
export function resolveReadPath(path: string, cwd: string): string {
  const resolved = resolveToCwd(path, cwd);
  if (existsSync(resolved)) return resolved;
  for (const variant of readPathVariants(resolved)) {
    if (variant !== resolved && existsSync(variant)) return variant;
  }
  return resolved;
}
