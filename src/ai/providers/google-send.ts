/**
 * One streamed answer from a Google API, whichever of the two: the request is built from the
 * shared body, sent where `target` says with the credentials it resolved, and the answer read as
 * Gemini's event stream. Nothing throws: every failure ends in an `error` event.
 */
import { ResponseWatch } from "../response-watch.ts";
import { iterateSse, type SseEvent } from "../sse.ts";
import { observed, sseData } from "../stream-observer.ts";
import { doneEvent, newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type LlmContext, type Model, type StreamOptions } from "../types.ts";
import { finalHeaders, finalPayload, presentHeaders } from "./request-hooks.ts";
import type { GoogleDialect } from "./google-convert.ts";
import { googleHttpFailure } from "./google-errors.ts";
import { buildGoogleBody } from "./google-request.ts";
import { googleMessageEvents } from "./google-stream.ts";
import { DEFAULT_HEADERS_TIMEOUT_MS, postWithRetries, sdkBackoffMs, sdkRetryableStatus } from "./retrying-post.ts";
import { ABORTED_MESSAGE, closeQuietly, failureEvent, StreamAbort } from "./stream-failure.ts";

export { ABORTED_MESSAGE };
/** How long to wait for the response headers unless `retry.provider.timeoutMs` says otherwise. */
export const DEFAULT_TIMEOUT_MS = DEFAULT_HEADERS_TIMEOUT_MS;

/** Where one request goes and how it authenticates. */
export interface GoogleTarget {
  url: string;
  /** Credential headers (`x-goog-api-key` or `authorization`) and any the API adds. */
  headers: Record<string, string>;
  /** Values that must never show in an error text (an access token the API obtained). */
  secrets?: string[];
}

export interface GoogleApi {
  dialect: GoogleDialect;
  /** Names the API in "… stream ended without a finish reason". */
  label: string;
  /** Resolves URL and credentials; throws with a message naming what is missing or wrong. */
  target(model: Model, options: StreamOptions, signal: AbortSignal): Promise<GoogleTarget>;
}

/** Credentials first, then the model's and the caller's headers (which may replace them), names without case. */
function requestHeaders(model: Model, options: StreamOptions, target: GoogleTarget): Record<string, string> {
  const out: Record<string, string> = {};
  const set = (name: string, value: string) => {
    for (const key of Object.keys(out)) if (key.toLowerCase() === name.toLowerCase()) delete out[key];
    out[name] = value;
  };
  set("content-type", "application/json");
  for (const extra of [target.headers, model.headers, options.headers]) {
    for (const [name, value] of Object.entries(extra ?? {})) set(name, value);
  }
  return out;
}

export async function* streamGoogle(api: GoogleApi, model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const userSignal = options.signal;
  const abort = new StreamAbort(userSignal);
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  let events: AsyncGenerator<SseEvent> | undefined;
  let secrets: string[] = [];
  try {
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    const body = buildGoogleBody(model, context, options, api.dialect);
    const target = await api.target(model, options, abort.controller.signal);
    secrets = target.secrets ?? [];
    const headers = presentHeaders(await finalHeaders(requestHeaders(model, options, target), options));
    const payload = JSON.stringify(await finalPayload(body, options));
    const response = await postWithRetries(target.url, { headers, body: payload }, options, abort.controller, watch, {
      retries: Math.max(0, options.maxRetries ?? 0),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      timeoutMessage: "Request timed out.",
      retryableStatus: sdkRetryableStatus,
      backoffMs: sdkBackoffMs,
      httpFailure: (answer) => googleHttpFailure(answer, options.maxRetryDelayMs),
    });
    if (!response.body) throw new Error(`${api.label} answered with no body`);

    yield { type: "start", partial: output };
    events = observed(iterateSse(response.body), options.onStreamEvent, sseData);
    yield* googleMessageEvents(events, model, output, userSignal, () => watch.progress());
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    if (output.stopReason === "pending") throw new Error(`${api.label} stream ended without a finish reason`);
    if (output.stopReason === "error" || output.stopReason === "aborted") throw new Error(output.errorMessage ?? "An unknown error occurred");
    yield doneEvent(output.stopReason, output, []);
  } catch (error) {
    yield failureEvent(output, error, { signal: userSignal, watch, secrets });
  } finally {
    await closeQuietly(events);
    abort.release();
  }
}
