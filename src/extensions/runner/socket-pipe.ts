/**
 * The runner's socket, on the main thread. Pi's `ctx.sessionManager` reads are synchronous, yet
 * the session log only crosses the socket once asked for, so the thread must be able to block on
 * the socket: `takeSync` reads the socket's descriptor directly (`readSync`, which never waits on
 * a non-blocking socket, with short sleeps between tries) without returning to the event loop.
 * Everything else flows through Bun's socket asynchronously.
 *
 * Why not a worker thread that owns the socket, which is how this began: a worker is a second
 * JavaScript VM, ~14 MB of peak RSS in every runner (4–5 MB private), paid for the few
 * extensions that ever read the session synchronously. Reading the descriptor behind Bun's back
 * is safe because Bun hands every byte it reads to `data` at once, within the same turn of the
 * event loop: while this thread blocks, nothing else reads the socket, and `takeSync` drains the
 * socket before it returns, so the event loop does not find half a read waiting.
 */
import { peerUidProblem } from "../../util/socket-peer.ts";
import { concatBytes } from "../framing.ts";
import { ENV_SOCKET, EXIT_HOST_REFUSED } from "../launch-env.ts";

export type PipeEvent = { t: "open" } | { t: "data"; bytes: Uint8Array } | { t: "closed"; error?: string };

export interface SocketPipe {
  write(bytes: Uint8Array): void;
  /** Pipe events as they arrive, in order (the same events `takeSync` may take first). */
  onEvent(handler: (event: PipeEvent) => void): void;
  /**
   * Blocks the thread until at least one pipe event is available or `timeoutMs` passes;
   * returns what arrived (those events are not delivered to `onEvent` again).
   */
  takeSync(timeoutMs: number): PipeEvent[];
  close(): void;
  /** A pipe inside pig's own process (memory-pipe.ts): `takeSync` cannot wait for more. */
  readonly inProcess?: boolean;
}

/**
 * The pipe to the socket pig launched this process with (undefined when it did not). Connecting
 * is the one part of the runner's start-up that waits on pig, so the runner opens it before it
 * loads the rest of itself (cli/main.ts). A socket whose other end is not of the runner's user
 * is not pig's: the runner says so and exits with the status pig knows as a refusal, having
 * sent nothing and loaded nothing.
 */
export function openLaunchPipe(): SocketPipe | undefined {
  const path = process.env[ENV_SOCKET];
  return path ? openSocketPipe(path, { onRefused: refuseLaunch }) : undefined;
}

function refuseLaunch(reason: string): never {
  process.stderr.write(`pig extension runner: refused the host socket: ${reason}\n`);
  process.exit(EXIT_HOST_REFUSED);
}

export interface SocketPipeOptions {
  /**
   * The socket's peer is not of this process's user (util/socket-peer.ts): nothing has been
   * written to it. Called before the pipe reports itself closed.
   */
  onRefused?(reason: string): void;
}

type BunSocket = Awaited<ReturnType<typeof Bun.connect>>;

/** Longest sleep between two tries of a synchronous read (ms); the first tries are sooner. */
const MAX_PAUSE_MS = 1;
const READ_CHUNK = 256 * 1024;

