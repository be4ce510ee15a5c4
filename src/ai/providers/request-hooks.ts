/**
 * What every provider does for the callers that watch its requests (StreamOptions `onPayload`,
 * `onResponse`): the same body rules and the same header shape whichever API is spoken.
 */
import { REDACTED } from "../../util/redact.ts";
import { isCredentialHeader } from "../credential-headers.ts";
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
 * too). A credential header (ai/credential-headers.ts) is shown with the value `[redacted]`; a
 * change that gives it back that marker leaves the real value in place, any other change applies.
 */
export async function finalHeaders(headers: Record<string, string>, options: StreamOptions): Promise<Record<string, string | null>> {
  if (!options.onHeaders) return headers;
  const masked = new Set<string>();
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const hidden = isCredentialHeader(name, value, options.apiKey);
    if (hidden) masked.add(name.toLowerCase());
    shown[name] = hidden ? REDACTED : value;
  }
  const changes = await options.onHeaders(shown);
  if (!changes) return headers;
  const out: Record<string, string | null> = { ...headers };
  for (const [name, value] of Object.entries(changes)) {
    const lower = name.toLowerCase();
    if (value === REDACTED && masked.has(lower)) continue;
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
