/**
 * One pig-ext/1 peer over any byte transport: the host and the extension-side runner both use
 * it. It correlates responses with requests by id, carries `$/cancel` and `$/progress`, answers
 * `ping` itself (so a busy handler never looks dead), reassembles `$/part`, and answers a
 * malformed frame with an error instead of failing: a bad peer can waste its own requests,
 * never crash the other side.
 */
import * as v from "valibot";
import { encodeFrames, LineSplitter, PART_LIMIT_FRAMES, PartAssembler, scanFrameHead, type StalledStream, TooManyStreams } from "./framing.ts";
import {
  CancelParamsSchema,
  DEFAULT_MAX_FRAME_BYTES,
  ErrorCode,
  ErrorFrameSchema,
  IdSchema,
  NotificationFrameSchema,
  PartParamsSchema,
  ProgressParamsSchema,
  RequestFrameSchema,
  type RequestId,
  ResultFrameSchema,
} from "./protocol.ts";
import { describeIssues } from "./issue-text.ts";
import { PartStreamWatch } from "./part-watch.ts";
import { RpcError } from "./rpc-error.ts";

export { RpcError };

/** An answer that was coming as `$/part` frames and stopped coming: it never arrives whole. */
export class PartStreamStalled extends RpcError {
  override name = "PartStreamStalled";
}

export interface RequestContext {
  id: RequestId;
  /** Aborted by the peer's `$/cancel` or when the connection closes. */
  signal: AbortSignal;
  progress(value: unknown): void;
}

export interface RequestOptions {
  signal?: AbortSignal;
  onProgress?: (value: unknown) => void;
}

export type IncomingSchemas = Readonly<Record<string, v.GenericSchema>>;

export interface ConnectionOptions {
  /** Hand bytes to the transport (it must keep their order). */
  send(bytes: Uint8Array): void;
  /** Requests from the peer; throw an RpcError to pick the error code. */
  onRequest?(method: string, params: unknown, ctx: RequestContext): unknown;
  onNotification?(method: string, params: unknown): void;
  /** Something the peer sent was dropped or refused (for a log; never fatal). */
  onProtocolError?(message: string): void;
  /** Params of these methods are validated before a handler sees them (→ -32602). */
  incoming?: IncomingSchemas;
  maxFrameBytes?: number;
  /** A `$/part` stream left open this long without a part is dropped (0 or absent: never). */
  partTimeoutMs?: number;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (value: unknown) => void;
  cleanup(): void;
}

export class Connection {
  private nextId = 1;
  private nextStream = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly handling = new Map<RequestId, AbortController>();
  private readonly splitter: LineSplitter;
  private readonly parts: PartAssembler;
  private maxFrame: number;
  private closedWith: Error | undefined;
  private readonly partWatch: PartStreamWatch;

  constructor(private readonly options: ConnectionOptions) {
    this.maxFrame = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.splitter = new LineSplitter({
      maxLineBytes: this.maxFrame,
      onLine: (line) => this.onText(line),
      onOversize: (bytes, head) => this.onOversize(bytes, head),
    });
    // A reassembled message may be far larger than one frame, but not unbounded.
    this.parts = new PartAssembler(PART_LIMIT_FRAMES * this.maxFrame);
    this.partWatch = new PartStreamWatch(this.parts, options.partTimeoutMs ?? 0, (stalled, limitMs) => this.onStalledStream(stalled, limitMs));
  }

  /** How long a `$/part` stream may go without a part before it is dropped (0: no limit). */
  setPartTimeout(ms: number): void {
    this.partWatch.setLimit(ms);
  }

  get maxFrameBytes(): number {
    return this.maxFrame;
  }

  /** Adopt the size agreed in the handshake, for both directions. */
  setMaxFrameBytes(bytes: number): void {
    this.maxFrame = bytes;
    this.splitter.maxLineBytes = bytes;
    this.parts.maxMessageBytes = PART_LIMIT_FRAMES * bytes;
  }

  get closed(): boolean {
    return this.closedWith !== undefined;
  }

  /** Requests this side sent that have no answer yet. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Feed bytes read from the transport. */
  receive(bytes: Uint8Array): void {
    if (this.closedWith) return;
    this.splitter.push(bytes);
  }

