/**
 * One request to an OpenAI API (Chat Completions, Responses) over plain fetch, sent as the OpenAI
 * SDK (6.49.0, whose wire pig's has been in step with) sends it: the same URL, the same
 * headers in the same order (its `Accept`, `User-Agent` and `X-Stainless-*` family, the key as a
 * bearer token or, as Azure's client sends it, in `api-key`, `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID` / `OPENAI_CUSTOM_HEADERS`), the same body bytes;
 * the same retries (408, 409, 429, 5xx, dropped connections and timeouts, as `x-should-retry`
 * overrides, after `retry-after-ms` / `retry-after` or a jittered 0.5–8 s backoff, never past
 * `maxRetryDelayMs`), and the answer read as the SDK reads it (`[DONE]` ends it, an `error`
 * object inside the stream fails it). The SDK itself is not loaded: its 144 modules cost more at
 * start-up, and more work per request, than this.
 */
import { arch, platform } from "node:os";
import type { ResponseWatch } from "../response-watch.ts";
import { iterateSse } from "../sse.ts";
import type { Model, StreamOptions } from "../types.ts";
import { pigUserAgent } from "../user-agent.ts";
import { OpenAIApiError } from "./openai-errors.ts";
import { DEFAULT_HEADERS_TIMEOUT_MS, postWithRetries, sdkBackoffMs, sdkRetryableStatus } from "./retrying-post.ts";
import { StreamFailure, type StreamAbort } from "./stream-failure.ts";

/** The OpenAI SDK release whose wire this module reproduces (its `X-Stainless-Package-Version`). */
export const SDK_VERSION = "6.49.0";

const DEFAULT_BASE_URL = "https://api.openai.com/v1";

type HeaderValues = Record<string, string | null | undefined>;

/**
 * Which of the SDK's clients the request is sent as: `OpenAI` (the key as a bearer token) or
 * `AzureOpenAI` (the key in `api-key`, the API version in the query).
 */
export type SdkClient = { name: "OpenAI" } | { name: "AzureOpenAI"; apiVersion: string };

const OPENAI_CLIENT: SdkClient = { name: "OpenAI" };

/** The SDK's names for Node's platforms and architectures. */
function sdkPlatform(name: string): string {
  const lower = name.toLowerCase();
  if (lower.includes("ios")) return "iOS";
  const known: Record<string, string> = { android: "Android", darwin: "MacOS", win32: "Windows", freebsd: "FreeBSD", openbsd: "OpenBSD", linux: "Linux" };
  return known[lower] ?? (lower ? `Other:${lower}` : "Unknown");
}

function sdkArch(name: string): string {
  if (name === "x32") return "x32";
  if (name === "x86_64" || name === "x64") return "x64";
  if (name === "arm") return "arm";
  if (name === "aarch64" || name === "arm64") return "arm64";
  return name ? `other:${name}` : "unknown";
}

/** The SDK's `X-Stainless-*` platform headers under Node (and Bun, which passes for Node); the same for the whole run. */
let platformValues: Readonly<Record<string, string>> | undefined;

function platformHeaders(): Readonly<Record<string, string>> {
  return (platformValues ??= {
    "X-Stainless-Lang": "js",
    "X-Stainless-Package-Version": SDK_VERSION,
    "X-Stainless-OS": sdkPlatform(platform()),
    "X-Stainless-Arch": sdkArch(arch()),
    "X-Stainless-Runtime": "node",
    "X-Stainless-Runtime-Version": process.version,
  });
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The SDK's header merge: later sources win, names compared without case, `null` removes a
 * header, `undefined` leaves it as it was; names are sent lower-cased, in `Headers` order.
 */
function mergeSdkHeaders(sources: readonly HeaderValues[]): Headers {
  const out = new Headers();
  for (const source of sources) {
    for (const [name, value] of Object.entries(source)) {
      if (value === undefined) continue;
      if (!HEADER_NAME.test(name)) throw new TypeError(`Header name must be a valid HTTP token ["${name}"]`);
      if (value === null) out.delete(name.toLowerCase());
      else out.set(name.toLowerCase(), value);
    }
  }
  return out;
}

/** `OPENAI_CUSTOM_HEADERS`: one `name: value` a line, as the SDK reads it. */
function customHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const text = env.OPENAI_CUSTOM_HEADERS?.trim();
  const out: Record<string, string> = {};
  if (!text) return out;
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon >= 0) out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

/**
 * The headers of attempt `retryCount` (0 for the first): the SDK's own, the key, the variables
 * it reads, then pig's user agent (unless `headers` name one), `headers` (the model's, the
 * session's and the caller's, after `onHeaders`) and the JSON content type. Without a key no
 * Authorization header is sent at all.
 */
export function openaiHeaders(
  headers: Record<string, string | null>,
  apiKey: string | undefined,
  retryCount: number,
  env: NodeJS.ProcessEnv = process.env,
  client: SdkClient = OPENAI_CLIENT,
): Headers {
  const hasUserAgent = Object.keys(headers).some((name) => name.toLowerCase() === "user-agent");
  const key = client.name === "AzureOpenAI" ? { "api-key": apiKey || null } : { Authorization: apiKey ? `Bearer ${apiKey}` : null };
  return mergeSdkHeaders([
    {
      Accept: "application/json",
      "User-Agent": `${client.name}/JS ${SDK_VERSION}`,
      "X-Stainless-Retry-Count": String(retryCount),
      ...platformHeaders(),
      "OpenAI-Organization": env.OPENAI_ORG_ID?.trim() || null,
      "OpenAI-Project": env.OPENAI_PROJECT_ID?.trim() || null,
    },
    key,
    customHeaders(env),
    { ...(hasUserAgent ? {} : { "User-Agent": pigUserAgent() }), ...headers },
    { "content-type": "application/json" },
  ]);
}

