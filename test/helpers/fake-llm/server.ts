/**
 * A local fake LLM HTTP server for end-to-end tests and benchmarks. It speaks OpenAI Chat
 * Completions, Anthropic Messages and OpenAI Responses (chosen by request path), answers from a
 * `.script.json` script (format: fixtures README) or, in "text" mode, with "ok" to everything,
 * and logs every model request the way the fixtures' `*.requests.jsonl` do.
 *
 *   const llm = await startFakeLlm({ script: "test/fixtures/pi-0.73.1/01-basic-text.script.json" });
 *   // OpenAI base URL: `${llm.url}/v1`; Anthropic base URL: llm.url
 *   await llm.close();
 */
import { anthropicFrames } from "./anthropic.ts";
import { azureRefusal } from "./azure.ts";
import { bedrockErrorResponse, bedrockFrames, checkBedrockAuth, type BedrockAuth } from "./bedrock.ts";
import { chatFrames } from "./chat.ts";
import { codexErrorBody, codexRejection, requestBodyText } from "./codex.ts";
import { googleErrorBody, googleFrames } from "./google.ts";
import { type Api, errorBody, IdMaker, makePlan } from "./common.ts";
import { mistralFrames } from "./mistral.ts";
import { piMessagesFrames } from "./pi-messages.ts";
import { responsesFrames } from "./responses.ts";
import {
  loadScriptFile,
  parseScript,
  type LoadedScript,
  type Script,
  type ScriptRaw,
  ScriptCursor,
  type Selection,
  type Served,
  textModeSelection,
} from "./script.ts";
import { frameStream } from "./stream.ts";

export type { Api } from "./common.ts";
export type { Script, ScriptResponse, Served } from "./script.ts";

/** One model request, as in the fixtures' `*.requests.jsonl` (`seq` starts at 1). */
export interface RecordedRequest {
  seq: number;
  /** ISO time of arrival. */
  time: string;
  api: Api;
  method: string;
  /** URL path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  /** The query (`?api-version=v1`), when the URL has one. */
  query?: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The parsed JSON body (the raw text if it is not JSON). */
  body: unknown;
  served: Served;
}

export interface FakeLlmOptions {
  /** A script, or the path of a `.script.json` file. Default: no responses, so every answer is the fallback "ok". */
  script?: Script | string;
  /** "text": stateless, every request gets the text "ok" (how the fixtures' next-request runs were made). */
  mode?: "script" | "text";
  /** Default 0: a free port. The server only ever listens on 127.0.0.1. */
  port?: number;
  /** Called for every recorded request, e.g. to write a request log while a benchmark runs. */
  onRequest?: (request: RecordedRequest) => void;
  /**
   * Called when a model request's headers arrive, before its body is read and parsed: a benchmark
   * times the client from here, so the server's own work on a large body does not count.
   */
  onArrival?: (request: Request) => void;
  /** Awaited before a request is answered: a test holds an answer until it has seen some state. */
  beforeAnswer?: (request: RecordedRequest) => Promise<void> | void;
  /**
   * A stream that reaches `disconnectAfterChunks` waits for `dropOpenStreams()` (or `close()`)
   * instead of a short grace, so a test drops it once the client has read what the test asserts.
   */
  holdDisconnects?: boolean;
  /** Bedrock requests must be signed with these credentials or carry this bearer token (else 403). */
  bedrockAuth?: BedrockAuth;
}

export interface FakeLlm {
  /** `http://127.0.0.1:PORT`, without a trailing slash or `/v1`. */
  url: string;
  /** Every model request so far, in arrival order (model list requests are not logged). */
  requests: RecordedRequest[];
  /** Ends stalled streams, drops open connections and stops listening. */
  close(): Promise<void>;
  /**
   * Drops the connection of every open stream now (stalled, between chunks, or held before a
   * disconnect) and releases hanging requests, as `close()` does, but goes on listening.
   */
  dropOpenStreams(): void;
  /** Replaces the script (fresh consumption state) and switches to script mode. */
  setScript(script: Script | string): void;
  /** Replaces `beforeAnswer`. */
  setBeforeAnswer(hook: FakeLlmOptions["beforeAnswer"]): void;
  /** Answers still open: streaming, stalled or hanging (a client that leaves closes its own). */
  openStreamCount(): number;
}

