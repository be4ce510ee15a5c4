/**
 * The runner's socket lives in a worker thread, so the main thread can block on it. Pi's
 * `ctx.sessionManager` reads are synchronous, yet the session log only crosses the socket once
 * asked for: the main thread sends the request, then `Atomics.wait`s until the worker has
 * forwarded more bytes and takes them with `receiveMessageOnPort` — without returning to the
 * event loop. Everything else flows through the same pipe asynchronously.
 *
 * The worker is a dumb byte pipe (framing stays on the main thread, in one place); its source
 * is inline (an `eval` worker) so the compiled binary needs no extra entry point.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { ENV_SOCKET } from "../launch-env.ts";

const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const { port, signal, path } = workerData;
const counter = new Int32Array(signal);
function wake() { Atomics.add(counter, 0, 1); Atomics.notify(counter, 0); }
let socket; let queue = [];
function flush() {
  while (queue.length > 0) {
    const head = queue[0];
    const n = socket.write(head);
    if (n < head.length) { queue[0] = head.subarray(Math.max(0, n)); return; }
    queue.shift();
  }
}
port.on("message", (msg) => {
  if (msg === "close") { if (socket) socket.end(); return; }
  const bytes = new Uint8Array(msg);
  if (!socket) { queue.push(bytes); return; }
  if (queue.length > 0) queue.push(bytes); else { const n = socket.write(bytes); if (n < bytes.length) queue.push(bytes.subarray(Math.max(0, n))); }
});
Bun.connect({ unix: path, socket: {
  open(s) { socket = s; port.postMessage({ t: "open" }); wake(); flush(); },
  data(s, chunk) { const copy = new Uint8Array(chunk); port.postMessage({ t: "data", bytes: copy }, [copy.buffer]); wake(); },
  drain() { flush(); },
  close() { port.postMessage({ t: "closed" }); wake(); },
  error(s, e) { port.postMessage({ t: "closed", error: String(e && e.message || e) }); wake(); },
  connectError(s, e) { port.postMessage({ t: "closed", error: String(e && e.message || e) }); wake(); },
}}).catch((e) => { port.postMessage({ t: "closed", error: String(e && e.message || e) }); wake(); });
`;

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
}

/**
 * The pipe to the socket pig launched this process with (undefined when it did not). The
 * thread takes the longest of the runner's start-up to come up, so the runner opens it before
 * it loads the rest of itself (cli/main.ts).
 */
export function openLaunchPipe(): SocketPipe | undefined {
  const path = process.env[ENV_SOCKET];
  return path ? openSocketPipe(path) : undefined;
}

export function openSocketPipe(path: string): SocketPipe {
  const signal = new SharedArrayBuffer(4);
  const counter = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, signal, path }, transferList: [port2] });
  // The worker must not keep the process alive by itself: the runner exits when the socket does.
  worker.unref();
  // Events that arrive before anyone listens (the pipe may open before the runner has loaded)
  // wait for the handler, in order.
  let early: PipeEvent[] | undefined = [];
  let handler: (event: PipeEvent) => void = (event) => early?.push(event);
  port1.on("message", (event: PipeEvent) => handler(event));
  return {
    write(bytes) {
      port1.postMessage(bytes);
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
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const seen = Atomics.load(counter, 0);
        const got = drain(port1);
        if (got.length > 0) return got;
        const left = deadline - performance.now();
        if (left <= 0) return [];
        Atomics.wait(counter, 0, seen, left);
      }
    },
    close() {
      port1.postMessage("close");
    },
  };
}

function drain(port: MessagePort): PipeEvent[] {
  const out: PipeEvent[] = [];
  for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) out.push(m.message as PipeEvent);
  return out;
}
