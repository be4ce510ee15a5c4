/**
 * Opening the connection to the model's server while pig is still starting: DNS, TCP and TLS
 * then overlap with loading the session, resources and the SDK instead of delaying the first
 * request (a TLS handshake to a cloud API is tens to hundreds of milliseconds). The request
 * picks the warm connection out of the runtime's pool. Skipped when a proxy is configured, as
 * the direct connection would not be the one used.
 */
const PROXY_VARIABLES = ["HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy"];

/** Starts connecting to `baseUrl`'s server; returns whether it did. Never throws. */
export function preconnect(baseUrl: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!baseUrl) return false;
  if (PROXY_VARIABLES.some((name) => env[name])) return false;
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    fetch.preconnect(url.origin);
    return true;
  } catch {
    return false;
  }
}