export function openSocketPipe(path: string, options: SocketPipeOptions = {}): SocketPipe {
  let socket: BunSocket | undefined;
  let closed = false;
  let ending = false;
  let ended = false;
  // Bytes the kernel did not take yet, in order (written when the socket drains, or by takeSync).
  const queue: Uint8Array[] = [];
  // Events that arrive before anyone listens (the pipe may open before the runner has loaded)
  // wait for the handler, in order.
  let early: PipeEvent[] | undefined = [];
  let handler: (event: PipeEvent) => void = (event) => early?.push(event);
  const emit = (event: PipeEvent): void => handler(event);
  const shut = (error?: string): void => {
    if (closed) return;
    closed = true;
    queue.length = 0;
    process.off("exit", flushAtExit);
    emit(error === undefined ? { t: "closed" } : { t: "closed", error });
  };
  /** Writes what the kernel takes now; true when nothing is left queued. */
  const flush = (): boolean => {
    if (!socket || closed) return queue.length === 0;
    // One system call for what the turn queued (a runner loading 30 extensions sends ~60
    // messages; each write also wakes pig).
    if (queue.length > 1) queue.splice(0, queue.length, concatBytes(queue, queue.reduce((n, chunk) => n + chunk.length, 0)));
    while (queue.length > 0) {
      const head = queue[0]!;
      const n = socket.write(head);
      if (n < head.length) {
        queue[0] = head.subarray(Math.max(0, n));
        return false;
      }
      queue.shift();
    }
    if (ending && !ended) {
      ended = true;
      socket.end();
    }
    return true;
  };

  let scheduled = false;
  const flushScheduled = (): void => {
    scheduled = false;
    flush();
  };
  // An extension that sends and then calls process.exit in the same turn: what it sent goes first.
  const flushAtExit = (): void => {
    if (queue.length > 0) flush();
  };
  process.once("exit", flushAtExit);

  Bun.connect({
    unix: path,
    socket: {
      open(s) {
        // Checked on this very connection before a byte leaves: whoever can bind the path could
        // otherwise collect the token and hand the runner modules to load.
        const problem = peerUidProblem((s as unknown as { fd?: number }).fd);
        if (problem) {
          options.onRefused?.(problem);
          // Closed before the socket goes, so its close event adds nothing.
          shut(`refused the host socket: ${problem}`);
          s.terminate();
          return;
        }
        socket = s;
        emit({ t: "open" });
        flush();
      },
      // Bun reuses the chunk's memory after this returns: keep a copy.
      data(_s, chunk) {
        emit({ t: "data", bytes: new Uint8Array(chunk) });
      },
      drain() {
        flush();
      },
      close() {
        shut();
      },
      error(_s, error) {
        shut(describe(error));
      },
      connectError(_s, error) {
        shut(describe(error));
      },
    },
  }).catch((error: unknown) => shut(describe(error)));

  // Made with the first synchronous read (as is node:fs, which a runner otherwise does not load).
  let pause: Int32Array | undefined;
  let buffer: Uint8Array | undefined;

  /** What the socket holds right now, read to the end (the kernel's buffer empty again). */
  const readAvailable = (): PipeEvent[] => {
    const out: PipeEvent[] = [];
    const fd = (socket as unknown as { fd?: number } | undefined)?.fd;
    if (fd === undefined || fd < 0) return out;
    buffer ??= new Uint8Array(READ_CHUNK);
    const { readSync } = require("node:fs") as typeof import("node:fs");
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "EAGAIN" || code === "EWOULDBLOCK" || code === "EINTR") return out;
        closed = true;
        out.push({ t: "closed", error: describe(error) });
        return out;
      }
      if (n === 0) {
        closed = true;
        out.push({ t: "closed" });
        return out;
      }
      out.push({ t: "data", bytes: buffer.slice(0, n) });
    }
  };

  return {
    write(bytes) {
      if (closed) return;
      // Written once the current turn's synchronous work and microtasks are done, together with
      // whatever else they send (or sooner: takeSync and close flush first; the exit hook below).
      queue.push(bytes);
      if (scheduled || !socket) return;
      scheduled = true;
      queueMicrotask(flushScheduled);
    },
    onEvent(h) {
      const waiting = early ?? [];
      early = undefined;
      if (waiting.length === 0) {
        handler = h;
        return;
      }
      // Delivered as they would have been, from the event loop: not inside this call, and
      // before anything that arrives after them.
      handler = (event) => waiting.push(event);
      queueMicrotask(() => {
        for (const event of waiting) h(event);
        handler = h;
      });
    },
    takeSync(timeoutMs) {
      if (closed) return [];
      const deadline = performance.now() + timeoutMs;
      let waitMs = 0.02;
      for (;;) {
        flush();
        const got = readAvailable();
        if (got.length > 0) return got;
        const left = deadline - performance.now();
        if (left <= 0) return [];
        pause ??= new Int32Array(new SharedArrayBuffer(4));
        Atomics.wait(pause, 0, 0, Math.min(waitMs, left));
        waitMs = Math.min(waitMs * 2, MAX_PAUSE_MS);
      }
    },
    close() {
      if (closed || ending) return;
      ending = true;
      flush();
    },
  };
}

function describe(error: unknown): string {
  return String((error as { message?: unknown } | undefined)?.message ?? error);
}
