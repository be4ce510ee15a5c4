/** Errors of the Anthropic Messages API, worded as the Anthropic SDK words them. */

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : JSON.stringify(error);
}

/** The server's requested wait, from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
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
