/**
 * The only ways pig writes session files: appending whole lines, and (for migration) writing a
 * complete new file beside the old one and renaming it into place.
 */
import { closeSync, fstatSync, fsyncSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";

export interface AppendState {
  /** The size pig believes the file has. */
  size: number;
  endsWithNewline: boolean;
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

/**
 * Appends `lines` (without newlines) in one write and returns each line's byte offset.
 * A file that does not end in `\n` (a torn last line) gets one first, so no line is joined to it.
 * Throws if the file shrank since pig last saw it: someone rewrote it, and appending blindly
 * could corrupt it.
 */
export function appendLines(path: string, state: AppendState, lines: readonly string[]): number[] {
  const fd = openSync(path, "a+");
  try {
    const actual = fstatSync(fd).size;
    if (actual < state.size) {
      throw new Error(`${path} changed on disk (it shrank from ${state.size} to ${actual} bytes); not appending to it`);
    }
    if (actual !== state.size) {
      // Another writer appended; carry on after its bytes.
      state.size = actual;
      state.endsWithNewline = actual === 0 || lastByte(fd, actual) === 0x0a;
    }
    const prefix = state.endsWithNewline ? "" : "\n";
    const encoded = lines.map((line) => Buffer.from(line, "utf8"));
    const offsets: number[] = [];
    let at = state.size + prefix.length;
    for (const bytes of encoded) {
      offsets.push(at);
      at += bytes.length + 1;
    }
    const chunks: Uint8Array[] = [];
    if (prefix) chunks.push(Buffer.from(prefix));
    for (const bytes of encoded) chunks.push(bytes, Buffer.from("\n"));
    writeAll(fd, Buffer.concat(chunks));
    state.size = at;
    state.endsWithNewline = true;
    return offsets;
  } finally {
    closeSync(fd);
  }
}

/** Replaces `path` with `content` via a temporary file and a rename, so a crash leaves one or the other. */
export function replaceFile(path: string, content: Uint8Array): void {
  const temp = `${path}.tmp-${process.pid}`;
  const fd = openSync(temp, "w", 0o600);
  try {
    writeAll(fd, content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
}
