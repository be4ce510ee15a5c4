/**
 * An OAuth-protected MCP server as sign-in sees it: its name and URL (which key its stored
 * sign-in) and its `oauth` settings; and the client it signs in as when one is configured.
 */
import type { ClientInformation } from "./metadata.ts";
import { resolveConfigValue } from "../launch.ts";
import type { McpOAuthConfig } from "./settings.ts";

export interface McpOAuthServer {
  name: string;
  url: string;
  oauth?: McpOAuthConfig | undefined;
}

/** The client configured in mcp.json (`oauth.clientId`, `oauth.clientSecret`), never stored. */
export function configuredClient(server: McpOAuthServer, env: NodeJS.ProcessEnv): ClientInformation | undefined {
  const id = server.oauth?.clientId;
  if (!id) return undefined;
  const secret = resolveClientSecret(server.oauth?.clientSecret, env, server.name);
  return { client_id: id, ...(secret ? { client_secret: secret, token_endpoint_auth_method: "client_secret_post" } : {}) };
}

/** What to tell a user who must sign in to `server`. */
export function signInHint(server: string): string {
  return `run /mcp login ${server} (or pig mcp login ${server}) to sign in`;
}

/**
 * The client secret as configured, resolved as mcp.json's other values are: `${NAME}` from the
 * environment, `!command` its output, or the literal. An empty result is no secret.
 */
export function resolveClientSecret(value: string | undefined, env: NodeJS.ProcessEnv, server: string): string | undefined {
  if (value === undefined) return undefined;
  return resolveConfigValue(value, env, process.cwd(), `server "${server}": oauth.clientSecret`) || undefined;
}
