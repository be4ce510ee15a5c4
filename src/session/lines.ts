/**
 * Reading a JSONL file line by line with byte offsets, through one reused buffer.
 *
 * Large allocations are what makes reading big files slow here (page faults), so the scanner
 * never holds more than the buffer and the current line; callers keep offsets, not text.
 */
import { isUtf8 } from "node:buffer";
import { closeSync, readSync } from "node:fs";
import { openRegularFile } from "./regular-file.ts";
import type { Mutable } from "../util/mutable.ts";

const NEWLINE = 0x0a;
const INITIAL_BUFFER = 1 << 20;

// The buffer of the last scan that ended, for the next one: listing 2,000 sessions would
// otherwise allocate (and collect) 2 GB of buffers. A scan started inside another's callback
// finds it taken and allocates its own.
let spare: Buffer | undefined;

/**
 * The longest line a scan holds in memory: a line this long or longer is reported as
 * `oversized` and its bytes are counted, not kept, so a file with no newline cannot make pig
 * read gigabytes into one buffer. No session entry a provider can take comes near it.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/**
 * A line as `scanLines` hands it over. The scan hands the same object to every call, changed in
 * place: what a callback needs of a line it reads during the call (a 20,000-line file is not
 * made into 20,000 objects to collect).
 */
export interface ScannedLine {
  /** 1-based line number. */
  readonly lineNo: number;
  /** Byte offset of the line's first byte in the file. */
  readonly offset: number;
  /** Bytes of the line, without its terminating `\n`. */
  readonly length: number;
  /** Whether a `\n` follows the line (false only for the last line of a file without one). */
  readonly terminated: boolean;
  /** The buffer holding the line; valid only during the callback (and empty for an oversized line). */
  readonly buf: Uint8Array;
  /** Index of the line's first byte in `buf`. */
  readonly start: number;
  /** The line is at least the scan's `maxLineBytes` long: its bytes are not in `buf`. */
  readonly oversized: boolean;
  /** Known to be valid UTF-8 (only in a scan asked to check: `checkUtf8`). */
  readonly utf8: boolean;
}


export interface ScanResult {
  /** Bytes read (after an early stop: bytes read so far). */
  readonly size: number;
  /** Whether the file is empty or its last byte is `\n`. */
  readonly endsWithNewline: boolean;
}

const EMPTY = new Uint8Array(0);

/**
 * Calls `onLine` for every line of the file, in order. Returning `false` stops the scan.
 * `from` is the byte offset to start at (a line start); lines of `maxLineBytes` or more come
 * as `oversized`, without their bytes. With `checkUtf8`, the complete lines of each read are
 * checked for valid UTF-8 at once, and lines known to be so come marked `utf8` (a reader that
 * checks every line saves a check, and a view, per line; a scan that stops at a header is not
 * made to check a whole read).
 */
export function scanLines(
  fd: number,
  onLine: (line: ScannedLine) => boolean | void,
  from = 0,
  maxLineBytes = MAX_LINE_BYTES,
  checkUtf8 = false,
): ScanResult {
  const initial = spare ?? Buffer.allocUnsafe(INITIAL_BUFFER);
  spare = undefined;
  try {
    return scanWith(initial, fd, onLine, from, maxLineBytes, checkUtf8);
  } finally {
    // A buffer grown for one long line is a new one, let go; the usual one is kept.
    spare = initial;
  }
}

