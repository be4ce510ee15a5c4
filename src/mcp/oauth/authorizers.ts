import * as v from "valibot";
import type { Challenge } from "./discovery.ts";
import { oauthAuthorizer, type OAuthAuthorizer } from "./http-authorizer.ts";
import { checkOAuthSettings, McpOAuthConfigSchema } from "./settings.ts";
import { mcpAuthStore, type McpAuthStore } from "./store.ts";

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
