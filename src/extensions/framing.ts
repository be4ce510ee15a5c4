/**
 * Bytes ⇄ frames for pig-ext/1: one JSON text per line, ended by LF (0x0A) and nothing else.
 * Lines are cut on the byte 0x0A before any decoding, so a UTF-8 sequence split across reads is
 * whole again by the time it is decoded (0x0A never occurs inside one), and U+2028/U+2029 inside
 * strings are ordinary characters. A message longer than the frame limit travels as `$/part`
 * frames whose `data` strings concatenate to its JSON text.
 */

const LF = 0x0a;
const utf8 = new TextEncoder();

export interface LineSplitterOptions {
  /** Longest line accepted, LF excluded. */
  maxLineBytes: number;
  onLine(line: string): void;
  /**
   * A line went over the limit; its bytes are dropped up to the next LF. `head` is its start
   * (up to `OVERSIZE_HEAD_BYTES`, decoded loosely), enough to find the id of a response.
   */
  onOversize(bytes: number, head: string): void;
}

/** How much of an oversized line is kept, to tell whose answer it was. */
export const OVERSIZE_HEAD_BYTES = 256;

export class LineSplitter {
  private parts: Uint8Array[] = [];
  private size = 0;
  /** Inside an oversized line: bytes are counted, not kept (but for its head). */
  private dropping = false;
  private head: Uint8Array | undefined;
  private readonly decoder = new TextDecoder("utf-8");

  constructor(private readonly options: LineSplitterOptions) {}

  set maxLineBytes(value: number) {
    this.options.maxLineBytes = value;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(LF, start);
      const end = nl < 0 ? chunk.length : nl;
      this.take(chunk.subarray(start, end));
      if (nl < 0) return;
      this.finishLine();
      start = nl + 1;
    }
  }

  private take(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.size += bytes.length;
    if (this.dropping) return;
    if (this.size > this.options.maxLineBytes) {
      this.dropping = true;
      const kept = this.parts.length > 0 ? concatBytes(this.parts, this.size - bytes.length) : new Uint8Array(0);
      const head = new Uint8Array(Math.min(OVERSIZE_HEAD_BYTES, kept.length + bytes.length));
      head.set(kept.subarray(0, head.length));
      if (kept.length < head.length) head.set(bytes.subarray(0, head.length - kept.length), kept.length);
      this.head = head;
      this.parts = [];
      return;
    }
    // The transport may reuse its read buffer: keep a copy of anything not finished yet.
    this.parts.push(bytes.slice());
  }

  private finishLine(): void {
    const size = this.size;
    const dropping = this.dropping;
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    this.dropping = false;
    if (dropping) {
      const head = this.head ? new TextDecoder("utf-8").decode(this.head) : "";
      this.head = undefined;
      this.options.onOversize(size, head);
      return;
    }
    if (size === 0) return;
    const bytes = parts.length === 1 ? parts[0]! : concatBytes(parts, size);
    const line = this.decoder.decode(bytes);
    if (line.trim() === "") return;
    this.options.onLine(line);
  }
}

