/**
 * A server's `oauth` settings in mcp.json, with upstream Pi's field names, and the loopback
 * redirect URI they give. Checked whole when the file is read: a mistake is reported with the
 * field at fault and the server is left out, rather than sending a user to a page that fails.
 */
import * as v from "valibot";

export const CLIENT_REGISTRATIONS = ["auto", "dcr", "cimd"] as const;

export const McpOAuthConfigSchema = v.strictObject({
  clientId: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** May be `${NAME}` (an environment variable) or `!command`, resolved when a token request needs it. */
  clientSecret: v.optional(v.string()),
  callbackPort: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535))),
  callbackUrl: v.optional(v.string()),
  clientName: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
  clientRegistration: v.optional(v.picklist(CLIENT_REGISTRATIONS)),
  authServerMetadataUrl: v.optional(v.string()),
  /** Space-separated scopes for servers that advertise none. */
  scope: v.optional(v.string()),
});
export type McpOAuthConfig = v.InferOutput<typeof McpOAuthConfigSchema>;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

/** HTTPS, or plain HTTP on this machine only: where an OAuth document or endpoint may live. */
export function isSecureOrLoopback(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

/**
 * What is wrong with `config` beyond its shape, as upstream words it; undefined when nothing is.
 * pig has no Client ID Metadata Document, so `clientRegistration: "cimd"` is refused here.
 */
export function oauthConfigProblem(config: McpOAuthConfig): string | undefined {
  if (config.callbackUrl !== undefined) {
    const url = URL.canParse(config.callbackUrl) ? new URL(config.callbackUrl) : undefined;
    if (!url || url.protocol !== "http:" || !isLoopbackHost(url.hostname) || url.search || url.hash) {
      return "oauth.callbackUrl must be an http URI on localhost, 127.0.0.1, or [::1] without query or fragment";
    }
    if (url.port && config.callbackPort !== undefined && Number(url.port) !== config.callbackPort) {
      return "oauth.callbackUrl and oauth.callbackPort name different ports";
    }
  }
  if (config.clientRegistration === "cimd") {
    return 'oauth.clientRegistration "cimd" is not supported: pig has no Client ID Metadata Document; use "auto" or "dcr", or a registered oauth.clientId';
  }
  if (config.authServerMetadataUrl !== undefined) {
    const url = URL.canParse(config.authServerMetadataUrl) ? new URL(config.authServerMetadataUrl) : undefined;
    if (!url || !isSecureOrLoopback(url)) return "oauth.authServerMetadataUrl must be an https URL, or http on localhost, 127.0.0.1, or [::1]";
  }
  return undefined;
}

/** A server's `oauth` value checked whole; the problem, worded with the field at fault, when there is one. */
export function checkOAuthSettings(oauth: unknown): string | undefined {
  if (oauth === undefined) return undefined;
  const parsed = v.safeParse(McpOAuthConfigSchema, oauth);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue.path?.map((step) => String(step.key)).join(".");
    return `oauth${where ? `.${where}` : ""}: ${issue.message}`;
  }
  return oauthConfigProblem(parsed.output);
}

/** Where the browser returns to: the loopback address and path to listen on, and the redirect URI to send. */
export interface LoopbackRedirect {
  /** The address the callback server listens on (`localhost` is served on 127.0.0.1). */
  host: "127.0.0.1" | "localhost";
  /** 0: any free port. */
  port: number;
  path: string;
  /** The redirect URI exactly as configured, when it names its port (servers compare it as a string). */
  fixedUri: string | undefined;
}

const DEFAULT_CALLBACK = "http://127.0.0.1/callback";

export function loopbackRedirect(config: McpOAuthConfig): LoopbackRedirect {
  const url = new URL(config.callbackUrl ?? DEFAULT_CALLBACK);
  const port = url.port ? Number(url.port) : (config.callbackPort ?? 0);
  const fixedUri = url.port ? config.callbackUrl : port ? `${url.protocol}//${url.host}:${port}${url.pathname}` : undefined;
  return { host: url.hostname === "localhost" ? "localhost" : "127.0.0.1", port, path: url.pathname, fixedUri };
}
