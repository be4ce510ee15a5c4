/**
 * The RPC wire: one JSON value per line, split on LF only (a trailing CR is dropped; U+2028 and
 * U+2029 are ordinary characters inside strings). Lines may be very large — a prompt with a
 * 50 MB image is one line — so input is gathered as byte chunks and decoded once per line.
 */
import { holdsLongArray, stringifyInPieces } from "../util/json-pieces.ts";
import { writeStdout } from "../util/stdio.ts";

/** The longest line pig accepts (512 MiB); a longer one is answered with a parse error. */
export const MAX_LINE_BYTES = 512 * 1024 * 1024;

export type LineHandler = (line: string) => void;
export type OversizeHandler = (bytes: number) => void;

/** Splits a byte stream into lines; call `push` per chunk and `end` at EOF. */
export class LineSplitter {
  private chunks: Uint8Array[] = [];
  private pending = 0;
  private skipping = false;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly onLine: LineHandler,
    private readonly onOversize: OversizeHandler,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      this.take(chunk.subarray(start, nl));
      this.emit();
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  end(): void {
    if (this.pending > 0 || this.skipping) this.emit();
  }

  private take(part: Uint8Array): void {
    if (this.skipping) {
      this.pending += part.length;
      return;
    }
    this.pending += part.length;
    if (this.pending > MAX_LINE_BYTES) {
      // Stop keeping the bytes: the line will be refused whole.
      this.skipping = true;
      this.chunks = [];
      return;
    }
    // The chunk buffer may be reused by the reader: keep a copy.
    this.chunks.push(part.slice());
  }

  private emit(): void {
    if (this.skipping) {
      const bytes = this.pending;
      this.reset();
      this.onOversize(bytes);
      return;
    }
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.reset();
    let line = this.decoder.decode(bytes);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    this.onLine(line);
  }

  private reset(): void {
    this.chunks = [];
    this.pending = 0;
    this.skipping = false;
  }
}

/**
 * Writes one record as a line, whole, even to a slow or non-blocking pipe. One that holds a long
 * array (`get_messages`) is written in pieces as its JSON is made (util/json-pieces.ts); the
 * writes are synchronous, so nothing else gets between them.
 */
export function writeRecord(value: unknown): void {
  if (holdsLongArray(value)) {
    stringifyInPieces(value, writeStdout);
    writeStdout("\n");
    return;
  }
  writeStdout(`${JSON.stringify(value)}\n`);
}
