/**
 * The authorizer the streamable-HTTP transport uses for a server signed in with OAuth: it sends
 * the stored access token, renews it shortly before it expires or when the server refuses it, and
 * answers "sign in first" when neither works or the server asks for more scope. It never opens a
 * browser itself: the user signs in through `/mcp login` or `pig mcp login`, and the next request
 * finds the new tokens in mcp-auth.json.
 */
import type { McpAuthorizer } from "../authorizer.ts";
import { parseChallenge, type Challenge } from "./discovery.ts";
import { refreshServerTokens } from "./refresh.ts";
import type { McpOAuthServer } from "./server.ts";
import type { McpAuthStore } from "./store.ts";

/** A token this close to its expiry is renewed before it is sent. */
const EXPIRY_MARGIN_MS = 30_000;

export interface OAuthAuthorizer extends McpAuthorizer {
  /** The server's last challenge, for a sign-in that follows it (its scope, its metadata URL). */
  readonly challenge: Challenge | undefined;
  /** Why the user must sign in, after `unauthorized` answered false. */
  readonly signInReason: string | undefined;
}

export function oauthAuthorizer(server: McpOAuthServer, context: { store: McpAuthStore; env: NodeJS.ProcessEnv }): OAuthAuthorizer {
  let sent: string | undefined;
  let challenge: Challenge | undefined;
  let signInReason: string | undefined;
  const refresh = (stale: string | undefined) => refreshServerTokens(server, stale, { ...context, resourceMetadataUrl: challenge?.resourceMetadataUrl });
  return {
    get challenge() {
      return challenge;
    },
    get signInReason() {
      return signInReason;
    },
    async headers(): Promise<Record<string, string>> {
      let stored = context.store.load(server);
      const expiring = stored?.tokensExpireAt !== undefined && stored.tokensExpireAt - EXPIRY_MARGIN_MS <= Date.now();
      if (expiring && stored?.tokens?.refresh_token) {
        // A failed renewal sends the old token: the server's answer then decides.
        await refresh(stored.tokens.access_token).catch(() => undefined);
        stored = context.store.load(server);
      }
      sent = stored?.tokens?.access_token;
      return sent ? { Authorization: `Bearer ${sent}` } : {};
    },
    async unauthorized(response) {
      challenge = parseChallenge(response.headers.get("www-authenticate"));
      if (challenge.error === "insufficient_scope") {
        signInReason = `the server asks for more access${challenge.scope ? ` (scope ${challenge.scope})` : ""}`;
        return false;
      }
      const current = context.store.load(server)?.tokens?.access_token;
      // Signed in or renewed elsewhere since the request went out: send it again with the new token.
      if (current !== undefined && current !== sent) return true;
      if (current === undefined) {
        signInReason = "the server requires sign-in";
        return false;
      }
      try {
        const outcome = await refresh(sent);
        if (outcome.kind === "renewed") return true;
        signInReason = outcome.why;
      } catch (error) {
        signInReason = `the token could not be renewed: ${(error as Error).message}`;
      }
      return false;
    },
  };
}
