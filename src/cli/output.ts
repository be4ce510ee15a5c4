/**
 * Buffered, synchronous writing to stdout through one reused buffer, so a command that prints
 * tens of megabytes (a session's context) neither holds it all in memory nor copies it twice.
 */
import { readSync } from "node:fs";
import { writeFully } from "../util/stdio.ts";
import { terminalSafe } from "../util/terminal-safe.ts";

const BUFFER_SIZE = 1 << 20;
const STDOUT = 1;

export class Output {
  private readonly buf = Buffer.allocUnsafe(BUFFER_SIZE);
  private used = 0;

  constructor(private readonly fd = STDOUT) {}

  write(chunk: string | Uint8Array): void {
    if (typeof chunk === "string") {
      // A UTF-8 encoding takes at most three bytes per UTF-16 unit.
      if (chunk.length * 3 > BUFFER_SIZE - this.used) this.flush();
      if (chunk.length * 3 > BUFFER_SIZE) {
        this.writeOut(Buffer.from(chunk, "utf8"));
        return;
      }
      this.used += this.buf.write(chunk, this.used, "utf8");
      return;
    }
    if (chunk.byteLength > BUFFER_SIZE - this.used) this.flush();
    if (chunk.byteLength > BUFFER_SIZE) {
      this.writeOut(chunk);
      return;
    }
    this.buf.set(chunk, this.used);
    this.used += chunk.byteLength;
  }

  line(text = ""): void {
    this.write(`${text}\n`);
  }

  /**
   * A line for a person to read, with text from a session file in it: made terminal-safe
   * (util/terminal-safe.ts) wherever it goes, as a listing is not data (`--json` is).
   */
  shown(text = ""): void {
    this.line(terminalSafe(text));
  }

  /** Copies `length` bytes of the file `fd` from `offset` to the output. */
  copyFrom(fd: number, offset: number, length: number): void {
    let done = 0;
    while (done < length) {
      if (this.used === BUFFER_SIZE) this.flush();
      const want = Math.min(length - done, BUFFER_SIZE - this.used);
      const got = readSync(fd, this.buf, this.used, want, offset + done);
      if (got === 0) throw new Error(`unexpected end of file at byte ${offset + done}`);
      this.used += got;
      done += got;
    }
  }

  flush(): void {
    if (this.used === 0) return;
    this.writeOut(this.buf.subarray(0, this.used));
    this.used = 0;
  }

  private writeOut(data: Uint8Array): void {
    writeFully(this.fd, data);
  }

  async end(): Promise<void> {
    this.flush();
  }
}
