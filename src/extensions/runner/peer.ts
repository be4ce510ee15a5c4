/**
 * The runner's side of a pig-ext/1 conversation: JSON-RPC requests both ways, notifications,
 * `$/cancel`, `$/progress`, `ping`, `$/part` reassembly, over a SocketPipe. It also offers
 * `requestSync`, which blocks the thread until the answer is in (for Pi's synchronous session
 * reads); frames that arrive meanwhile are kept and handled afterwards, in order.
 */
import { encodeFrames, LineSplitter, PART_LIMIT_FRAMES, PartAssembler } from "../framing.ts";
import { DEFAULT_MAX_FRAME_BYTES, ErrorCode } from "../protocol-constants.ts";
import type { PipeEvent, SocketPipe } from "./socket-pipe.ts";
import { RpcError } from "../rpc-error.ts";

type Json = Record<string, unknown>;

export interface IncomingRequest {
  signal: AbortSignal;
  progress(value: unknown): void;
}

export type RequestHandler = (params: Json, request: IncomingRequest) => unknown;
export type NotificationHandler = (params: Json) => void;

export { RpcError };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (value: unknown) => void;
}

export interface RequestOptions {
  signal?: AbortSignal;
  onProgress?: (value: unknown) => void;
}


export class Peer {
  private nextId = 1;
  private nextStream = 1;
  private maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
  private readonly pending = new Map<number | string, Pending>();
  private readonly incoming = new Map<number | string, AbortController>();
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  // The host's rule: 64 × maxFrameBytes, in bytes (a whole session log travels this way: 512 MiB by default).
  private readonly parts = new PartAssembler(PART_LIMIT_FRAMES * DEFAULT_MAX_FRAME_BYTES);
  /** Whole messages read but not handled yet (filled while a synchronous request waits). */
  private backlog: Json[] = [];
  private closed = false;
  private closeHandler: (reason?: string) => void = () => {};
  private readonly splitter: LineSplitter;
  private openedNow: () => void = () => {};
  /** Settles once the connection is open (what was written before then has left) or closed. */
  readonly opened = new Promise<void>((resolve) => (this.openedNow = resolve));

  constructor(private readonly pipe: SocketPipe) {
    this.splitter = new LineSplitter({
      maxLineBytes: DEFAULT_MAX_FRAME_BYTES,
      onLine: (line) => this.onLine(line),
      onOversize: (bytes) => process.stderr.write(`pig extension runner: dropped an oversized frame (${bytes} bytes)\n`),
    });
    pipe.onEvent((event) => {
      this.take(event);
      this.handleBacklog();
    });
  }

  setMaxFrameBytes(value: number): void {
    this.maxFrameBytes = value;
    this.splitter.maxLineBytes = value;
    this.parts.maxMessageBytes = PART_LIMIT_FRAMES * value;
  }

  onClose(handler: (reason?: string) => void): void {
    this.closeHandler = handler;
  }

  onRequest(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  onNotification(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, handler);
  }

