/**
 * A streamable-HTTP MCP server (the 2025-03-26 transport and later): every message is a POST;
 * a request is answered in the response, as JSON or as an SSE stream that may carry the server's
 * own requests and notifications before the answer. The session id the server gives at
 * initialize goes with every later request, and so does the agreed protocol version. Once the
 * session is up a GET stream carries what the server says unprompted (a changed tool list); it
 * is opened again with backoff when it drops, and not at all when the server answers 405. An
 * `McpAuthorizer` (OAuth) gives the headers of each request and is told of a 401.
 */
import { iterateSse } from "../ai/sse.ts";
import type { McpAuthorizer } from "./authorizer.ts";
import type { JsonRpcMessage } from "./protocol.ts";
import { McpConnectionError, type McpTransport, type TransportHandlers } from "./transport.ts";

export interface HttpOptions {
  url: string;
  headers: Record<string, string>;
  authorizer?: McpAuthorizer;
  /** Waits between tries (ms): a network error or a transient status is tried again this many times. */
  retryDelaysMs?: readonly number[];
}

/** The server wants a sign-in pig does not have: its state is "needs sign-in". */
export class McpNeedsSignIn extends Error {
  override name = "McpNeedsSignIn";
}

export class McpHttpError extends McpConnectionError {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);
const DEFAULT_RETRY_DELAYS = [250, 1000];
const GET_STREAM_DELAYS = [1000, 2000, 4000, 8000, 16000];

/** 401, or 403 asking for more scope (a step-up sign-in). */
function wantsAuthorization(response: Response): boolean {
  if (response.status === 401) return true;
  return response.status === 403 && /(?:^|[\s,])error="?insufficient_scope"?/i.test(response.headers.get("www-authenticate") ?? "");
}

function mediaType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
}

export class HttpTransport implements McpTransport {
  private handlers: TransportHandlers | undefined;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private readonly stop = new AbortController();
  private getStreamOpen = false;
  private closed = false;

  constructor(private readonly options: HttpOptions) {}

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async send(message: JsonRpcMessage, signal?: AbortSignal): Promise<void> {
    const isRequest = "method" in message && "id" in message;
    // A tool call is not sent twice: the server may have acted on the first.
    const retries = isRequest && message.method === "tools/call" ? [] : (this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS);
    const response = await this.post(message, retries, signal);
    if (response.status === 202 || !isRequest) {
      await response.body?.cancel().catch(() => undefined);
      // The session is up once initialize was acknowledged: the server's own stream opens.
      if ("method" in message && message.method === "notifications/initialized") this.openServerStream();
      if (isRequest) throw new McpHttpError(202, `the server accepted ${message.method} without answering it`);
      return;
    }
    const type = mediaType(response);
    if (type === "text/event-stream" && response.body) {
      // Read in the background: the answer (and what comes before it) arrives as events.
      void this.readEvents(response.body, message.id);
      return;
    }
    if (type !== "application/json") throw new McpHttpError(response.status, `the server answered ${message.method} with ${type || "no content type"}`);
    const body: unknown = await response.json().catch(() => {
      throw new McpHttpError(response.status, `the server's answer to ${message.method} is not JSON`);
    });
    for (const item of Array.isArray(body) ? body : [body]) this.handlers?.message(item);
  }

  private async readEvents(body: ReadableStream<Uint8Array>, answering: string | number): Promise<void> {
    let answered = false;
    try {
      for await (const event of iterateSse(body)) {
        if (event.data.trim() === "") continue;
        const value: unknown = JSON.parse(event.data);
        if (typeof value === "object" && value !== null && "id" in value && (value as { id: unknown }).id === answering && !("method" in value)) answered = true;
        this.handlers?.message(value);
      }
    } catch {
      // Told below as the request's failure.
    }
    if (!answered && !this.closed) {
      this.handlers?.message({ jsonrpc: "2.0", id: answering, error: { code: -32000, message: "the server's answer stream ended before the answer" } });
    }
  }

  /** After `notifications/initialized`: the stream of what the server says unprompted. */
  private openServerStream(): void {
    if (this.getStreamOpen || this.closed) return;
    this.getStreamOpen = true;
    void this.runServerStream();
  }

