/**
 * Sign-in to OAuth-protected MCP servers: `signInToMcpServer` (for `/mcp login` and
 * `pig mcp login`), `signOutOfMcpServer`, and the authorizers the HTTP transport uses. Sign-ins
 * are stored in `<agent dir>/mcp-auth.json`.
 */
import type { McpAuthStore } from "./store.ts";

export { McpAuthorizers } from "./authorizers.ts";
export { oauthAuthorizer, type OAuthAuthorizer } from "./http-authorizer.ts";
export { parseChallenge, type Challenge } from "./discovery.ts";
export { signIn as signInToMcpServer, type SignInContext, type SignInResult } from "./sign-in.ts";
export { configuredClient, signInHint, type McpOAuthServer } from "./server.ts";
export { checkOAuthSettings, McpOAuthConfigSchema, oauthConfigProblem, type McpOAuthConfig } from "./settings.ts";
export { McpAuthFileError, McpAuthStore, MCP_AUTH_FILE, mcpAuthStore } from "./store.ts";

/** Deletes the stored sign-in of a server (its tokens and the client pig registered); false when none was stored. */
export function signOutOfMcpServer(store: McpAuthStore, server: { name: string; url: string }): boolean {
  return store.remove(server);
}
