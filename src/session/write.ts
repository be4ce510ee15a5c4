/**
 * The only ways pig writes session files: a new file appears whole (written beside it, then
 * linked into place), later entries are appended as whole lines, and a migration writes a
 * complete new file and renames it over the old one. A write that fails leaves the file as it
 * was: a partly appended line is cut off again.
 */
import {
  closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, linkSync, openSync, readdirSync, readSync, renameSync, unlinkSync, writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { ownerGone } from "../util/lock-owner.ts";
import { openRegularFile } from "./regular-file.ts";

export interface AppendState {
  /** The size pig believes the file has. */
  size: number;
  endsWithNewline: boolean;
  /** Which file pig loaded or made (`fileIdentity`): another file under its name is not appended to. */
  identity?: string;
}

/** A file's identity: its device and inode, whatever name it is reached by. */
export function fileIdentity(stats: { dev: number; ino: number }): string {
  return `${stats.dev}:${stats.ino}`;
}

/**
 * The session file is not what pig left: it shrank, or another file took its name. Appending
 * to it could corrupt it, and the lines pig knows of may be gone.
 */
export class SessionFileChangedError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path} changed on disk while pig had it open (${detail})`);
    this.name = "SessionFileChangedError";
  }
}

/** A write that did not reach the file; the file holds what it held before. */
export class SessionWriteError extends Error {
  /** The system's error code (ENOSPC, EIO, EROFS, EACCES …), when there is one. */
  readonly code: string | undefined;

  constructor(
    readonly path: string,
    error: unknown,
  ) {
    super(`cannot write to ${path}: ${systemReason(error)}`, { cause: error });
    this.name = "SessionWriteError";
    this.code = (error as { code?: string })?.code;
  }
}

/** "no space left on device (ENOSPC)" from Node's "ENOSPC: no space left on device, write '…'". */
export function systemReason(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  const match = /^([A-Z0-9]+): (.*?)(?:, [a-z]+(?: '.*')?)?$/s.exec(message);
  return match ? `${match[2]} (${match[1]})` : message;
}

function writeAll(fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

function lastByte(fd: number, size: number): number {
  const one = Buffer.alloc(1);
  readSync(fd, one, 0, 1, size - 1);
  return one[0]!;
}

/** The bytes of `lines` as lines (each followed by `\n`), after `prefix`, and each line's offset from `start`. */
function encodeLines(lines: readonly string[], start: number, prefix = ""): { data: Buffer; offsets: number[]; end: number } {
  const chunks: Uint8Array[] = [];
  const offsets: number[] = [];
  let at = start + prefix.length;
  if (prefix) chunks.push(Buffer.from(prefix));
  for (const line of lines) {
    const bytes = Buffer.from(line, "utf8");
    offsets.push(at);
    at += bytes.length + 1;
    chunks.push(bytes, Buffer.from("\n"));
  }
  return { data: Buffer.concat(chunks), offsets, end: at };
}

/**
 * Appends `lines` (without newlines) in one write and returns each line's byte offset.
 * A file that does not end in `\n` (a torn last line) gets one first, so no line is joined to it.
 * Throws `SessionFileChangedError` if the file shrank since pig last saw it, or is another file
 * than the one pig had: someone rewrote it, and appending blindly could corrupt it. A failed write is undone (the file is cut back to its size before it) and
 * reported as a `SessionWriteError`.
 */
export function appendLines(path: string, state: AppendState, lines: readonly string[]): number[] {
  let fd: number;
  try {
    // Never created here: a session file that went away is not started again without its header.
    fd = openRegularFile(path, "append");
  } catch (error) {
    throw new SessionWriteError(path, error);
  }
  try {
    const stats = fstatSync(fd);
    if (state.identity !== undefined && fileIdentity(stats) !== state.identity) {
      throw new SessionFileChangedError(path, "another file has taken its name");
    }
    const actual = stats.size;
    if (actual < state.size) throw new SessionFileChangedError(path, `it shrank from ${state.size} to ${actual} bytes`);
    if (actual !== state.size) {
      // Another writer appended; carry on after its bytes.
      state.size = actual;
      state.endsWithNewline = actual === 0 || lastByte(fd, actual) === 0x0a;
    }
    const { data, offsets, end } = encodeLines(lines, state.size, state.endsWithNewline ? "" : "\n");
    try {
      writeAll(fd, data);
    } catch (error) {
      // Part of the data may be in the file: cut it off, so no half line stays behind.
      try {
        ftruncateSync(fd, actual);
      } catch {
        // The file cannot be cut either (an I/O error): the loader reports the torn line.
      }
      throw new SessionWriteError(path, error);
    }
    state.size = end;
    state.endsWithNewline = true;
    return offsets;
  } finally {
    closeSync(fd);
  }
}

/**
 * The temp file a new or migrated session is written to before it takes its place. It names
 * the host as well as the process: only this host's dead processes' temp files are removed.
 */
function tempPathOf(path: string): string {
  return `${path}.tmp-${hostname()}-${process.pid}`;
}

const TEMP = /^(.+\.jsonl)\.tmp-(.+)-(\d+)$/;

/**
 * Writes `data` to a new file at `temp` (mode 0600) and syncs it: it is on disk before it gets
 * its real name, so after a power cut the file is whole or absent, never empty.
 */
function writeSyncedTemp(temp: string, data: Uint8Array): string {
  const fd = openSync(temp, "w", 0o600);
  try {
    writeAll(fd, data);
    fsyncSync(fd);
    return fileIdentity(fstatSync(fd));
  } finally {
    closeSync(fd);
  }
}

/** Removes a temp file that may never have been created or may already have its real name. */
function removeTemp(temp: string): void {
  try {
    unlinkSync(temp);
  } catch {
    // Not there.
  }
}

/**
 * Writes a new file holding `lines` and returns their offsets. It appears whole or not at all:
 * written beside the target, then linked into place; an existing file is never replaced.
 * `beforeLink` is handed the complete temp file just before it takes its name (to lock it).
 */
export function createFileWithLines(
  path: string,
  lines: readonly string[],
  beforeLink?: (temp: string) => void,
): { offsets: number[]; size: number; identity: string } {
  const { data, offsets, end } = encodeLines(lines, 0);
  const temp = tempPathOf(path);
  let identity: string;
  try {
    identity = writeSyncedTemp(temp, data);
    beforeLink?.(temp);
    try {
      linkSync(temp, path);
    } catch (error) {
      if ((error as { code?: string }).code === "EEXIST") throw error;
      // A file system without hard links: rename, having checked nothing is there.
      if (existsSync(path)) throw Object.assign(new Error(`${path} already exists`), { code: "EEXIST" });
      renameSync(temp, path);
    }
  } catch (error) {
    removeTemp(temp);
    if ((error as { code?: string }).code === "EEXIST") throw error;
    throw new SessionWriteError(path, error);
  }
  // Linked: the temp name goes; renamed: it is already gone.
  removeTemp(temp);
  return { offsets, size: end, identity };
}

/**
 * Replaces `path` with `content` via a temporary file and a rename, so a crash leaves one or the
 * other. `beforeRename` is handed the complete temp file just before it takes the name.
 */
export function replaceFile(path: string, content: Uint8Array, beforeRename?: (temp: string) => void): void {
  const temp = tempPathOf(path);
  try {
    writeSyncedTemp(temp, content);
    beforeRename?.(temp);
    renameSync(temp, path);
  } catch (error) {
    removeTemp(temp);
    throw new SessionWriteError(path, error);
  }
}

/**
 * Removes the temp files of session writes whose process is gone (pig was killed while writing
 * a new or migrated file), from `dir`; with `only`, just those of that session file.
 */
export function removeStaleTemps(dir: string, only?: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = TEMP.exec(name);
    if (!match) continue;
    if (only !== undefined && match[1] !== basename(only)) continue;
    const pid = Number(match[3]);
    // A temp file names its writer as a lock does: only a writer on this host can be known gone.
    if (pid === process.pid || !ownerGone({ pid, host: match[2]! })) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Removed meanwhile.
    }
  }
}

