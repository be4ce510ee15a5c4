/**
 * Writing to stdout and stderr without Node's stream objects. The first touch of
 * `process.stdout` or `process.stderr` builds the stream machinery, which costs a compiled pig
 * ~20 ms; the non-interactive modes write whole texts, for which a blocking write is all it
 * takes. A pipe left non-blocking by the parent is waited on; a closed reader (`pig -p | head`)
 * ends the write quietly.
 */
import { writeSync } from "node:fs";

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `data` to `fd`, blocking until it is out. */
export function writeFully(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let offset = 0;
  while (offset < bytes.byteLength) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.byteLength - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A non-blocking pipe whose reader is slow: wait a moment and go on.
      if (code === "EAGAIN") Atomics.wait(pause, 0, 0, 1);
      // The reader went away (`pig … | head`): stop writing quietly.
      else if (code === "EPIPE") return;
      else throw error;
    }
  }
}

export function writeStdout(text: string): void {
  writeFully(1, text);
}

export function writeStderr(text: string): void {
  writeFully(2, text);
}
