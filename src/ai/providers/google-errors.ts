/**
 * Failures of the Google APIs in words a person reads: an HTTP error is its status and Google's
 * message with its status name (`429 Resource has been exhausted (RESOURCE_EXHAUSTED)`), with the
 * server's requested wait when it asked for one longer than allowed.
 */
import * as v from "valibot";
import { GoogleErrorBodySchema } from "./google-wire.ts";
import { errorText, httpStatusFailure, type StreamFailure } from "./stream-failure.ts";

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

/** The failure for an HTTP error answer; a retryable one asking to wait past `maxRetryDelayMs` says so. */
export async function googleHttpFailure(response: Response, maxRetryDelayMs: number | undefined): Promise<StreamFailure> {
  const text = await response.text().catch((error: unknown) => errorText(error));
  return httpStatusFailure(response, googleHttpErrorMessage(response.status, text), maxRetryDelayMs);
}