/** A query value as the SDK's `qs` writes it: everything but letters, digits and `-_.~` escaped. */
function queryPart(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `<baseUrl><path>` joined as the SDK joins it (one slash between them, the OpenAI API when there
 * is no base URL); a query in the base URL, and the client's own (Azure's `api-version`), are
 * written the SDK's way.
 */
export function openaiUrl(baseUrl: string, path: "/chat/completions" | "/responses", client: SdkClient = OPENAI_CLIENT): string {
  const base = baseUrl || DEFAULT_BASE_URL;
  const url = new URL(base + (base.endsWith("/") ? path.slice(1) : path));
  const own = client.name === "AzureOpenAI" ? { "api-version": client.apiVersion } : {};
  if (url.search || Object.keys(own).length > 0) {
    const query = { ...Object.fromEntries(url.searchParams), ...own };
    url.search = Object.entries(query)
      .map(([name, value]) => `${queryPart(name)}=${queryPart(value)}`)
      .join("&");
  }
  return url.toString();
}

/** The SDK's retry rule: the server's `x-should-retry` when it gives one, else the status. */
function shouldRetry(status: number, headers: Headers): boolean {
  const said = headers.get("x-should-retry");
  if (said === "true") return true;
  if (said === "false") return false;
  return sdkRetryableStatus(status);
}

/** An HTTP error answer as the SDK words it: the JSON body's `error`, else the body's text. */
async function httpFailure(response: Response): Promise<OpenAIApiError> {
  const text = await response.text().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const error = (json as { error?: unknown } | null | undefined)?.error;
  return new OpenAIApiError(response.status, error, json ? undefined : text, response.headers);
}

/**
 * Sends `body` (JSON text or its bytes) to `<baseUrl><path>` and returns the response once its
 * headers are in. The timeout (the SDK's ten minutes unless `timeoutMs`) covers the wait for the
 * headers only.
 */
export async function sendOpenAIRequest(
  path: "/chat/completions" | "/responses",
  model: Model,
  headers: Record<string, string | null>,
  body: string | Uint8Array<ArrayBuffer>,
  options: StreamOptions,
  abort: StreamAbort,
  watch: ResponseWatch,
  client: SdkClient = OPENAI_CLIENT,
): Promise<Response> {
  const timeoutMs = options.timeoutMs !== undefined && options.timeoutMs > 0 ? Math.max(1, Math.round(options.timeoutMs)) : DEFAULT_HEADERS_TIMEOUT_MS;
  const url = openaiUrl(model.baseUrl, path, client);
  try {
    return await postWithRetries(url, { headers: (attempt) => openaiHeaders(headers, options.apiKey, attempt, process.env, client), body }, options, abort.controller, watch, {
      retries: Math.max(0, options.maxRetries ?? 0),
      timeoutMs,
      timeoutMessage: "Request timed out.",
      retryTimeouts: true,
      retryableStatus: shouldRetry,
      // The SDK takes up to a quarter off each wait, so clients do not retry in step.
      backoffMs: (attempt) => sdkBackoffMs(attempt) * (1 - Math.random() * 0.25),
      httpFailure,
    });
  } catch (error) {
    // A request that got no answer keeps the words it was given ("Connection error. (…)", "Request timed out.").
    if (error instanceof OpenAIApiError || !(error instanceof Error) || abort.aborted) throw error;
    throw new StreamFailure(error.message);
  }
}

function isAbortError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

/**
 * The events of a streamed answer, as the SDK yields them: the JSON data of each until `[DONE]`
 * (the rest is read and dropped); an `error` object fails the stream (an `OpenAIApiError` with
 * the response's headers); data that is not JSON throws its SyntaxError. An abort ends the
 * events quietly, as the SDK's do; the caller sees its signal.
 */
export async function* openaiEvents(response: Response): AsyncGenerator<unknown> {
  if (!response.body) throw new Error("Attempted to iterate over a response with no body");
  const events = iterateSse(response.body);
  try {
    yield* parsedEvents(events, response.headers);
  } catch (error) {
    if (isAbortError(error)) return;
    throw error;
  } finally {
    await events.return(undefined).catch(() => {});
  }
}

async function* parsedEvents(events: AsyncGenerator<{ event: string | null; data: string }>, headers: Headers): AsyncGenerator<unknown> {
  let done = false;
  for await (const sse of events) {
    // What follows `[DONE]` is read to the end, not cut off, so the connection can serve the next request.
    if (done) continue;
    if (sse.data.startsWith("[DONE]")) {
      done = true;
      continue;
    }
    const data = JSON.parse(sse.data) as unknown;
    if (sse.event !== null && sse.event.startsWith("thread.")) {
      yield { event: sse.event, data };
      continue;
    }
    const error = (data as { error?: unknown } | null)?.error;
    if (error) throw new OpenAIApiError(undefined, error, undefined, headers);
    yield data;
  }
}
