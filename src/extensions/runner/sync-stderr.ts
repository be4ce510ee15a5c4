/**
 * The runner's stderr written through at once, as Node does for pipes on Linux. pig reads the
 * runner's stderr from a pipe (into the capped log); Bun queues `process.stderr.write` to a pipe
 * in memory and drops what is still queued when the process exits, so the last — and most
 * telling — lines of an extension that writes a lot and then ends would never reach its log.
 * A write blocks only until pig has read the pipe.
 */
import { writeSync } from "node:fs";

type WriteCallback = (error?: Error | null) => void;

/** Bun makes its end of the pipe non-blocking: a full pipe is waited out in short sleeps. */
const FULL_PIPE_WAIT_MS = 1;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export function writeStderrThrough(): void {
  const stream = process.stderr;
  const queued = stream.write.bind(stream) as (chunk: string | Uint8Array, callback?: WriteCallback) => boolean;
  stream.write = function (chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean {
    const done = typeof encoding === "function" ? encoding : callback;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : chunk;
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(2, bytes, offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
          Atomics.wait(sleeper, 0, 0, FULL_PIPE_WAIT_MS);
          continue;
        }
        // pig is gone (EPIPE) or stderr is closed: the queued way reports it as Bun would.
        return queued(bytes.subarray(offset), done);
      }
    }
    if (done) queueMicrotask(() => done(null));
    return true;
  } as typeof stream.write;
}
