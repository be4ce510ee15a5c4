/**
 * Failures of the Google APIs in words a person reads: an HTTP error is its status and Google's
 * message with its status name (`429 Resource has been exhausted (RESOURCE_EXHAUSTED)`), with the
 * server's requested wait when it asked for one longer than allowed.
 */
import * as v from "valibot";
import { retryAfterMs } from "../retry-after.ts";
import { GoogleErrorBodySchema } from "./google-wire.ts";

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : JSON.stringify(error);
}

/** `<status> <message> (<STATUS>)` from Google's error body; any other body is quoted as it came. */
export function googleHttpErrorMessage(status: number, bodyText: string): string {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  // Some proxies answer with a list holding the error object.
  const first = Array.isArray(json) ? json[0] : json;
  const parsed = v.safeParse(GoogleErrorBodySchema, first);
  if (parsed.success && parsed.output.error.message) {
    const { message, status: name } = parsed.output.error;
    return `${status} ${message}${name ? ` (${name})` : ""}`;
  }
  const text = bodyText.trim();
  return text ? `${status} ${text}` : `${status} status code (no body)`;
}

/** A failure with the fields the final `error` event carries. */
export class GoogleFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly retryDelayTooLong?: boolean,
  ) {
    super(message);
  }
}

/** The failure for an HTTP error answer; a retryable one asking to wait past `maxRetryDelayMs` says so. */
export async function googleHttpFailure(response: Response, maxRetryDelayMs: number | undefined): Promise<GoogleFailure> {
  const text = await response.text().catch((error: unknown) => errorText(error));
  let message = googleHttpErrorMessage(response.status, text);
  const wait = retryAfterMs(response.headers);
  const cap = maxRetryDelayMs ?? 0;
  const retryable = response.status === 429 || response.status >= 500;
  const tooLong = retryable && wait !== undefined && cap > 0 && wait > cap;
  if (tooLong) message = `Server requested ${Math.ceil(wait / 1000)}s retry delay (max: ${Math.ceil(cap / 1000)}s). ${message}`;
  return new GoogleFailure(message, wait, tooLong || undefined);
}
