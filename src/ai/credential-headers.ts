/**
 * Which request headers carry credentials: the ones providers and proxies authenticate with
 * (`authorization`, `x-api-key`, `api-key`, `x-goog-api-key`, `proxy-authorization`, `cookie`),
 * any whose name says it holds a key, token, secret or password, and any whose value holds the
 * request's API key. `before_provider_headers` shows extensions a marker in their place.
 */
const NAMES = new Set(["authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie"]);
const SECRET_NAME = /api[-_]?key|token|secret|password|passwd|cookie|authorization|(^|[-_])auth([-_]|$)/i;
/** Shorter values would match ordinary header text (util/redact.ts draws the same line). */
const MIN_KEY = 8;

export function isCredentialHeader(name: string, value: string, apiKey: string | undefined): boolean {
  if (NAMES.has(name.toLowerCase()) || SECRET_NAME.test(name)) return true;
  return apiKey !== undefined && apiKey.length >= MIN_KEY && value.includes(apiKey);
}
