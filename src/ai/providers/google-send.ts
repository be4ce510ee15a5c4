/**
 * One streamed answer from a Google API, whichever of the two: the request is built from the
 * shared body, sent where `target` says with the credentials it resolved, and the answer read as
 * Gemini's event stream. Nothing throws: every failure ends in an `error` event.
 */
import { connectionErrorMessage } from "../connection-error.ts";
import { ResponseWatch } from "../response-watch.ts";
import { retryAfterMs } from "../retry-after.ts";
import { iterateSse, type SseEvent } from "../sse.ts";
import { doneEvent, newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type LlmContext, type Model, type StreamOptions } from "../types.ts";
import { REDACTED } from "../../util/redact.ts";
import { sleep } from "../../util/wait.ts";
import { finalHeaders, finalPayload, headerRecord, presentHeaders } from "./request-hooks.ts";
import type { GoogleDialect } from "./google-convert.ts";
import { errorText, GoogleFailure, googleHttpFailure } from "./google-errors.ts";
import { buildGoogleBody } from "./google-request.ts";
import { googleMessageEvents } from "./google-stream.ts";

export const ABORTED_MESSAGE = "Request was aborted";
/** How long to wait for the response headers unless `retry.provider.timeoutMs` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 600_000;

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

function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
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

function hide(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  return out;
}

export async function* streamGoogle(api: GoogleApi, model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const userSignal = options.signal;
  const controller = new AbortController();
  const onAbort = () => controller.abort(userSignal?.reason);
  userSignal?.addEventListener("abort", onAbort, { once: true });
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  let events: AsyncGenerator<SseEvent> | undefined;
  let secrets: string[] = [];
  try {
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    const body = buildGoogleBody(model, context, options, api.dialect);
    const target = await api.target(model, options, controller.signal);
    secrets = target.secrets ?? [];
    const headers = presentHeaders(await finalHeaders(requestHeaders(model, options, target), options));
    const payload = JSON.stringify(await finalPayload(body, options));
    const response = await send(target.url, headers, payload, options, controller, watch);
    if (!response.body) throw new Error(`${api.label} answered with no body`);

    yield { type: "start", partial: output };
    events = iterateSse(response.body);
    yield* googleMessageEvents(events, model, output, userSignal, () => watch.progress());
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    if (output.stopReason === "pending") throw new Error(`${api.label} stream ended without a finish reason`);
    if (output.stopReason === "error" || output.stopReason === "aborted") throw new Error(output.errorMessage ?? "An unknown error occurred");
    yield doneEvent(output.stopReason, output, []);
  } catch (error) {
    const aborted = userSignal?.aborted === true;
    output.stopReason = aborted ? "aborted" : "error";
    output.errorMessage = aborted ? ABORTED_MESSAGE : hide(watch.failure?.message ?? errorText(error), secrets);
    const failure = error instanceof GoogleFailure ? error : undefined;
    yield {
      type: "error",
      reason: aborted ? "aborted" : "error",
      error: output,
      ...(failure?.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
      ...(failure?.retryDelayTooLong ? { retryDelayTooLong: true } : {}),
    };
  } finally {
    userSignal?.removeEventListener("abort", onAbort);
    if (events) await events.return(undefined).catch(() => {});
    controller.abort();
  }
}

/**
 * One request, tried again up to `retry.provider.maxRetries` times (0 by default: the agent
 * retries) on a dropped connection or a retryable status, after the server's requested delay or
 * an exponential one (0.5 s doubling, at most 8 s).
 */
async function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: StreamOptions,
  controller: AbortController,
  watch: ResponseWatch,
): Promise<Response> {
  const retries = Math.max(0, options.maxRetries ?? 0);
  for (let attempt = 0; ; attempt++) {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let response: Response | undefined;
    let failure: Error | undefined;
    try {
      response = await watch.fetch(url, { method: "POST", headers, body, signal: controller.signal });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      failure = new Error(timedOut ? "Request timed out." : connectionErrorMessage(error), { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (response) await options.onResponse?.({ status: response.status, headers: headerRecord(response.headers) });
    if (response?.ok) return response;
    const canRetry = attempt < retries && !timedOut && (failure !== undefined || retryableStatus(response!.status));
    if (!canRetry) throw failure ?? (await googleHttpFailure(response!, options.maxRetryDelayMs));
    const requested = response ? retryAfterMs(response.headers) : undefined;
    const cap = options.maxRetryDelayMs ?? 0;
    if (requested !== undefined && cap > 0 && requested > cap) throw await googleHttpFailure(response!, options.maxRetryDelayMs);
    await response?.body?.cancel().catch(() => undefined);
    await sleep(requested ?? Math.min(500 * 2 ** attempt, 8000), options.signal);
    if (options.signal?.aborted) throw new Error(ABORTED_MESSAGE);
  }
}
