/** Errors of the Anthropic Messages API, worded as the Anthropic SDK words them. */
import { errorText, httpStatusFailure, type StreamFailure } from "./stream-failure.ts";

/** `<status> <message>` as the Anthropic SDK words an HTTP error: a JSON body is re-serialized whole. */
export function httpErrorMessage(status: number, bodyText: string): string {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  let message: string;
  if (json) {
    const inner = (json as { message?: unknown }).message;
    message = inner ? (typeof inner === "string" ? inner : JSON.stringify(inner)) : JSON.stringify(json);
  } else {
    message = bodyText;
  }
  return message ? `${status} ${message}` : `${status} status code (no body)`;
}

/** The failure for an HTTP error answer, with the server's requested wait (too long past `maxRetryDelayMs`). */
export async function httpFailure(response: Response, maxRetryDelayMs: number | undefined): Promise<StreamFailure> {
  const text = await response.text().catch((error: unknown) => errorText(error));
  return httpStatusFailure(response, httpErrorMessage(response.status, text), maxRetryDelayMs);
}
