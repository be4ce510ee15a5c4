/**
 * Collects a command's output without holding all of it: exact line and byte totals for the whole
 * output, a decoded tail big enough for the 50 KB window, and (once the output is over the limits)
 * a private temp file with every raw byte (spill-files.ts), which the truncation notice points to.
 */
import { closeSync, writeSync } from "node:fs";
import { processSpillFiles, type SpillFiles } from "./spill-files.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateTail, type TruncationResult } from "./truncate.ts";

/** The tail is trimmed back to KEEP characters once it grows past TRIM_AT. */
const KEEP_CHARS = 100 * 1024;
const TRIM_AT_CHARS = 200 * 1024;
const NEWLINE = 0x0a;

export interface OutputSnapshot {
  /** The last lines within the limits (the whole output when it fits). */
  text: string;
  /** Set when the whole output is over the limits; totals are the whole output's. */
  truncation?: TruncationResult;
  fullOutputPath?: string;
  /** Why the full output could not be saved, when that happened. */
  fullOutputError?: string;
  /** Bytes of the output's last line (after its last newline). */
  lastLineBytes: number;
}

export class OutputAccumulator {
  private readonly decoder = new TextDecoder("utf-8");
  private tail = "";
  private bytes = 0;
  private newlines = 0;
  private bytesSinceNewline = 0;
  /** Raw chunks kept until the temp file exists; null afterwards. */
  private pending: Buffer[] | null = [];
  private fd: number | undefined;
  private path: string | undefined;
  private fileError: string | undefined;

  constructor(private readonly spillFiles: SpillFiles = processSpillFiles) {}

  get totalBytes(): number {
    return this.bytes;
  }

  /** Lines of the whole output, counted as truncate.ts counts them: a final line break starts no new line. */
  get totalLines(): number {
    return this.newlines + (this.bytesSinceNewline > 0 ? 1 : 0);
  }

  get overLimits(): boolean {
    return this.bytes > DEFAULT_MAX_BYTES || this.totalLines > DEFAULT_MAX_LINES;
  }

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline === -1) {
      this.bytesSinceNewline += chunk.length;
    } else {
      for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) this.newlines++;
      this.bytesSinceNewline = chunk.length - lastNewline - 1;
    }
    this.save(chunk);
    this.appendText(this.decoder.decode(chunk, { stream: true }));
  }

  /** Flushes the decoder and closes the temp file; call once the command has ended. */
  finish(): void {
    this.appendText(this.decoder.decode());
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  snapshot(): OutputSnapshot {
    const cut = truncateTail(this.tail);
    const base = { text: cut.content, lastLineBytes: this.bytesSinceNewline };
    if (!this.overLimits) return base;
    const truncation: TruncationResult = {
      ...cut,
      truncated: true,
      truncatedBy: cut.truncatedBy ?? (this.totalLines > DEFAULT_MAX_LINES ? "lines" : "bytes"),
      totalLines: this.totalLines,
      totalBytes: this.bytes,
    };
    return { ...base, truncation, fullOutputPath: this.path, fullOutputError: this.fileError };
  }

  private appendText(text: string): void {
    if (text === "") return;
    this.tail += text;
    if (this.tail.length <= TRIM_AT_CHARS) return;
    const kept = this.tail.slice(-KEEP_CHARS);
    // Start the tail at a line start when there is one; a single huge line is kept as a part.
    const newline = kept.indexOf("\n");
    this.tail = newline === -1 ? kept : kept.slice(newline + 1);
  }

  private save(chunk: Buffer): void {
    if (this.pending) {
      this.pending.push(chunk);
      if (this.overLimits) this.openFile();
      return;
    }
    if (this.fd !== undefined) writeSync(this.fd, chunk);
  }

  private openFile(): void {
    const chunks = this.pending ?? [];
    this.pending = null;
    let fd: number | undefined;
    try {
      const file = this.spillFiles.open();
      fd = file.fd;
      for (const chunk of chunks) writeSync(fd, chunk);
      this.fd = fd;
      this.path = file.path;
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      this.fileError = error instanceof Error ? error.message : String(error);
    }
  }
}
