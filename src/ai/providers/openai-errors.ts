/**
 * The errors of the OpenAI APIs (openai-fetch.ts) and the final `error` event they become, worded
 * as the OpenAI SDK words them.
 */
import type { ResponseWatch } from "../response-watch.ts";
import { retryAfterMs as requestedWait, type HeaderReader } from "../retry-after.ts";
import type { AssistantMessage, AssistantMessageEvent, StreamOptions } from "../types.ts";
import { cleanScratch, retryDelayTooLongMessage, StreamFailure } from "./stream-failure.ts";

/**
 * The SDK's text for an error answer (its `APIError.makeMessage`): the `error` object's message
 * (JSON when it is not a string), else the whole object as JSON, else the body's text, after the
 * status when there is one.
 */
function apiErrorMessage(status: number | undefined, error: unknown, message: string | undefined): string {
  const errorMessage = (error as { message?: unknown } | null | undefined)?.message;
  const text = errorMessage ? (typeof errorMessage === "string" ? errorMessage : JSON.stringify(errorMessage)) : error ? JSON.stringify(error) : message;
  if (status && text) return `${status} ${text}`;
  if (status) return `${status} status code (no body)`;
  if (text) return text;
  return "(no status code or body)";
}

/** An HTTP error answer, or an `error` object inside the stream (no status then), as the SDK's `APIError`. */
export class OpenAIApiError extends Error {
  constructor(
    readonly status: number | undefined,
    /** The `error` object of the answer. */
    readonly error: unknown,
    message: string | undefined,
    readonly headers: HeaderReader | undefined,
  ) {
    super(apiErrorMessage(status, error, message));
  }
}

/** The final error event, with the server-requested delay when the server named one. */
export type ErrorEvent = Extract<AssistantMessageEvent, { type: "error" }> & { retryAfterMs?: number };

const NETWORK_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ETIMEDOUT", "UND_ERR_SOCKET", "ERR_STREAM_PREMATURE_CLOSE"]);

/** A connection cut while the body was streaming (Bun: "ECONNRESET: The socket connection was closed unexpectedly…"). */
function isStreamCut(error: unknown): boolean {
  // A request that got no answer says why in its own words ("Connection error. (…)").
  if (error instanceof OpenAIApiError || error instanceof StreamFailure) return false;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
  return /socket connection was closed|terminated|other side closed|premature close/i.test(error.message);
}

/**
 * Turns whatever ended a stream into the final `error` event: aborts become "Request was
 * aborted"; a fault the watch diagnosed (a stall, an HTML page, an endless line) keeps its own
 * text; HTTP errors keep the SDK's text ("429 Rate limit reached"), extended when the server
 * asked for a longer delay than allowed; a connection cut mid-stream reads "terminated" as under
 * Node (upstream Pi); a request that never connected says why; anything else keeps its message.
 */
export function errorEvent(output: AssistantMessage, error: unknown, options: StreamOptions, watch?: ResponseWatch): ErrorEvent {
  cleanScratch(output);
  const aborted = options.signal?.aborted === true;
  output.stopReason = aborted ? "aborted" : "error";
  let message: string;
  let retryAfterMs: number | undefined;
  if (aborted) message = "Request was aborted";
  else if (watch?.failure) message = watch.failure.message;
  else if (isStreamCut(error)) message = "terminated";
  else if (error instanceof SyntaxError) message = `Malformed event stream: ${error.message}`;
  else if (error instanceof Error) message = error.message;
  else message = typeof error === "string" ? error : JSON.stringify(error);
  if (!aborted && error instanceof OpenAIApiError) {
    retryAfterMs = requestedWait(error.headers);
    const max = options.maxRetryDelayMs;
    if (retryAfterMs !== undefined && max !== undefined && max > 0 && retryAfterMs > max) {
      message = `${message.replace(/[.\s]+$/, "")}. ${retryDelayTooLongMessage(retryAfterMs, max)}`;
    }
    const raw = (error.error as { metadata?: { raw?: unknown } } | undefined)?.metadata?.raw;
    if (typeof raw === "string" && raw) message += `\n${raw}`;
  }
  output.errorMessage = message;
  const event: ErrorEvent = { type: "error", reason: output.stopReason as "error" | "aborted", error: output };
  if (retryAfterMs !== undefined) event.retryAfterMs = retryAfterMs;
  return event;
}
