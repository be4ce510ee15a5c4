/**
 * The ChatGPT Codex endpoint (`openai-codex-responses`, provider `openai-codex`): the Responses
 * API for ChatGPT subscribers, over plain fetch and server-sent events. The request is built by
 * openai-codex-request.ts, the events are read by openai-responses-events.ts after the mapping
 * below, errors are worded by openai-codex-errors.ts.
 *
 * The credential (`apiKey`) is the sign-in's OAuth access token; the account it names is sent
 * along (openai-codex-account.ts). The body goes zstd-compressed, as upstream Pi and the Codex
 * client send it. Upstream Pi tries a WebSocket first and falls back to this transport; pig
 * speaks only this one (docs/decisions.md).
 *
 * Codex-specific events: `response.done` ends a response like `response.completed`; an `error`
 * or `response.failed` event ends the stream with the server's message; a status the Responses
 * API does not define is treated as absent.
 */
import * as v from "valibot";
import { iterateSse, type SseEvent } from "../sse.ts";
import { observed, sseData } from "../stream-observer.ts";
import { ResponseWatch } from "../response-watch.ts";
import {
  doneEvent,
  newAssistantMessage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type InvalidArguments,
  type LlmContext,
  type Model,
  type StreamFunction,
  type StreamOptions,
} from "../types.ts";
import { finalHeaders, finalPayload, presentHeaders } from "./request-hooks.ts";
import { postWithRetries } from "./retrying-post.ts";
import { ABORTED_MESSAGE, closeQuietly, failureEvent, nextSseEvent, StreamAbort } from "./stream-failure.ts";
import { codexAccountId, CodexTokenError } from "./openai-codex-account.ts";
import { buildCodexRequest } from "./openai-codex-request.ts";
import { codexEventError, codexFailedResponseError, codexHttpFailure, CodexStreamError } from "./openai-codex-errors.ts";
import { priceServiceTier } from "./openai-service-tier.ts";
import { responsesEvents } from "./openai-responses-events.ts";

type Json = Record<string, unknown>;

/** Upstream's compression level for Codex request bodies. */
const ZSTD_LEVEL = 3;
const STATUSES = new Set(["completed", "incomplete", "failed", "cancelled", "queued", "in_progress"]);
const EventSchema = v.looseObject({ type: v.string() });

/**
 * The Codex stream's events as the Responses reader takes them; ends at the first final response
 * event. A connection lost mid-body reads "terminated", as upstream reports it under Node.
 */
export async function* codexEvents(sse: AsyncIterator<SseEvent>, provider: string): AsyncGenerator<Json> {
  for (;;) {
    const next = await nextSseEvent(sse, provider);
    if (next.done) return;
    const data = next.value.data.trim();
    if (!data || data === "[DONE]") continue;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (error) {
      throw new CodexStreamError(`Invalid Codex SSE JSON: ${(error as Error).message}`);
    }
    const parsed = v.safeParse(EventSchema, json);
    if (!parsed.success) continue;
    const event = parsed.output as Json & { type: string };
    if (event.type === "error") throw codexEventError(event);
    if (event.type === "response.failed") throw codexFailedResponseError(event);
    if (event.type === "response.done" || event.type === "response.completed" || event.type === "response.incomplete") {
      const response = event.response as Json | undefined;
      const status = typeof response?.status === "string" && STATUSES.has(response.status) ? response.status : undefined;
      yield { ...event, type: "response.completed", ...(response ? { response: { ...response, status } } : {}) };
      await sse.return?.(undefined);
      return;
    }
    yield event;
  }
}

function retryable(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/**
 * One request, tried again up to `maxRetries` times (0 by default: pig's own retry loop handles
 * failures) after a dropped connection or a retryable status, waiting what the server asks or
 * 1 s doubling. `timeoutMs` bounds the wait for the response headers.
 */
function send(request: { url: string; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> }, model: Model, options: StreamOptions, controller: AbortController, watch: ResponseWatch): Promise<Response> {
  return postWithRetries(request.url, request, options, controller, watch, {
    retries: Math.max(0, options.maxRetries ?? 0),
    timeoutMs: options.timeoutMs !== undefined && options.timeoutMs > 0 ? options.timeoutMs : undefined,
    timeoutMessage: `Codex response headers timed out after ${options.timeoutMs}ms`,
    retryableStatus: retryable,
    backoffMs: (attempt) => 1000 * 2 ** attempt,
    httpFailure: (response) => codexHttpFailure(response, model.provider, options.maxRetryDelayMs),
  });
}

async function* streamCodex(model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const userSignal = options.signal;
  const abort = new StreamAbort(userSignal);
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  let sse: AsyncGenerator<SseEvent> | undefined;
  let events: AsyncGenerator<Json> | undefined;
  try {
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    if (!options.apiKey) throw new CodexTokenError(`No ChatGPT sign-in for ${model.provider}: run /login ${model.provider}`);
    const accountId = codexAccountId(options.apiKey, model.provider);
    const request = buildCodexRequest(model, context, options, accountId);
    const body = JSON.stringify(await finalPayload(request.body, options));
    const headers = presentHeaders(await finalHeaders(request.headers, options));
    headers["content-encoding"] = "zstd";
    const compressed = Bun.zstdCompressSync(body, { level: ZSTD_LEVEL });
    const response = await send({ url: request.url, headers, body: new Uint8Array(compressed) }, model, options, abort.controller, watch);
    if (!response.body) throw new Error("No response body");

    yield { type: "start", partial: output };
    sse = observed(iterateSse(response.body), options.onStreamEvent, sseData);
    events = codexEvents(sse, model.provider);
    const invalidArguments: InvalidArguments[] = [];
    const finished = yield* responsesEvents(events, { model, output, watch, invalidArguments, adjustUsage: priceServiceTier(model) });
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    if (!finished) throw new Error("Codex stream ended without a stop reason");
    if (output.stopReason === "error") throw new Error(output.errorMessage || "An unknown error occurred");
    yield doneEvent(output.stopReason as "stop" | "length" | "toolUse", output, invalidArguments);
  } catch (error) {
    yield failureEvent(output, error, { signal: userSignal, watch });
  } finally {
    await closeQuietly(events);
    await closeQuietly(sse);
    abort.release();
  }
}

/** Streams one Codex answer. Never throws; always ends with `done` or `error`. */
export const streamOpenAICodexResponses: StreamFunction = (model, context, options) => streamCodex(model, context, options);