  request(method: string, params?: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (options.signal?.aborted) return Promise.reject(new RpcError(ErrorCode.Cancelled, `${method} cancelled`));
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        this.notify("$/cancel", { id });
        reject(new RpcError(ErrorCode.Cancelled, `${method} cancelled`));
      };
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        method,
        resolve,
        reject,
        onProgress: options.onProgress,
        cleanup: () => options.signal?.removeEventListener("abort", onAbort),
      });
      this.write({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  notify(method: string, params?: unknown): void {
    if (this.closedWith) return;
    this.write({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /** The transport is gone: every open request fails with `error`, every handler is aborted. */
  close(error: Error = new Error("connection closed")): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const p of this.pending.values()) {
      p.cleanup();
      p.reject(error);
    }
    this.pending.clear();
    for (const c of this.handling.values()) c.abort(error);
    this.handling.clear();
    this.partWatch.stop();
  }

  /**
   * A `$/part` stream went without a part for the limit and was dropped. The request its answer
   * was for fails (every open request when its id cannot be read); a request of the peer's is
   * answered with an error, so neither side waits for a message that will never be whole.
   */
  private onStalledStream({ stream, head }: StalledStream, limitMs: number): void {
    const message = `$/part stream ${String(stream)} sent no part for ${limitMs / 1000}s and was dropped`;
    this.protocolError(message);
    const { id, method } = scanFrameHead(head);
    if (method) {
      if (id !== undefined) this.sendError(id, ErrorCode.FrameTooLarge, message);
      return;
    }
    this.failAnswered(id, (method) => new PartStreamStalled(ErrorCode.FrameTooLarge, `${method}: its answer stopped coming, ${message}`));
  }

  /**
   * Fails the open request an answer that was lost belonged to — every open request when its id
   * could not be read: none of them waits for an answer that will never come.
   */
  private failAnswered(id: RequestId | undefined, errorFor: (method: string) => Error): void {
    const victims = id !== undefined ? [id] : [...this.pending.keys()];
    for (const key of victims) {
      const p = this.pending.get(key);
      if (!p) continue;
      this.pending.delete(key);
      p.cleanup();
      p.reject(errorFor(p.method));
    }
  }

  private write(message: object): void {
    for (const line of encodeFrames(message, this.maxFrame, () => this.nextStream++)) this.options.send(line);
  }

  private sendError(id: RequestId | null, code: number, message: string, data?: unknown): void {
    if (this.closedWith) return;
    const error = data === undefined ? { code, message } : { code, message, data };
    this.write({ jsonrpc: "2.0", id, error });
  }

  private protocolError(message: string): void {
    this.options.onProtocolError?.(message);
  }

  /**
   * A line over the limit was dropped. A request of the peer's is answered with -32003 under its
   * id; a response fails the request it answered with the same error; one whose id cannot be
   * read fails every open request — none of them waits for an answer that was thrown away.
   */
  private onOversize(bytes: number, head: string): void {
    const message = `frame of ${bytes} bytes exceeds the limit of ${this.maxFrame} bytes; use $/part`;
    this.protocolError(message);
    const { id, method } = scanFrameHead(head);
    if (method) {
      if (id !== undefined) this.sendError(id, ErrorCode.FrameTooLarge, message);
      return;
    }
    this.sendError(null, ErrorCode.FrameTooLarge, message);
    this.failAnswered(id, (method) => new RpcError(ErrorCode.FrameTooLarge, `${method}: answer dropped, ${message}`));
  }

  private onText(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.protocolError(`unparsable frame: ${text.slice(0, 80)}`);
      this.sendError(null, ErrorCode.ParseError, "Parse error");
      return;
    }
    this.onFrame(raw);
  }

  private onFrame(raw: unknown): void {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      this.protocolError("frame is not a JSON object");
      this.sendError(null, ErrorCode.InvalidRequest, "Invalid request: a frame is one JSON object");
      return;
    }
    const record = raw as Record<string, unknown>;
    if ("method" in record) {
      if ("id" in record && record.id !== null) this.onRequest(record);
      else this.onNotification(record);
      return;
    }
    if ("result" in record || "error" in record) {
      this.onResponse(record);
      return;
    }
    this.protocolError("frame is neither a request, a notification nor a response");
    const id = v.is(IdSchema, record.id) ? record.id : null;
    this.sendError(id, ErrorCode.InvalidRequest, "Invalid request");
  }

  private onResponse(record: Record<string, unknown>): void {
    const ok = v.safeParse(ResultFrameSchema, record);
    const failed = ok.success ? undefined : v.safeParse(ErrorFrameSchema, record);
    const id = ok.success ? ok.output.id : failed?.success ? failed.output.id : undefined;
    if (id === undefined || id === null) {
      const err = failed?.success ? failed.output.error : undefined;
      this.protocolError(err ? `peer reported: ${err.message} (${err.code})` : "malformed response");
      return;
    }
    const p = this.pending.get(id);
    if (!p) return; // late answer to a request we cancelled
    this.pending.delete(id);
    p.cleanup();
    if (ok.success && !("error" in record)) p.resolve(ok.output.result);
    else if (failed?.success) p.reject(new RpcError(failed.output.error.code, failed.output.error.message, failed.output.error.data));
    else p.reject(new RpcError(ErrorCode.InvalidRequest, `malformed response to ${p.method}`));
  }

  private onNotification(record: Record<string, unknown>): void {
    const parsed = v.safeParse(NotificationFrameSchema, record);
    if (!parsed.success) {
      this.protocolError("malformed notification");
      return;
    }
    const { method, params } = parsed.output;
    switch (method) {
      case "$/cancel": {
        const p = v.safeParse(CancelParamsSchema, params);
        if (p.success) this.handling.get(p.output.id)?.abort(new RpcError(ErrorCode.Cancelled, "cancelled by peer"));
        return;
      }
      case "$/progress": {
        const p = v.safeParse(ProgressParamsSchema, params);
        if (p.success) this.pending.get(p.output.id)?.onProgress?.(p.output.value);
        return;
      }
      case "$/part": {
        const p = v.safeParse(PartParamsSchema, params);
        if (!p.success) {
          this.protocolError("malformed $/part");
          return;
        }
        let whole: string | undefined;
        try {
          whole = this.parts.add(p.output.stream, p.output.data, p.output.final);
        } catch (err) {
          this.protocolError((err as Error).message);
          if (err instanceof TooManyStreams) this.sendError(null, ErrorCode.FrameTooLarge, (err as Error).message);
          return;
        }
        this.partWatch.rearm();
        if (whole !== undefined) this.onText(whole);
        return;
      }
    }
    const schema = this.options.incoming?.[method];
    let value: unknown = params;
    if (schema) {
      // Checked once: the parse's output is what the handler gets.
      const checked = v.safeParse(schema, params ?? {});
      if (!checked.success) {
        this.protocolError(`invalid params for notification ${method}`);
        return;
      }
      value = checked.output;
    }
    try {
      this.options.onNotification?.(method, value);
    } catch (err) {
      this.protocolError(`notification ${method} failed: ${(err as Error).message}`);
    }
  }

  private onRequest(record: Record<string, unknown>): void {
    const parsed = v.safeParse(RequestFrameSchema, record);
    if (!parsed.success) {
      const id = v.is(IdSchema, record.id) ? record.id : null;
      this.sendError(id, ErrorCode.InvalidRequest, "Invalid request: id must be a string or number, method a string");
      return;
    }
    const { id, method } = parsed.output;
    if (method === "ping") {
      this.write({ jsonrpc: "2.0", id, result: {} });
      return;
    }
    if (this.handling.has(id)) {
      this.sendError(id, ErrorCode.InvalidRequest, `request id ${id} is already in use`);
      return;
    }
    const schema = this.options.incoming?.[method];
    let params: unknown = parsed.output.params;
    if (schema) {
      const checked = v.safeParse(schema, params ?? {});
      if (!checked.success) {
        this.sendError(id, ErrorCode.InvalidParams, `Invalid params for ${method}: ${describeIssues(checked.issues)}`);
        return;
      }
      params = checked.output;
    }
    const handler = this.options.onRequest;
    if (!handler) {
      this.sendError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    const controller = new AbortController();
    this.handling.set(id, controller);
    const ctx: RequestContext = {
      id,
      signal: controller.signal,
      progress: (value) => {
        if (this.handling.get(id) === controller) this.notify("$/progress", { id, value });
      },
    };
    const answer = (result: unknown) => {
      if (this.handling.get(id) !== controller) return;
      this.handling.delete(id);
      this.write({ jsonrpc: "2.0", id, result: result === undefined ? null : result });
    };
    const fail = (err: unknown) => {
      if (this.handling.get(id) !== controller) return;
      this.handling.delete(id);
      if (controller.signal.aborted) this.sendError(id, ErrorCode.Cancelled, "cancelled");
      else if (err instanceof RpcError) this.sendError(id, err.code, err.message, err.data);
      else this.sendError(id, ErrorCode.HandlerError, err instanceof Error ? err.message : String(err), errorData(err));
    };
    let result: unknown;
    try {
      result = handler(method, params, ctx);
    } catch (err) {
      fail(err);
      return;
    }
    // A result at hand is written at once: nothing sent later (a `session.appended` after a
    // `session.subscribe` snapshot) can overtake it.
    if (isThenable(result)) result.then(answer, fail);
    else answer(result);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function errorData(err: unknown): unknown {
  return err instanceof Error && err.stack ? { stack: err.stack } : undefined;
}
