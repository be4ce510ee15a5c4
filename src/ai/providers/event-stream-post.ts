/**
 * One streamed POST over plain fetch for the APIs without an SDK (Mistral, pi-messages): the
 * caller's hooks (`onPayload`, `onHeaders`, `onResponse`), a timeout until the response headers,
 * the response watch (idle timeout, HTML pages, oversized events), HTTP errors worded by the API,
 * and the final `error` event every failure becomes. No retries here: the agent retries.
 */
import { connectionErrorMessage } from "../connection-error.ts";
import { ResponseWatch } from "../response-watch.ts";
import { retryAfterMs } from "../retry-after.ts";
import { iterateSse, type SseEvent } from "../sse.ts";
import type { AssistantMessage, AssistantMessageEvent, StreamOptions } from "../types.ts";
import { cleanScratch, retryDelayTooLongMessage } from "./openai-shared.ts";
import { finalHeaders, finalPayload, headerRecord, presentHeaders } from "./request-hooks.ts";

/** How long to wait for the response headers when the settings do not say (the Anthropic SDK's default). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 600_000;
export const ABORTED_MESSAGE = "Request was aborted";

/** A failed answer, with what the final `error` event carries besides the message. */
export class StreamFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly retryDelayTooLong?: boolean,
  ) {
    super(message);
  }
}

export interface EventStreamRequest {
  url: string;
  headers: Record<string, string>;
  body: object;
}

/** The message for an HTTP error answer, in the API's words (status, the server's message). */
export type DescribeHttpError = (status: number, statusText: string, body: string) => string;

/**
 * Sends `request` and returns the events of the answer. Throws a `StreamFailure` for an HTTP
 * error and an Error saying what happened for a request that got no answer.
 */
export async function postEventStream(
  request: EventStreamRequest,
  options: StreamOptions,
  watch: ResponseWatch,
  signal: AbortSignal,
  describe: DescribeHttpError,
): Promise<AsyncGenerator<SseEvent>> {
  const headers = presentHeaders(await finalHeaders(request.headers, options));
  const body = JSON.stringify(await finalPayload(request.body, options));
  // The timeout covers the wait for the headers only: an answer may stream for as long as it has content.
  const timeout = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    timeout.abort();
  }, options.timeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS);
  let response: Response;
  try {
    response = await watch.fetch(request.url, { method: "POST", headers, body, signal: AbortSignal.any([signal, timeout.signal]) });
  } catch (error) {
    if (signal.aborted) throw new Error(ABORTED_MESSAGE);
    throw new Error(timedOut ? "Request timed out." : connectionErrorMessage(error), { cause: error });
  } finally {
    clearTimeout(timer);
  }
  await options.onResponse?.({ status: response.status, headers: headerRecord(response.headers) });
  if (!response.ok) {
    const text = await response.text().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    let message = describe(response.status, response.statusText, text);
    const wait = retryAfterMs(response.headers);
    const cap = options.maxRetryDelayMs ?? 0;
    const tooLong = (response.status === 429 || response.status >= 500) && wait !== undefined && cap > 0 && wait > cap;
    if (tooLong) message = `${message.replace(/[.\s]+$/, "")}. ${retryDelayTooLongMessage(wait, cap)}`;
    throw new StreamFailure(message, wait, tooLong || undefined);
  }
  if (!response.body) throw new Error("The response has no body");
  return iterateSse(response.body);
}

/**
 * The final `error` event for whatever ended a stream: an abort reads "Request was aborted", a
 * fault the watch diagnosed keeps its words, anything else its own message.
 */
export function failureEvent(output: AssistantMessage, error: unknown, signal: AbortSignal | undefined, watch: ResponseWatch): AssistantMessageEvent {
  cleanScratch(output);
  const aborted = signal?.aborted === true;
  output.stopReason = aborted ? "aborted" : "error";
  output.errorMessage = aborted
    ? ABORTED_MESSAGE
    : (watch.failure?.message ?? (error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error)));
  const failure = error instanceof StreamFailure ? error : undefined;
  return {
    type: "error",
    reason: aborted ? "aborted" : "error",
    error: output,
    ...(failure?.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    ...(failure?.retryDelayTooLong ? { retryDelayTooLong: true } : {}),
  };
}