  notify(method: string, params: unknown = {}): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  request<T = unknown>(method: string, params: unknown = {}, options: RequestOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new RpcError(ErrorCode.HandlerError, "pig closed the extension connection"));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.pending.delete(id)) return;
        this.notify("$/cancel", { id });
        reject(new RpcError(ErrorCode.Cancelled, "cancelled"));
      };
      this.pending.set(id, {
        resolve: (value) => {
          options.signal?.removeEventListener("abort", onAbort);
          resolve(value as T);
        },
        reject: (error) => {
          options.signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
        onProgress: options.onProgress,
      });
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /**
   * Blocks until the host answers; throws on an error answer, a closed socket or the timeout.
   * `dropEarlier` removes the queued notifications the host sent before this answer that it
   * matches (ones the answer already accounts for, as a fresh `session.subscribe` snapshot does).
   */
  requestSync<T = unknown>(method: string, params: unknown = {}, timeoutMs = 60_000, dropEarlier?: (method: string) => boolean): T {
    if (this.closed) throw new RpcError(ErrorCode.HandlerError, "pig closed the extension connection");
    const id = this.nextId++;
    let outcome: { ok: true; value: unknown } | { ok: false; error: Error } | undefined;
    this.pending.set(id, {
      resolve: (value) => (outcome = { ok: true, value }),
      reject: (error) => (outcome = { ok: false, error }),
    });
    this.send({ jsonrpc: "2.0", id, method, params });
    const deadline = performance.now() + timeoutMs;
    // Earlier messages stay queued (in order) for the event loop; only the answer is taken now.
    const mark = this.backlog.length;
    while (outcome === undefined) {
      this.settleResponses(mark, dropEarlier ? { id, drop: dropEarlier } : undefined);
      if (outcome !== undefined || this.closed) break;
      const left = deadline - performance.now();
      if (left <= 0) break;
      const got = this.pipe.takeSync(left);
      for (const event of got) this.take(event);
      // In pig's own process nothing answers later than `takeSync` returns: settle and stop.
      if (got.length === 0 && this.pipe.inProcess) {
        this.settleResponses(mark, dropEarlier ? { id, drop: dropEarlier } : undefined);
        break;
      }
    }
    this.pending.delete(id);
    queueMicrotask(() => this.handleBacklog());
    if (outcome === undefined) throw new RpcError(ErrorCode.HandlerError, `no answer from pig to ${method}`);
    if (!outcome.ok) throw outcome.error;
    return outcome.value as T;
  }

  private send(message: Json): void {
    if (this.closed) return;
    for (const frame of encodeFrames(message, this.maxFrameBytes, () => `r${this.nextStream++}`)) this.pipe.write(frame);
  }

  private take(event: PipeEvent): void {
    if (event.t === "data") this.splitter.push(event.bytes);
    else if (event.t === "closed") {
      this.openedNow();
      this.shut(event.error);
    } else this.openedNow();
  }

  private onLine(line: string): void {
    let message: Json;
    try {
      message = JSON.parse(line) as Json;
    } catch {
      this.send({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError, message: "invalid JSON" } });
      return;
    }
    if (message.method === "$/part") {
      const p = (message.params ?? {}) as { stream: string | number; data: string; final: boolean };
      const whole = this.parts.add(p.stream, p.data, p.final);
      if (whole !== undefined) this.onLine(whole);
      return;
    }
    this.backlog.push(message);
  }

  /** Answers waiting synchronous requests from the backlog, leaving everything else queued. */
  private settleResponses(from: number, earlier?: { id: number; drop: (method: string) => boolean }): void {
    for (let i = from; i < this.backlog.length; i++) {
      const m = this.backlog[i]!;
      if (m.method === undefined && m.id !== undefined && this.pending.has(m.id as number)) {
        this.backlog.splice(i--, 1);
        if (earlier && m.id === earlier.id) {
          const kept = this.backlog.slice(0, i + 1).filter((x) => !(typeof x.method === "string" && (x.id === undefined || x.id === null) && earlier.drop(x.method)));
          this.backlog.splice(0, i + 1, ...kept);
          i = kept.length - 1;
        }
        this.handle(m);
      }
    }
  }

  private handleBacklog(): void {
    while (this.backlog.length > 0) this.handle(this.backlog.shift()!);
  }

  private handle(m: Json): void {
    const method = m.method;
    if (typeof method !== "string") return this.handleResponse(m);
    const params = (m.params ?? {}) as Json;
    if (m.id === undefined || m.id === null) return this.handleNotification(method, params);
    void this.handleRequest(m.id as number | string, method, params);
  }

  private handleResponse(m: Json): void {
    const waiter = this.pending.get(m.id as number);
    if (!waiter) return;
    this.pending.delete(m.id as number);
    if (m.error) {
      const e = m.error as { code: number; message: string; data?: unknown };
      waiter.reject(new RpcError(e.code, e.message, e.data));
    } else waiter.resolve(m.result);
  }

  private handleNotification(method: string, params: Json): void {
    if (method === "$/cancel") {
      this.incoming.get(params.id as number)?.abort();
      return;
    }
    if (method === "$/progress") {
      this.pending.get(params.id as number)?.onProgress?.(params.value);
      return;
    }
    const handler = this.notificationHandlers.get(method);
    if (!handler) return;
    try {
      handler(params);
    } catch (error) {
      process.stderr.write(`pig extension runner: ${method}: ${describe(error)}\n`);
    }
  }

  private async handleRequest(id: number | string, method: string, params: Json): Promise<void> {
    if (method === "ping") return this.send({ jsonrpc: "2.0", id, result: {} });
    const handler = this.requestHandlers.get(method);
    if (!handler) {
      return this.send({ jsonrpc: "2.0", id, error: { code: ErrorCode.MethodNotFound, message: `unknown method ${method}` } });
    }
    const controller = new AbortController();
    this.incoming.set(id, controller);
    try {
      const result = await handler(params, {
        signal: controller.signal,
        progress: (value) => this.notify("$/progress", { id, value }),
      });
      this.send({ jsonrpc: "2.0", id, result: result ?? null });
    } catch (error) {
      const code = error instanceof RpcError ? error.code : ErrorCode.HandlerError;
      const data = error instanceof Error && error.stack ? { stack: error.stack } : undefined;
      this.send({ jsonrpc: "2.0", id, error: { code, message: describe(error), ...(data ? { data } : {}) } });
    } finally {
      this.incoming.delete(id);
    }
  }

  private shut(reason?: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.reject(new RpcError(ErrorCode.HandlerError, "pig closed the extension connection"));
    this.pending.clear();
    for (const controller of this.incoming.values()) controller.abort();
    this.closeHandler(reason);
  }

  close(): void {
    this.pipe.close();
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
