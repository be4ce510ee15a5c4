/** Errors of the Anthropic Messages API, worded as the Anthropic SDK words them. */
import { retryAfterMs } from "../retry-after.ts";

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : JSON.stringify(error);
}

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

function formatSeconds(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
}

/** A failure with the extra fields the final `error` event carries. */
export class StreamFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly retryDelayTooLong?: boolean,
  ) {
    super(message);
  }
}

/** The failure for an HTTP error answer, with the server's requested wait (too long past `maxRetryDelayMs`). */
export async function httpFailure(response: Response, maxRetryDelayMs: number | undefined): Promise<StreamFailure> {
  const text = await response.text().catch((error: unknown) => errorText(error));
  let message = httpErrorMessage(response.status, text);
  const wait = retryAfterMs(response.headers);
  const cap = maxRetryDelayMs ?? 0;
  const retryable = response.status === 429 || response.status >= 500;
  const tooLong = retryable && wait !== undefined && cap > 0 && wait > cap;
  if (tooLong) message = `Server requested ${formatSeconds(wait)} retry delay (max: ${formatSeconds(cap)}). ${message}`;
  return new StreamFailure(message, wait, tooLong || undefined);
}
