/**
 * One JSON-RPC session with an MCP server over a transport: initialize (pig asks for the latest
 * protocol version and accepts any the server picks from the supported list), requests with ids,
 * a timeout each (reset by progress notifications) and cancellation (`notifications/cancelled`),
 * the server's `ping` answered, its notifications handed to listeners. `tools/list` follows
 * every page; `tools/call` reports progress.
 */
import * as v from "valibot";
import {
  CallToolResultSchema,
  classifyMessage,
  InitializeResultSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsResultSchema,
  ProgressParamsSchema,
  RPC_ERRORS,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type InitializeResult,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type McpTool,
} from "./protocol.ts";
import { McpConnectionError, type McpTransport } from "./transport.ts";

export interface ClientInfo {
  name: string;
  version: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Ms without an answer or a progress notification before the request fails. */
  timeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** The server answered with a JSON-RPC error. */
export class McpRemoteError extends Error {
  override name = "McpRemoteError";
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  restartTimer(): void;
  onProgress?: RequestOptions["onProgress"];
  cleanup(): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** A server that pages without end is stopped here. */
const MAX_PAGES = 1000;

export class McpClient {
  private nextId = 1;
  private readonly pending = new Map<JsonRpcId, Pending>();
  private readonly listeners = new Map<string, Set<(params: Record<string, unknown> | undefined) => void>>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private closedReason: string | undefined;
  initializeResult: InitializeResult | undefined;

  constructor(
    private readonly transport: McpTransport,
    private readonly info: ClientInfo,
    private readonly defaultTimeoutMs = DEFAULT_TIMEOUT_MS,
  ) {}

  get isClosed(): boolean {
    return this.closedReason !== undefined;
  }

  async connect(signal?: AbortSignal): Promise<InitializeResult> {
    await this.transport.start({ message: (value) => this.receive(value), closed: (reason) => this.onTransportClosed(reason) });
    const raw = await this.request("initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: this.info }, signal ? { signal } : {});
    const parsed = v.safeParse(InitializeResultSchema, raw);
    if (!parsed.success) throw new McpConnectionError(`the server's initialize result is invalid: ${parsed.issues[0]?.message}`);
    const result = parsed.output;
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
      throw new McpConnectionError(`the server chose protocol version ${result.protocolVersion}, which pig does not speak (${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`);
    }
    this.transport.setProtocolVersion?.(result.protocolVersion);
    await this.notify("notifications/initialized");
    this.initializeResult = result;
    return result;
  }

  /** Every tool of every page. */
  async listTools(options: RequestOptions = {}): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const raw = await this.request("tools/list", cursor === undefined ? {} : { cursor }, options);
      const parsed = v.safeParse(ListToolsResultSchema, raw);
      if (!parsed.success) throw new McpConnectionError(`the server's tools/list result is invalid: ${parsed.issues[0]?.message}`);
      tools.push(...parsed.output.tools);
      cursor = parsed.output.nextCursor || undefined;
      if (cursor === undefined) return tools;
    }
    throw new McpConnectionError(`the server's tool list has more than ${MAX_PAGES} pages`);
  }

  async callTool(name: string, args: Record<string, unknown>, options: RequestOptions = {}): Promise<CallToolResult> {
    const raw = await this.request("tools/call", { name, arguments: args }, options);
    const parsed = v.safeParse(CallToolResultSchema, raw);
    if (!parsed.success) throw new McpConnectionError(`the server's result for ${name} is invalid: ${parsed.issues[0]?.message}`);
    return parsed.output;
  }

  async ping(options: RequestOptions = {}): Promise<void> {
    await this.request("ping", undefined, options);
  }

  onNotification(method: string, listener: (params: Record<string, unknown> | undefined) => void): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.add(listener);
  }

  request(method: string, params: Record<string, unknown> | undefined, options: RequestOptions = {}): Promise<unknown> {
    if (this.closedReason !== undefined) return Promise.reject(new McpConnectionError(`the connection is closed: ${this.closedReason}`));
    if (options.signal?.aborted) return Promise.reject(abortError(options.signal));
    const id = this.nextId++;
    const withProgress = options.onProgress ? { ...params, _meta: { progressToken: id } } : params;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id, method, ...(withProgress ? { params: withProgress } : {}) };
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise<unknown>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => this.cancel(id, abortError(options.signal!), "aborted");
      const entry: Pending = {
        method,
        resolve,
        reject,
        restartTimer: () => {
          clearTimeout(timer);
          timer = setTimeout(() => this.cancel(id, new McpConnectionError(`${method} got no answer in ${Math.round(timeoutMs / 1000)} s`), "timed out"), timeoutMs);
        },
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        cleanup: () => {
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
        },
      };
      this.pending.set(id, entry);
      entry.restartTimer();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.transport.send(message, options.signal).catch((error: unknown) => this.settle(id, (p) => p.reject(error instanceof Error ? error : new Error(String(error)))));
    });
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    await this.transport.send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
  }

  /** Fails a pending request and tells the server to stop working on it (never initialize, as the spec says). */
  private cancel(id: JsonRpcId, error: Error, reason: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.settle(id, (p) => p.reject(error));
    if (entry.method !== "initialize" && !this.isClosed) void this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => undefined);
  }

  private settle(id: JsonRpcId, finish: (pending: Pending) => void): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry.cleanup();
    finish(entry);
  }

  private receive(value: unknown): void {
    const incoming = classifyMessage(value);
    switch (incoming.kind) {
      case "response": {
        const message = incoming.message;
        if (message.id === null) return;
        if ("error" in message) this.settle(message.id, (p) => p.reject(new McpRemoteError(message.error.code, message.error.message)));
        else this.settle(message.id, (p) => p.resolve(message.result));
        return;
      }
      case "request":
        void this.answer(incoming.message);
        return;
      case "notification": {
        const { method, params } = incoming.message;
        if (method === "notifications/progress") this.progress(params);
        for (const listener of this.listeners.get(method) ?? []) listener(params);
        return;
      }
      case "invalid":
        return;
    }
  }

  private progress(params: unknown): void {
    const parsed = v.safeParse(ProgressParamsSchema, params);
    if (!parsed.success) return;
    const entry = this.pending.get(parsed.output.progressToken);
    if (!entry?.onProgress) return;
    entry.restartTimer();
    const { progress, total, message } = parsed.output;
    entry.onProgress({ progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) });
  }

  /** The server's requests: `ping` is answered; pig offers no other client feature (roots, sampling, elicitation). */
  private async answer(request: JsonRpcRequest): Promise<void> {
    const reply: JsonRpcMessage =
      request.method === "ping"
        ? { jsonrpc: "2.0", id: request.id, result: {} }
        : { jsonrpc: "2.0", id: request.id, error: { code: RPC_ERRORS.methodNotFound, message: `pig does not offer ${request.method}` } };
    await this.transport.send(reply).catch(() => undefined);
  }

  private onTransportClosed(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const id of [...this.pending.keys()]) this.settle(id, (p) => p.reject(new McpConnectionError(`the connection closed: ${reason}`)));
    for (const listener of this.closeListeners) listener(reason);
  }

  async close(): Promise<void> {
    await this.transport.close();
    this.onTransportClosed("closed");
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException("The operation was aborted.", "AbortError");
}