function scanWith(
  initial: Buffer,
  fd: number,
  onLine: (line: ScannedLine) => boolean | void,
  from: number,
  maxLineBytes: number,
  checkUtf8: boolean,
): ScanResult {
  let buf = initial;
  // Whether the lines that end in this read are all valid UTF-8 (a sequence cannot span a
  // newline, so the lines are valid exactly when the bytes up to the read's last newline are).
  let utf8 = false;
  let carry = 0; // bytes of an unfinished line kept at the start of buf
  let filePos = from; // file offset of the next byte to read
  let lineStartOffset = from;
  let lineNo = 0;
  let lastByte = -1;
  // Bytes of the current line passed over (not kept) because it reached the limit.
  let skipped: number | undefined;
  const line: Mutable<ScannedLine> = { lineNo: 0, offset: 0, length: 0, terminated: false, buf: EMPTY, start: 0, oversized: false, utf8: false };
  const deliver = (length: number, terminated: boolean, start: number): boolean | void => {
    const oversized = skipped !== undefined || length >= maxLineBytes;
    line.lineNo = ++lineNo;
    line.offset = lineStartOffset;
    line.length = length;
    line.terminated = terminated;
    line.buf = oversized ? EMPTY : buf;
    line.start = oversized ? 0 : start;
    line.oversized = oversized;
    line.utf8 = !oversized && utf8 && terminated;
    skipped = undefined;
    lineStartOffset += length + 1;
    return onLine(line);
  };
  for (;;) {
    if (skipped === undefined && carry >= maxLineBytes) {
      skipped = carry;
      carry = 0;
    }
    if (carry === buf.length) {
      // One line is longer than the buffer: grow it rather than split the line.
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, carry);
      buf = bigger;
    }
    const got = readSync(fd, buf, carry, buf.length - carry, filePos);
    filePos += got;
    const filled = carry + got;
    if (got > 0) lastByte = buf[filled - 1]!;
    if (checkUtf8) {
      // A read that goes on with a line too long to keep holds only the rest of it at its start: not checked here.
      // (A negative start would search from the buffer's end, through bytes of an earlier read.)
      const lastNewline = skipped === undefined && filled > 0 ? buf.lastIndexOf(NEWLINE, filled - 1) : -1;
      utf8 = lastNewline >= 0 && isUtf8(buf.subarray(0, lastNewline));
    }
    // Searched within the bytes read only: past them lies the rest of the buffer (a short file's
    // last read fills little of its 1 MiB), which a search would walk through, touching every page.
    const read = filled === buf.length ? buf : buf.subarray(0, filled);
    let start = 0;
    for (;;) {
      const nl = read.indexOf(NEWLINE, start);
      if (nl < 0) break;
      const stop = deliver((skipped ?? 0) + nl - start, true, start);
      start = nl + 1;
      if (stop === false) return { size: filePos - from, endsWithNewline: lastByte === NEWLINE };
    }
    if (got === 0) {
      const unfinished = skipped !== undefined || filled > 0;
      if (unfinished) deliver((skipped ?? 0) + filled, false, 0);
      return { size: filePos - from, endsWithNewline: !unfinished };
    }
    if (skipped !== undefined) {
      skipped += filled - start;
      carry = 0;
    } else {
      buf.copy(buf, 0, start, filled);
      carry = filled - start;
    }
  }
}

/** Reads `length` bytes at `offset`. */
export function readRange(fd: number, offset: number, length: number): Buffer {
  return readAtLeast(fd, offset, length, length);
}

/**
 * Reads up to `length` bytes at `offset` (fewer where the file ends sooner), but not fewer than
 * `least`: a file that ends before that throws.
 */
export function readAtLeast(fd: number, offset: number, length: number, least: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const got = readSync(fd, out, done, length - done, offset + done);
    if (got === 0) break;
    done += got;
  }
  if (done < least) throw new Error(`unexpected end of file at byte ${offset + done}`);
  return done === length ? out : out.subarray(0, done);
}

/** Runs `fn` with a read-only descriptor of the regular file `path`, closing it afterwards. */
export function withReadFd<T>(path: string, fn: (fd: number) => T): T {
  const fd = openRegularFile(path, "read");
  try {
    return fn(fd);
  } finally {
    closeSync(fd);
  }
}

const decoder = new TextDecoder();

export function decodeUtf8(buf: Uint8Array, start: number, end: number): string {
  return decoder.decode(buf.subarray(start, end));
}

/** Bytes as latin1 text: cheap, and exact for the ASCII prefixes the fast paths look at. */
export function latin1(buf: Uint8Array, start: number, end: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString("latin1");
}