  private async runServerStream(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      try {
        const response = await this.fetchWithAuth("GET", undefined, { accept: "text/event-stream" });
        // The server offers no such stream (405), or not to this client.
        if (response.status === 405 || !response.ok || mediaType(response) !== "text/event-stream" || !response.body) {
          await response.body?.cancel().catch(() => undefined);
          if (response.status === 405 || !TRANSIENT.has(response.status)) return;
        } else {
          for await (const event of iterateSse(response.body)) {
            failures = 0;
            if (event.data.trim() === "") continue;
            try {
              this.handlers?.message(JSON.parse(event.data));
            } catch {
              // Not JSON: skipped, the stream goes on.
            }
          }
        }
      } catch (error) {
        if (this.closed || error instanceof McpNeedsSignIn) return;
      }
      const delay = GET_STREAM_DELAYS[failures++];
      if (delay === undefined) return;
      if (!(await this.sleep(delay))) return;
    }
  }

  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      timer.unref();
      this.stop.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  }

  private async post(message: JsonRpcMessage, retries: readonly number[], signal?: AbortSignal): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchWithAuth("POST", JSON.stringify(message), { accept: "application/json, text/event-stream", "content-type": "application/json" }, signal);
      } catch (error) {
        if (error instanceof McpNeedsSignIn || signal?.aborted || attempt >= retries.length) throw error instanceof McpNeedsSignIn ? error : new McpConnectionError(`cannot reach ${this.options.url}: ${(error as Error).message}`);
        await this.sleep(retries[attempt]!);
        continue;
      }
      if (response.ok) return response;
      await response.body?.cancel().catch(() => undefined);
      if (TRANSIENT.has(response.status) && attempt < retries.length) {
        await this.sleep(retries[attempt]!);
        continue;
      }
      if (response.status === 404 && this.sessionId) {
        this.sessionId = undefined;
        this.end("the server ended the session");
        throw new McpHttpError(404, "the server ended the session");
      }
      throw new McpHttpError(response.status, `${this.options.url} answered ${response.status} ${response.statusText}`.trim());
    }
  }

  /** One request with the configured and the authorizer's headers; a 401 is retried once when the authorizer is ready. */
  private async fetchWithAuth(method: "GET" | "POST" | "DELETE", body: string | undefined, extra: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const { authorizer } = this.options;
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers({ ...this.options.headers, ...extra });
      if (authorizer) for (const [name, value] of Object.entries(await authorizer.headers())) headers.set(name, value);
      if (this.sessionId) headers.set("mcp-session-id", this.sessionId);
      if (this.protocolVersion) headers.set("mcp-protocol-version", this.protocolVersion);
      const signals = signal ? AbortSignal.any([signal, this.stop.signal]) : this.stop.signal;
      const response = await fetch(this.options.url, { method, headers, ...(body !== undefined ? { body } : {}), signal: signals });
      const session = response.headers.get("mcp-session-id");
      if (session) this.sessionId = session;
      if (!wantsAuthorization(response)) return response;
      await response.body?.cancel().catch(() => undefined);
      if (!authorizer) throw new McpNeedsSignIn(`${this.options.url} asks for a sign-in (HTTP ${response.status})`);
      if (attempt > 0 || !(await authorizer.unauthorized(response))) throw new McpNeedsSignIn(`${this.options.url} asks for a sign-in (HTTP ${response.status})`);
    }
  }

  private end(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.stop.abort();
    this.handlers?.closed(reason);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const session = this.sessionId;
    this.end("closed");
    if (!session) return;
    // The server may free the session now; one that does not allow it answers 405, which is fine.
    const headers = new Headers(this.options.headers);
    headers.set("mcp-session-id", session);
    if (this.protocolVersion) headers.set("mcp-protocol-version", this.protocolVersion);
    try {
      const extra = this.options.authorizer ? await this.options.authorizer.headers() : {};
      for (const [name, value] of Object.entries(extra)) headers.set(name, value);
      const response = await fetch(this.options.url, { method: "DELETE", headers, signal: AbortSignal.timeout(2000) });
      await response.body?.cancel().catch(() => undefined);
    } catch {
      // The server is gone already.
    }
  }
}
