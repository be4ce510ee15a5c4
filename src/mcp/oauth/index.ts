/**
 * Sign-in to OAuth-protected MCP servers: `signInToMcpServer` (for `/mcp login` and
 * `pig mcp login`), `signOutOfMcpServer`, and the authorizer the HTTP transport uses. Sign-ins
 * are stored in `<agent dir>/mcp-auth.json`.
 */
import { join } from "node:path";
import * as v from "valibot";
import { oauthAuthorizer, type OAuthAuthorizer } from "./http-authorizer.ts";
import { checkOAuthSettings, McpOAuthConfigSchema } from "./settings.ts";
import { MCP_AUTH_FILE, McpAuthStore } from "./store.ts";

export { oauthAuthorizer, type OAuthAuthorizer };
export { parseChallenge, type Challenge } from "./discovery.ts";
import type { Challenge } from "./discovery.ts";
export { signIn as signInToMcpServer, type SignInContext, type SignInResult } from "./sign-in.ts";
export { configuredClient, signInHint, type McpOAuthServer } from "./server.ts";
export { checkOAuthSettings, McpOAuthConfigSchema, oauthConfigProblem, type McpOAuthConfig } from "./settings.ts";
export { McpAuthFileError, McpAuthStore, MCP_AUTH_FILE } from "./store.ts";

/** The store in `agentDir`. */
export function mcpAuthStore(agentDir: string): McpAuthStore {
  return new McpAuthStore(join(agentDir, MCP_AUTH_FILE));
}

/** Deletes the stored sign-in of a server (its tokens and the client pig registered); false when none was stored. */
export function signOutOfMcpServer(store: McpAuthStore, server: { name: string; url: string }): boolean {
  return store.remove(server);
}

/**
 * The authorizers of a run's HTTP servers: one per connection, reading and renewing the server's
 * sign-in in `agentDir`'s mcp-auth.json. `oauthOf` gives a server's `oauth` value from mcp.json;
 * a server whose value is invalid gets none (the error is reported when mcp.json is read). The
 * latest authorizer of each server is kept, so a sign-in can follow the server's last challenge.
 */
export class McpAuthorizers {
  readonly store: McpAuthStore;
  private readonly latest = new Map<string, OAuthAuthorizer>();

  constructor(private readonly options: { agentDir: string; env: NodeJS.ProcessEnv; oauthOf: (server: string) => unknown }) {
    this.store = mcpAuthStore(options.agentDir);
  }

  for(name: string, url: string): OAuthAuthorizer | undefined {
    const raw = this.options.oauthOf(name);
    if (checkOAuthSettings(raw) !== undefined) return undefined;
    const oauth = raw === undefined ? undefined : v.parse(McpOAuthConfigSchema, raw);
    const authorizer = oauthAuthorizer({ name, url, ...(oauth ? { oauth } : {}) }, { store: this.store, env: this.options.env });
    this.latest.set(name, authorizer);
    return authorizer;
  }

  /** The last challenge `name` answered with (its scope, its metadata URL), for the sign-in that follows. */
  challengeOf(name: string): Challenge | undefined {
    return this.latest.get(name)?.challenge;
  }
}
