/**
 * Reading a configuration file a person keeps by hand: absent, its text, or why it cannot be
 * read, in words ("is a directory, not a file", "permission denied") rather than an errno line,
 * so every file kind reports the same fault the same way.
 */
import { readFileSync } from "node:fs";

export type ConfigRead =
  | { kind: "absent" }
  | { kind: "text"; text: string }
  /** `reason` reads after the path: "<path>: is a directory, not a file". */
  | { kind: "unreadable"; reason: string };

/** Why reading failed, as words to put after the path; undefined when the file is simply absent. */
export function unreadableReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // ENOTDIR: a parent is a file, so this file cannot exist.
  if (code === "ENOENT" || code === "ENOTDIR") return undefined;
  if (code === "EISDIR") return "is a directory, not a file";
  if (code === "EACCES" || code === "EPERM") return "cannot be read: permission denied";
  if (code === "ELOOP") return "cannot be read: too many levels of symbolic links";
  return `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

/** A resource file's text, or undefined after `warn` was told why it could not be read (`what` is not loaded). */
export function readResourceText(path: string, what: string, warn: (message: string) => void): string | undefined {
  const read = readConfigText(path);
  if (read.kind === "text") return read.text;
  warn(`${read.kind === "unreadable" ? read.reason : "does not exist"}; ${what} not loaded`);
  return undefined;
}

export function readConfigText(path: string): ConfigRead {
  try {
    return { kind: "text", text: readFileSync(path, "utf8") };
  } catch (error) {
    const reason = unreadableReason(error);
    return reason === undefined ? { kind: "absent" } : { kind: "unreadable", reason };
  }
}
