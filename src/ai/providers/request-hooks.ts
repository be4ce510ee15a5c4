/**
 * What every provider does for the callers that watch its requests (StreamOptions `onPayload`,
 * `onResponse`): the same body rules and the same header shape whichever API is spoken.
 */
import type { StreamOptions } from "../types.ts";

/** The body a caller's `onPayload` wants sent instead of `body` (the same one when it returns nothing). */
export async function finalPayload<T extends object>(body: T, options: StreamOptions): Promise<T> {
  if (!options.onPayload) return body;
  const replaced = await options.onPayload(body);
  return replaced === undefined ? body : (replaced as T);
}

/** Response headers as one plain object, names lower-cased (what `onResponse` is told). */
export function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}
