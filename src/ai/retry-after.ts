/** Reading the wait a rate-limited or failing server asks for before the next attempt. */

/** Anything with a case-insensitive `get`, as `Headers` and the OpenAI SDK's header object both are. */
export interface HeaderReader {
  get(name: string): string | null;
}

const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;

/**
 * The requested wait in ms: `retry-after-ms`, else `retry-after` as seconds or an HTTP date
 * (a date in the past means "now"). Negative or unreadable values mean the server said nothing.
 */
export function retryAfterMs(headers: HeaderReader | null | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && NUMBER.test(ms)) {
    const value = Number.parseFloat(ms);
    if (value >= 0) return value;
  }
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return undefined;
  if (NUMBER.test(after)) {
    const seconds = Number.parseFloat(after);
    return seconds >= 0 ? seconds * 1000 : undefined;
  }
  // An HTTP date always has letters (day and month names); anything else is noise.
  if (!/[a-z]/i.test(after)) return undefined;
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
