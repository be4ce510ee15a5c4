/**
 * Which configured MCP servers sign in with OAuth, and with which settings: HTTP servers that
 * send no `Authorization` header of their own (upstream's rule), their `oauth` settings checked.
 */
import * as v from "valibot";
import type { McpServerConfig } from "../config.ts";
import type { McpOAuthServer } from "./server.ts";
import { checkOAuthSettings, McpOAuthConfigSchema } from "./settings.ts";

function hasAuthorizationHeader(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "authorization");
}

/** Whether `config` is a server pig signs in to with OAuth. */
export function usesOAuth(config: McpServerConfig): config is McpServerConfig & { transport: "http"; url: string } {
  return config.transport === "http" && !hasAuthorizationHeader(config.headers);
}

/** The sign-in view of server `name`, or why it has none. */
export function oauthServer(name: string, config: McpServerConfig): McpOAuthServer | string {
  if (config.transport !== "http") return `MCP server "${name}" runs a command (stdio); only HTTP servers sign in with OAuth`;
  if (!usesOAuth(config)) return `MCP server "${name}" sends its own Authorization header; OAuth applies only to HTTP servers without one`;
  const problem = checkOAuthSettings(config.oauth);
  if (problem) return `MCP server "${name}": ${problem}`;
  const oauth = config.oauth === undefined ? undefined : v.parse(McpOAuthConfigSchema, config.oauth);
  return { name, url: config.url, ...(oauth ? { oauth } : {}) };
}
