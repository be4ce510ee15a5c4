/**
 * Writing to stdout and stderr without Node's stream objects. The first touch of
 * `process.stdout` or `process.stderr` builds the stream machinery, which costs a compiled pig
 * ~20 ms; the non-interactive modes write whole texts, for which a blocking write is all it
 * takes. A pipe left non-blocking by the parent is waited on; a closed reader (`pig -p | head`)
 * ends the write quietly.
 *
 * stderr carries lines for a person: every one is made terminal-safe (terminal-safe.ts) and has
 * the credentials of its URLs hidden, whoever wrote it, as error text from a provider, a file or
 * a package source is often part of it. stdout carries data (an answer, JSON) and is written as
 * it is; `displayOnStdout` is for what a person reads there.
 */
import { writeSync } from "node:fs";
import { isTerminal } from "./libc.ts";
import { hideUrlCredentials } from "./redact.ts";
import { terminalSafe } from "./terminal-safe.ts";

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
  writeFully(2, terminalSafe(hideUrlCredentials(text)));
}

/**
 * Text for a person (an answer, a listing) on stdout: made terminal-safe when stdout is a
 * terminal; in a pipe or a file it is data for a program, which gets the exact text.
 */
export function displayOnStdout(text: string): void {
  // isTerminal, not node:tty: loading node:tty builds the stream modules, ~20 ms at start-up.
  writeFully(1, isTerminal(1) ? terminalSafe(text) : text);
}
