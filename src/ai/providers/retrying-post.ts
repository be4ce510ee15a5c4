/**
 * One POST of a streamed request over plain fetch, tried again up to `retries` times (0 by
 * default: the agent retries) on a dropped connection or a retryable status, after the delay the
 * server asks for or the API's backoff. A retryable answer asking to wait past
 * `maxRetryDelayMs` is not retried: it fails with the API's words for it; nor is a refused
 * connection to this machine.
 */
import { connectionErrorMessage, refusedOnThisMachine } from "../connection-error.ts";
import type { ResponseWatch } from "../response-watch.ts";
import { retryAfterMs } from "../retry-after.ts";
import type { StreamOptions } from "../types.ts";
import { sleep } from "../../util/wait.ts";
import { headerRecord } from "./request-hooks.ts";
import { ABORTED_MESSAGE, StreamAbort } from "./stream-failure.ts";

/** The SDKs' default bound on the wait for the response headers. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 600_000;

export interface RetryPolicy {
  /** How many times a failed attempt is tried again. */
  retries: number;
  /** Bound on the wait for the response headers of one attempt; none when undefined. */
  timeoutMs: number | undefined;
  /** The message of an attempt that timed out. */
  timeoutMessage: string;
  /** Whether an error answer is worth another attempt (`headers` may say so, as OpenAI's `x-should-retry`). */
  retryableStatus(status: number, headers: Headers): boolean;
  /** Whether an attempt that timed out is tried again (the OpenAI SDK's rule); not by default. */
  retryTimeouts?: boolean;
  /** The wait before retry `attempt` (0 for the first) when the server names none. */
  backoffMs(attempt: number): number;
  /** The failure an HTTP error answer ends the stream with, in the API's words. */
  httpFailure(response: Response): Promise<Error>;
}

/** The OpenAI and Anthropic SDKs' statuses worth another attempt. */
export function sdkRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The OpenAI and Anthropic SDKs' backoff: 0.5 s doubling, at most 8 s. */
export function sdkBackoffMs(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 8000);
}

/**
 * Sends the request until it is answered with success or fails for good; `controller` aborts
 * the attempt (the caller's abort and the timeout both go through it). `headers` may differ from
 * one attempt to the next (the OpenAI SDK counts its retries in a header).
 */
export async function postWithRetries(
  url: string,
  request: { headers: Record<string, string> | Headers | ((attempt: number) => Headers); body: string | Uint8Array<ArrayBuffer> },
  options: StreamOptions,
  controller: AbortController,
  watch: ResponseWatch,
  policy: RetryPolicy,
): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    // Each attempt has its own controller, so a timed-out attempt can be followed by another;
    // aborting `controller` still aborts the attempt, and the body it returned.
    const attemptAbort = new StreamAbort(controller.signal);
    const attemptController = attemptAbort.controller;
    let timedOut = false;
    const timer =
      policy.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            attemptController.abort();
          }, policy.timeoutMs);
    let response: Response | undefined;
    let failure: Error | undefined;
    try {
      const headers = typeof request.headers === "function" ? request.headers(attempt) : request.headers;
      response = await watch.fetch(url, { method: "POST", headers, body: request.body, signal: attemptController.signal });
    } catch (error) {
      if (options.signal?.aborted) throw new Error(ABORTED_MESSAGE);
      failure = new Error(timedOut ? policy.timeoutMessage : connectionErrorMessage(error), { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (response) await options.onResponse?.({ status: response.status, headers: headerRecord(response.headers) });
    if (response?.ok) return response;
    // Nothing listening on this machine is not a blip: the attempt fails at once, as the agent's do.
    const refusedHere = failure !== undefined && refusedOnThisMachine(failure.message, url);
    const canRetry =
      attempt < policy.retries &&
      (!timedOut || policy.retryTimeouts === true) &&
      !refusedHere &&
      (failure !== undefined || policy.retryableStatus(response!.status, response!.headers));
    if (!canRetry) throw failure ?? (await policy.httpFailure(response!));
    const requested = response ? retryAfterMs(response.headers) : undefined;
    const cap = options.maxRetryDelayMs ?? 0;
    if (requested !== undefined && cap > 0 && requested > cap) throw await policy.httpFailure(response!);
    await response?.body?.cancel().catch(() => undefined);
    // This attempt is over: it stops listening to `controller`.
    attemptAbort.release();
    await sleep(requested ?? policy.backoffMs(attempt), options.signal);
    if (options.signal?.aborted) throw new Error(ABORTED_MESSAGE);
  }
}
