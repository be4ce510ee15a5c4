/**
 * When a session was last written: the one definition of "most recent" that `--continue`, the
 * listings and the `/resume` picker share.
 *
 * It is the later of the header's time and the last entry's time. Entries are appended in time
 * order, so the last one is the latest — except in a fork or clone, whose copied entries keep the
 * source's times under a header written when the copy was made: that copy counts from then.
 * The file's mtime is only the fallback for a file without times, because copying, syncing or
 * checking out session files changes it without anything being said in them.
 */
import { fstatSync } from "node:fs";
import { decodeUtf8, readRange } from "./lines.ts";

const NEWLINE = 0x0a;
/** The end of the file read first; a last line longer than this widens the window. */
const FIRST_WINDOW = 8 * 1024;

type Json = Record<string, unknown>;

/** Milliseconds of an ISO string or a number of milliseconds; undefined for anything else. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string") {
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** The time of one entry's line; undefined for a line that is no entry (torn, not JSON) or has no time. */
export function entryLineTime(text: string): number | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entry = value as Json;
  // The entry's own time is when it was written; an older writer may have put it only on the message.
  return timeOf(entry.timestamp) ?? timeOf((entry.message as Json | undefined)?.timestamp);
}

/**
 * The time of the last line of the file that is an entry with a time, read from the end: a torn
 * or unreadable last line (a write cut short) is passed over for the one before it.
 */
export function lastEntryTime(fd: number): number | undefined {
  const size = fstatSync(fd).size;
  let window = Math.min(size, FIRST_WINDOW);
  while (window > 0) {
    const from = size - window;
    const buf = readRange(fd, from, window);
    let end = buf.length;
    // Lines whole in the window, last first; the first is whole only when the window starts the file.
    for (let nl = buf.lastIndexOf(NEWLINE, end - 1); ; nl = buf.lastIndexOf(NEWLINE, end - 1)) {
      if (nl < 0 && from > 0) break;
      const start = nl + 1;
      if (end > start) {
        const time = entryLineTime(decodeUtf8(buf, start, end));
        if (time !== undefined) return time;
      }
      if (nl < 0) return undefined;
      end = nl;
    }
    if (window === size) return undefined;
    window = Math.min(size, window * 4);
  }
  return undefined;
}

/** When the session was last written (see above), given its header's time and its last entry's. */
export function lastWrittenAt(header: number | undefined, lastEntry: number | undefined, mtimeMs: number): number {
  if (header === undefined && lastEntry === undefined) return mtimeMs;
  return Math.max(header ?? -Infinity, lastEntry ?? -Infinity);
}