/** `parts` one after another in one array of `size` bytes (their total length). */
export function concatBytes(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Room a `$/part` envelope needs next to its data (method, stream id, flags, escaping slack). */
const PART_OVERHEAD = 160;

/**
 * The lines (each LF-terminated) that carry `message`. One line when it fits; else `$/part`
 * notifications, each within `maxFrameBytes`, cut only between whole code points.
 */
export function encodeFrames(message: unknown, maxFrameBytes: number, nextStream: () => string | number): Uint8Array[] {
  const text = JSON.stringify(message);
  const bytes = utf8.encode(text + "\n");
  if (bytes.length - 1 <= maxFrameBytes) return [bytes];
  const stream = nextStream();
  const budget = Math.max(64, maxFrameBytes - PART_OVERHEAD);
  const out: Uint8Array[] = [];
  let pos = 0;
  let span = budget;
  while (pos < text.length) {
    let end = Math.min(text.length, pos + span);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    const data = text.slice(pos, end);
    const final = end >= text.length;
    const line = utf8.encode(JSON.stringify({ jsonrpc: "2.0", method: "$/part", params: { stream, data, final } }) + "\n");
    if (line.length - 1 > maxFrameBytes && end - pos > 1) {
      // Multi-byte text or escapes grew the slice past the limit: shrink in proportion.
      span = Math.max(1, Math.floor(((end - pos) * budget) / (line.length + 1)));
      continue;
    }
    out.push(line);
    pos = end;
  }
  return out;
}

/** The first `OVERSIZE_HEAD_BYTES` characters of a stream's text so far (where `scanFrameHead` looks, as for an oversized line). */
function headOf(chunks: readonly string[]): string {
  let head = "";
  for (const chunk of chunks) {
    head += chunk.slice(0, OVERSIZE_HEAD_BYTES - head.length);
    if (head.length >= OVERSIZE_HEAD_BYTES) break;
  }
  return head;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** How many `$/part` streams one peer may have open at once. */
export const MAX_OPEN_PART_STREAMS = 16;

/** A `$/part` stream refused because too many are open already. */
export class TooManyStreams extends Error {}

/** Joins `$/part` streams back into whole JSON texts. */
/** A message reassembled from `$/part` frames may be this many times `maxFrameBytes` (in bytes), both ways. */
export const PART_LIMIT_FRAMES = 64;

/** A `$/part` stream that was open too long without a part, dropped. */
export interface StalledStream {
  stream: string | number;
  /** The start of its message's text, where its `id` and `method` are looked for. */
  head: string;
}

export class PartAssembler {
  private readonly streams = new Map<string, { stream: string | number; chunks: string[]; size: number; lastPartAt: number }>();

  /** `maxMessageBytes`: the longest reassembled message, in UTF-8 bytes (the unit of the frame limit). */
  constructor(
    public maxMessageBytes: number,
    private readonly maxStreams = MAX_OPEN_PART_STREAMS,
  ) {}

  /**
   * The whole text when `final`, else undefined. Throws when a stream grows past the limit, and
   * `TooManyStreams` for a new stream while `maxStreams` are open (that stream is dropped).
   */
  add(stream: string | number, data: string, final: boolean): string | undefined {
    const key = `${typeof stream}:${stream}`;
    const open = this.streams.get(key);
    if (!open && !final && this.streams.size >= this.maxStreams) {
      throw new TooManyStreams(`$/part stream ${String(stream)} refused: ${this.maxStreams} streams are open already`);
    }
    const entry = open ?? { stream, chunks: [], size: 0, lastPartAt: 0 };
    entry.lastPartAt = performance.now();
    entry.chunks.push(data);
    entry.size += Buffer.byteLength(data, "utf8");
    if (entry.size > this.maxMessageBytes) {
      this.streams.delete(key);
      throw new Error(`$/part stream ${String(stream)} exceeds ${this.maxMessageBytes} bytes`);
    }
    if (!final) {
      this.streams.set(key, entry);
      return undefined;
    }
    this.streams.delete(key);
    return entry.chunks.join("");
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** When the stream that has waited longest for a part got its last one (undefined: none is open). */
  get oldestPartAt(): number | undefined {
    let oldest: number | undefined;
    for (const entry of this.streams.values()) if (oldest === undefined || entry.lastPartAt < oldest) oldest = entry.lastPartAt;
    return oldest;
  }

  /** Drops and returns the streams whose last part came before `before`. */
  dropStalled(before: number): StalledStream[] {
    const out: StalledStream[] = [];
    for (const [key, entry] of this.streams) {
      if (entry.lastPartAt >= before) continue;
      this.streams.delete(key);
      out.push({ stream: entry.stream, head: headOf(entry.chunks) });
    }
    return out;
  }
}

/**
 * Writes to a transport whose `write` may accept only part of what it is given (a Bun socket
 * returns how many bytes it took); the rest waits for `drain()`.
 */
export class WriteQueue {
  private queue: Uint8Array[] = [];

  constructor(private readonly write: (bytes: Uint8Array) => number) {}

  push(bytes: Uint8Array): void {
    if (this.queue.length > 0) {
      this.queue.push(bytes);
      return;
    }
    const n = this.write(bytes);
    if (n < bytes.length) this.queue.push(bytes.subarray(Math.max(0, n)));
  }

  /** Call when the transport can take more. */
  drain(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      const n = this.write(head);
      if (n < head.length) {
        this.queue[0] = head.subarray(Math.max(0, n));
        return;
      }
      this.queue.shift();
    }
  }

  get pendingBytes(): number {
    return this.queue.reduce((sum, b) => sum + b.length, 0);
  }
}

/**
 * The top-level `id` and whether there is a top-level `method`, read from the start of a JSON
 * object (a frame cut short): keys nested deeper are skipped, so an `id` inside `result` or
 * `params` is never taken for the frame's.
 */
export function scanFrameHead(head: string): { id?: string | number; method: boolean } {
  const out: { id?: string | number; method: boolean } = { method: false };
  const n = head.length;
  let i = 0;
  let depth = 0;
  let expectKey = false;
  /** At an opening quote: the string's raw contents and the index after it, or undefined when cut off. */
  const stringAt = (at: number): { text: string; end: number } | undefined => {
    for (let k = at + 1; k < n; k++) {
      if (head[k] === "\\") k++;
      else if (head[k] === '"') return { text: head.slice(at + 1, k), end: k + 1 };
    }
    return undefined;
  };
  const skipSpace = (at: number): number => {
    while (at < n && /\s/.test(head[at]!)) at++;
    return at;
  };
  while (i < n) {
    const c = head[i]!;
    if (c === '"') {
      const str = stringAt(i);
      if (!str) break;
      i = str.end;
      if (depth !== 1 || !expectKey) continue;
      expectKey = false;
      let j = skipSpace(i);
      if (head[j] !== ":") continue;
      j = skipSpace(j + 1);
      if (str.text === "method") out.method = true;
      if (str.text === "id") {
        const num = /^-?\d+(?:\.\d+)?(?=[\s,}])/.exec(head.slice(j));
        if (num) out.id = Number(num[0]);
        else if (head[j] === '"') {
          const value = stringAt(j);
          if (value && !value.text.includes("\\")) out.id = value.text;
        }
      }
      i = j;
      continue;
    }
    if (c === "{" || c === "[") {
      depth++;
      expectKey = c === "{" && depth === 1;
    } else if (c === "}" || c === "]") depth--;
    else if (c === "," && depth === 1) expectKey = true;
    i++;
  }
  return out;
}
