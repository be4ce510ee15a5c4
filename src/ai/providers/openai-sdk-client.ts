/**
 * The OpenAI SDK client of Azure's Responses API (azure-openai-responses.ts): its options, the
 * fetch it goes through (the response watch, `onResponse`, the cap on the delays its retries may
 * sleep), and its errors turned into this layer's own (openai-errors.ts). OpenAI's own APIs go
 * over plain fetch (openai-fetch.ts), so a run that does not talk to Azure never loads the SDK.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { retryAfterMs as requestedWait } from "../retry-after.ts";
import type { ResponseWatch } from "../response-watch.ts";
import type { Model, StreamOptions } from "../types.ts";
import { pigUserAgent } from "../user-agent.ts";
import { OpenAIApiError, OpenAIConnectionError } from "./openai-errors.ts";
import { headerRecord } from "./request-hooks.ts";

/**
 * A fetch that marks 429/5xx answers asking for a delay above `maxRetryDelayMs` as not to be
 * retried (`x-should-retry: false`), so the SDK's own retries never sleep longer than allowed.
 */
function cappedRetryFetch(maxRetryDelayMs: number | undefined, base: ResponseWatch["fetch"]): ResponseWatch["fetch"] {
  if (!maxRetryDelayMs || maxRetryDelayMs <= 0) return base;
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status !== 429 && response.status < 500) return response;
    const delay = requestedWait(response.headers);
    if (delay === undefined || delay <= maxRetryDelayMs) return response;
    const headers = new Headers(response.headers);
    headers.set("x-should-retry", "false");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** The options every client of this layer is made with (`ClientOptions` of the SDK). */
export type ClientInit = NonNullable<ConstructorParameters<typeof OpenAI>[0]>;

/**
 * The SDK client for one request, fetching through `watch`. Keyless servers get no
 * Authorization header at all. The SDK's own logging is off: it would write a stream it cannot
 * parse to stderr, through the interactive screen, before the error says the same. `make` builds
 * another client of the SDK from the same options (Azure's, which adds its query and key header).
 */
export function createClient(
  model: Model,
  options: StreamOptions,
  headers: Record<string, string | null>,
  watch: ResponseWatch,
  make: (init: ClientInit) => OpenAI = (init) => new OpenAI(init),
): OpenAI {
  const defaultHeaders: Record<string, string | null> = { ...(hasUserAgent(headers) ? {} : { "User-Agent": pigUserAgent() }), ...headers };
  if (!options.apiKey) defaultHeaders.Authorization = null;
  return make({
    apiKey: options.apiKey || "unused",
    baseURL: model.baseUrl,
    dangerouslyAllowBrowser: true,
    defaultHeaders: defaultHeaders as Record<string, string>,
    maxRetries: options.maxRetries ?? 0,
    logLevel: "off",
    ...(options.timeoutMs !== undefined && options.timeoutMs > 0 ? { timeout: Math.max(1, Math.round(options.timeoutMs)) } : {}),
    fetch: cappedRetryFetch(options.maxRetryDelayMs, reportingFetch(watch.fetch, options.onResponse)) as typeof fetch,
  });
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Whether a model's or caller's headers name their own user agent (which then replaces pig's). */
function hasUserAgent(headers: Record<string, string | null>): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === "user-agent");
}

/** A fetch that tells `onResponse` of every response as it arrives, before the SDK reads it. */
function reportingFetch(inner: Fetch, onResponse: StreamOptions["onResponse"]): Fetch {
  if (!onResponse) return inner;
  return async (input, init) => {
    const response = await inner(input, init);
    await onResponse({ status: response.status, headers: headerRecord(response.headers) });
    return response;
  };
}

/** The SDK's error as this layer's own, worded as the SDK worded it. */
export function fromSdkError(error: unknown): unknown {
  if (!(error instanceof APIError)) return error;
  if (error instanceof APIConnectionError && !(error instanceof APIConnectionTimeoutError)) return new OpenAIConnectionError(error.cause);
  const own = new OpenAIApiError(error.status, error.error, undefined, error.headers);
  own.message = error.message;
  return own;
}

/** The events of an SDK stream, its errors turned into this layer's own. */
export async function* sdkEvents(stream: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  try {
    yield* stream;
  } catch (error) {
    throw fromSdkError(error);
  }
}
