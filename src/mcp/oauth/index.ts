/**
 * Sign-in to OAuth-protected MCP servers: `signInToMcpServer` (for `/mcp login` and
 * `pig mcp login`), `signOutOfMcpServer`, and the authorizer the HTTP transport uses. Sign-ins
 * are stored in `<agent dir>/mcp-auth.json`.
 */
import { join } from "node:path";
import { MCP_AUTH_FILE, McpAuthStore } from "./store.ts";

export { oauthAuthorizer, type OAuthAuthorizer } from "./http-authorizer.ts";
export { parseChallenge, type Challenge } from "./discovery.ts";
export { signIn as signInToMcpServer, type SignInContext, type SignInResult } from "./sign-in.ts";
export { configuredClient, signInHint, type McpOAuthServer } from "./server.ts";
export { McpOAuthConfigSchema, oauthConfigProblem, type McpOAuthConfig } from "./settings.ts";
export { McpAuthFileError, McpAuthStore, MCP_AUTH_FILE } from "./store.ts";

/** The store in `agentDir`. */
export function mcpAuthStore(agentDir: string): McpAuthStore {
  return new McpAuthStore(join(agentDir, MCP_AUTH_FILE));
}

/** Deletes the stored sign-in of a server (its tokens and the client pig registered); false when none was stored. */
export function signOutOfMcpServer(store: McpAuthStore, server: { name: string; url: string }): boolean {
  return store.remove(server);
}
