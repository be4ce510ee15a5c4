/**
 * One streamed POST over plain fetch for the APIs without an SDK (Mistral, pi-messages): the
 * caller's hooks (`onPayload`, `onHeaders`, `onResponse`), a timeout until the response headers,
 * the response watch (idle timeout, HTML pages, oversized events), HTTP errors worded by the API,
 * and the final `error` event every failure becomes. No retries here: the agent retries.
 */
import type { ResponseWatch } from "../response-watch.ts";
import { retryAfterMs } from "../retry-after.ts";
import { iterateSse, type SseEvent } from "../sse.ts";
import { observed, sseData } from "../stream-observer.ts";
import type { AssistantMessage, AssistantMessageEvent, StreamOptions } from "../types.ts";
import { finalHeaders, finalPayload, presentHeaders } from "./request-hooks.ts";
import { DEFAULT_HEADERS_TIMEOUT_MS, postWithRetries } from "./retrying-post.ts";
import { failureEvent as streamFailureEvent, retryDelayTooLongMessage, StreamFailure, type StreamAbort } from "./stream-failure.ts";

export { DEFAULT_HEADERS_TIMEOUT_MS };
export { ABORTED_MESSAGE, StreamFailure } from "./stream-failure.ts";

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
  abort: StreamAbort,
  describe: DescribeHttpError,
): Promise<AsyncGenerator<SseEvent>> {
  const headers = presentHeaders(await finalHeaders(request.headers, options));
  const body = JSON.stringify(await finalPayload(request.body, options));
  // The timeout covers the wait for the headers only: an answer may stream for as long as it has content.
  const response = await postWithRetries(request.url, { headers, body }, options, abort.controller, watch, {
    retries: 0,
    timeoutMs: options.timeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    timeoutMessage: "Request timed out.",
    retryableStatus: () => false,
    backoffMs: () => 0,
    httpFailure: (answer) => httpFailure(answer, options.maxRetryDelayMs, describe),
  });
  if (!response.body) throw new Error("The response has no body");
  return observed(iterateSse(response.body), options.onStreamEvent, sseData);
}

/** The API's words for an HTTP error answer, with pig's note when the server asks to wait too long. */
async function httpFailure(response: Response, maxRetryDelayMs: number | undefined, describe: DescribeHttpError): Promise<StreamFailure> {
  const text = await response.text().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  let message = describe(response.status, response.statusText, text);
  const wait = retryAfterMs(response.headers);
  const cap = maxRetryDelayMs ?? 0;
  const tooLong = (response.status === 429 || response.status >= 500) && wait !== undefined && cap > 0 && wait > cap;
  if (tooLong) message = `${message.replace(/[.\s]+$/, "")}. ${retryDelayTooLongMessage(wait, cap)}`;
  return new StreamFailure(message, wait, tooLong || undefined);
}

/** A thrown string keeps its words (a request hook may throw one); anything else as `errorText` says. */
function thrownText(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
}

/**
 * The final `error` event for whatever ended a stream: an abort reads "Request was aborted", a
 * fault the watch diagnosed keeps its words, anything else its own message.
 */
export function failureEvent(output: AssistantMessage, error: unknown, abort: StreamAbort, watch: ResponseWatch): AssistantMessageEvent {
  return streamFailureEvent(output, error, { signal: abort.signal, watch, describe: thrownText });
}
