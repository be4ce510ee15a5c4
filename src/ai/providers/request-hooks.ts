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

/**
 * The headers after a caller's `onHeaders`: a string value sets a header, `null` removes it
 * (names compared without case; the `null` is kept, so an SDK drops its own header of that name
 * too). Headers named in `hidden` (credentials) are neither shown nor changed.
 */
export async function finalHeaders(headers: Record<string, string>, options: StreamOptions, hidden: readonly string[] = []): Promise<Record<string, string | null>> {
  if (!options.onHeaders) return headers;
  const isHidden = (name: string) => hidden.includes(name.toLowerCase());
  const changes = await options.onHeaders(Object.fromEntries(Object.entries(headers).filter(([name]) => !isHidden(name))));
  if (!changes) return headers;
  const out: Record<string, string | null> = { ...headers };
  for (const [name, value] of Object.entries(changes)) {
    if (isHidden(name)) continue;
    const lower = name.toLowerCase();
    for (const key of Object.keys(out)) if (key.toLowerCase() === lower) delete out[key];
    out[name] = value;
  }
  return out;
}

/** `headers` without the removed (`null`) ones. */
export function presentHeaders(headers: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null));
}

/** Response headers as one plain object, names lower-cased (what `onResponse` is told). */
export function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}