const MODEL_ID = "fake-model";

function routeOf(method: string, path: string): Api | "models" | undefined {
  if (method === "POST" && path.startsWith("/mistral/") && path.endsWith("/chat/completions")) return "mistral";
  if (method === "POST" && path.startsWith("/pi-messages/") && path.endsWith("/messages")) return "pi-messages";
  if (method === "POST" && path.endsWith("/chat/completions")) return "chat";
  if (method === "POST" && path.endsWith("/messages")) return "anthropic";
  if (method === "POST" && path.endsWith("/openai/v1/responses")) return "azure";
  if (method === "POST" && path.endsWith("/codex/responses")) return "codex";
  if (method === "POST" && path.endsWith("/responses")) return "responses";
  if (method === "POST" && path.endsWith(":streamGenerateContent")) return "google";
  if (method === "POST" && path.endsWith("/converse-stream")) return "bedrock";
  if (method === "GET" && path.endsWith("/models")) return "models";
  return undefined;
}

function loadScript(script: Script | string | undefined): LoadedScript {
  if (script === undefined) return parseScript([]);
  return typeof script === "string" ? loadScriptFile(script) : parseScript(script);
}

function parseBody(raw: string): unknown {
  if (raw === "") return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Anthropic's SDK sends `anthropic-version`; its model list has another shape than OpenAI's. */
function modelsResponse(request: Request): Response {
  if (request.headers.has("anthropic-version")) {
    return Response.json({
      data: [{ type: "model", id: MODEL_ID, display_name: MODEL_ID, created_at: "2025-01-01T00:00:00Z" }],
      has_more: false,
      first_id: MODEL_ID,
      last_id: MODEL_ID,
    });
  }
  return Response.json({
    object: "list",
    data: [{ id: MODEL_ID, object: "model", created: 1735689600, owned_by: "fake" }],
  });
}

/** A body sent as the script gives it, repeated up to `repeatToBytes` (streamed, never held whole). */
function rawResponse(raw: ScriptRaw, api: Api, ids: IdMaker): Response {
  const headers = { "content-type": raw.contentType ?? "text/plain", ...requestIdHeader(api, ids), ...raw.headers };
  const status = raw.status ?? 200;
  if (!raw.repeatToBytes) return new Response(raw.body, { status, headers });
  const piece = new TextEncoder().encode(raw.body.length > 0 ? raw.body : " ");
  let sent = 0;
  const total = raw.repeatToBytes;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      // About 1 MB per pull.
      const times = Math.max(1, Math.floor((1 << 20) / piece.length));
      const chunk = new Uint8Array(Math.min(piece.length * times, total - sent));
      for (let at = 0; at < chunk.length; at += piece.length) chunk.set(piece.subarray(0, Math.min(piece.length, chunk.length - at)), at);
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return new Response(body, { status, headers });
}

function requestIdHeader(api: Api, ids: IdMaker): Record<string, string> {
  if (api === "bedrock") return { "x-amzn-requestid": ids.next("req_fake_") };
  return api === "anthropic" ? { "request-id": ids.next("req_fake_") } : { "x-request-id": ids.next("req_fake_") };
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  let mode = options.mode ?? "script";
  let cursor = new ScriptCursor(loadScript(options.script));
  const requests: RecordedRequest[] = [];
  // Request ids use their own counter so they do not shift the response/item ids Pi stores.
  const ids = new IdMaker();
  const requestIds = new IdMaker();
  const openStreams = new Set<() => void>();

  let beforeAnswer = options.beforeAnswer;

  async function answer(api: Api, selection: Selection, raw: string, body: unknown, signal: AbortSignal, path: string): Promise<Response> {
    const { response } = selection;
    if (response.delayMs) await Bun.sleep(response.delayMs);
    if (response.hang) {
      // Nothing at all until the client leaves or the server closes.
      await new Promise<void>((resolve) => {
        const release = () => {
          openStreams.delete(release);
          resolve();
        };
        openStreams.add(release);
        signal.addEventListener("abort", release, { once: true });
      });
      return new Response(null, { status: 504 });
    }
    if (response.raw) return rawResponse(response.raw, api, requestIds);
    if (response.error && api === "bedrock") return bedrockErrorResponse(response.error, requestIds.next("req_fake_"));
    if (response.error) {
      const errorJson = api === "google" ? googleErrorBody(response.error) : api === "codex" ? codexErrorBody(response.error) : errorBody(api, response.error);
      return Response.json(errorJson, {
        status: response.error.status,
        headers: { ...requestIdHeader(api, requestIds), ...response.error.headers },
      });
    }
    const plan = makePlan(response, raw, body, selection.chunkSize);
    const frames =
      api === "chat"
        ? chatFrames(plan, body, ids)
        : api === "anthropic"
          ? anthropicFrames(plan, ids)
          : api === "google"
            ? googleFrames(plan, ids, path)
          : api === "bedrock"
            ? bedrockFrames(plan, ids)
          : api === "mistral"
            ? mistralFrames(plan, ids)
          : api === "pi-messages"
            ? piMessagesFrames(plan, ids)
            : responsesFrames(plan, body, ids);
    const stream = frameStream(
      frames,
      {
        chunkDelayMs: response.chunkDelayMs ?? 0,
        ...(response.chunkIntervalMs !== undefined ? { chunkIntervalMs: response.chunkIntervalMs } : {}),
        stallAfterChunks: response.stallAfterChunks,
        ...(response.stallKeepAlive !== undefined
          ? { stallKeepAlive: { text: response.stallKeepAlive, everyMs: response.stallKeepAliveMs ?? 50 } }
          : {}),
        disconnectAfterChunks: response.disconnectAfterChunks,
        holdDisconnect: options.holdDisconnects ?? false,
      },
      openStreams,
    );
    return new Response(stream, {
      headers: {
        "content-type": api === "bedrock" ? "application/vnd.amazon.eventstream" : "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        ...requestIdHeader(api, requestIds),
      },
    });
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    // Stalled streams and long delays must not be cut by Bun's default 10 s idle timeout.
    idleTimeout: 0,
    development: false,
    async fetch(request) {
      const url = new URL(request.url);
      const route = routeOf(request.method, url.pathname);
      if (route === "models") return modelsResponse(request);
      if (route === undefined) {
        const message = `The fake LLM server has no ${request.method} ${url.pathname}`;
        return Response.json(errorBody("chat", { status: 404, message }), { status: 404 });
      }
      options.onArrival?.(request);
      const time = new Date().toISOString();
      const raw = await requestBodyText(request);
      const body = parseBody(raw);
      const selection = mode === "text" ? textModeSelection() : cursor.next(raw);
      const record: RecordedRequest = {
        seq: requests.length + 1,
        time,
        api: route,
        method: request.method,
        path: url.pathname,
        ...(url.search ? { query: url.search } : {}),
        headers: Object.fromEntries(request.headers),
        body,
        served: selection.served,
      };
      requests.push(record);
      options.onRequest?.(record);
      await beforeAnswer?.(record);
      const denied = route === "bedrock" && options.bedrockAuth ? checkBedrockAuth(request, raw, options.bedrockAuth) : undefined;
      if (denied !== undefined) return bedrockErrorResponse({ status: 403, message: denied }, requestIds.next("req_fake_"));
      return (route === "codex" ? codexRejection(request.headers) : route === "azure" ? azureRefusal(request, url) : undefined) ?? answer(route, selection, raw, body, request.signal, url.pathname);
    },
    error(error) {
      return Response.json(errorBody("chat", { status: 500, message: `fake LLM server bug: ${error.message}` }), {
        status: 500,
      });
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    async close() {
      for (const stop of [...openStreams]) stop();
      await server.stop(true);
    },
    dropOpenStreams() {
      for (const stop of [...openStreams]) stop();
    },
    setScript(script) {
      cursor = new ScriptCursor(loadScript(script));
      mode = "script";
    },
    setBeforeAnswer(hook) {
      beforeAnswer = hook;
    },
    openStreamCount: () => openStreams.size,
  };
}
