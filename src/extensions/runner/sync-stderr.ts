/**
 * The runner's stderr written through at once, as Node does for pipes on Linux. pig reads the
 * runner's stderr from a pipe (into the capped log); Bun queues `process.stderr.write` to a pipe
 * in memory and drops what is still queued when the process exits, so the last — and most
 * telling — lines of an extension that writes a lot and then ends would never reach its log.
 * A write blocks only until pig has read the pipe.
 *
 * The stream is made when something first reads `process.stderr`: making it loads Node's stream
 * modules, about half of a bare runner's start-up CPU, and most runs never write to stderr.
 */
import type { WriteStream } from "node:fs";

type WriteCallback = (error?: Error | null) => void;
type StderrStream = NodeJS.WriteStream;

/** Bun makes its end of the pipe non-blocking: a full pipe is waited out in short sleeps. */
const FULL_PIPE_WAIT_MS = 1;
let sleeper: Int32Array | undefined;

export function writeStderrThrough(): void {
  // Bun makes `process.stderr` when it is first read, and defining a property over that lazy
  // one would make stdin, stdout and stderr at once; an assignment replaces it without making
  // any, after which the getter below can take its place.
  (process as { stderr: unknown }).stderr = undefined;
  let stream: StderrStream | undefined;
  Object.defineProperty(process, "stderr", {
    configurable: true,
    enumerable: true,
    get: () => (stream ??= throughStream()),
    set: (value: StderrStream) => {
      stream = value;
    },
  });
}

/** fd 2 as Bun's own `process.stderr` is made (a tty stream, or a file stream that never closes it), written through. */
function throughStream(): StderrStream {
  const tty = require("node:tty") as typeof import("node:tty");
  const fs = require("node:fs") as typeof import("node:fs");
  let stream: StderrStream;
  if (tty.isatty(2)) {
    stream = new tty.WriteStream(2);
    Object.assign(stream, { _type: "tty" });
  } else {
    // With a descriptor given, the path is not used (null, as Bun passes for its own).
    const file: WriteStream = fs.createWriteStream(null as unknown as string, { fd: 2, autoClose: false });
    Object.assign(file, { readable: false, _type: "fs" });
    stream = file as unknown as StderrStream;
  }
  Object.assign(stream, { _isStdio: true, destroySoon: stream.destroy });
  writeThrough(stream, fs.writeSync);
  return stream;
}

function writeThrough(stream: StderrStream, writeSync: typeof import("node:fs").writeSync): void {
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
          sleeper ??= new Int32Array(new SharedArrayBuffer(4));
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
