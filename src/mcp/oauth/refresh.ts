/**
 * Renewing an MCP server's access token with its refresh token. One renewal at a time: within a
 * process the callers share it, across processes the mcp-auth.json lock is held from reading the
 * tokens to saving the new ones, and tokens that changed meanwhile (another process renewed them,
 * or the user signed in) are used as they are — a rotating refresh token is never sent twice.
 */
import { configuredClient, type McpOAuthServer } from "./server.ts";
import { discover, resourceFor } from "./discovery.ts";
import { refreshTokens, TokenRefused } from "./client.ts";
import type { Discovery } from "./metadata.ts";
import { expiryOf, storeKeys, type McpAuthStore, type ServerAuth } from "./store.ts";

/** A renewal that takes longer is given up (as for provider logins). */
const REFRESH_TIMEOUT_MS = 15_000;

export type RefreshOutcome =
  /** New tokens are stored (by this renewal or another). */
  | { kind: "renewed" }
  /** The user must sign in; `why` says what happened. */
  | { kind: "sign_in"; why: string };

export interface RefreshContext {
  store: McpAuthStore;
  env: NodeJS.ProcessEnv;
  /** From the server's challenge, when a 401 started the renewal. */
  resourceMetadataUrl?: string | undefined;
  signal?: AbortSignal;
}

const renewing = new Map<string, Promise<RefreshOutcome>>();

/** Replaces `staleToken`, the access token that expired or was refused (undefined: whatever is stored). */
export function refreshServerTokens(server: McpOAuthServer, staleToken: string | undefined, context: RefreshContext): Promise<RefreshOutcome> {
  const key = `${context.store.path}\0${storeKeys(server).key}`;
  let pending = renewing.get(key);
  if (!pending) {
    pending = renew(server, staleToken, context).finally(() => renewing.delete(key));
    renewing.set(key, pending);
  }
  return pending;
}

async function discoveryFor(server: McpOAuthServer, stored: ServerAuth, context: RefreshContext, signal: AbortSignal): Promise<Discovery> {
  // A configured metadata document is read each time, so a change to it applies at once.
  if (!server.oauth?.authServerMetadataUrl && stored.discovery?.authorizationServerMetadata) return stored.discovery;
  return discover({ server: server.name, serverUrl: server.url, resourceMetadataUrl: context.resourceMetadataUrl, authServerMetadataUrl: server.oauth?.authServerMetadataUrl, signal });
}

function withoutTokens(stored: ServerAuth): ServerAuth {
  const { tokens: _tokens, tokensExpireAt: _expiry, ...rest } = stored;
  return rest;
}

async function renew(server: McpOAuthServer, staleToken: string | undefined, context: RefreshContext): Promise<RefreshOutcome> {
  const limit = AbortSignal.timeout(REFRESH_TIMEOUT_MS);
  const signal = context.signal ? AbortSignal.any([context.signal, limit]) : limit;
  return context.store.updateAsync(
    server,
    async (stored): Promise<{ next?: ServerAuth; result: RefreshOutcome }> => {
      const tokens = stored?.tokens;
      if (!stored || !tokens) return { result: { kind: "sign_in", why: "no sign-in is stored" } };
      if (staleToken !== undefined && tokens.access_token !== staleToken) return { result: { kind: "renewed" } };
      if (!tokens.refresh_token) return { result: { kind: "sign_in", why: "the access token expired and the server gave no refresh token" } };
      const client = configuredClient(server, context.env) ?? stored.clientInformation;
      if (!client) return { result: { kind: "sign_in", why: "no client is stored for the refresh" } };
      const discovery = await discoveryFor(server, stored, context, signal);
      const metadata = discovery.authorizationServerMetadata;
      if (!metadata) return { result: { kind: "sign_in", why: "the authorization server's metadata is unknown" } };
      try {
        const fresh = await refreshTokens({ server: server.name, metadata, client, resource: resourceFor(server.name, server.url, discovery.resourceMetadata), signal }, tokens.refresh_token);
        // A refresh that names no scope keeps the scope of the grant (RFC 6749 §6).
        const kept = { ...fresh, ...(fresh.scope === undefined && tokens.scope ? { scope: tokens.scope } : {}) };
        const expiry = expiryOf(fresh.expires_in);
        const next: ServerAuth = { ...withoutTokens(stored), discovery, tokens: kept, ...(expiry !== undefined ? { tokensExpireAt: expiry } : {}) };
        return { next, result: { kind: "renewed" } };
      } catch (error) {
        if (limit.aborted && !context.signal?.aborted) throw new Error(`MCP server "${server.name}": the token refresh got no answer within ${REFRESH_TIMEOUT_MS / 1000} s`);
        if (!(error instanceof TokenRefused)) throw error;
        // The grant is gone (revoked, expired, used elsewhere): its tokens are of no more use.
        if (error.code === "invalid_grant") return { next: withoutTokens(stored), result: { kind: "sign_in", why: error.message } };
        // The server no longer knows the client: register anew at the next sign-in.
        if (error.code === "invalid_client" || error.code === "unauthorized_client") {
          const { clientInformation: _client, discovery: _discovery, ...rest } = withoutTokens(stored);
          return { next: rest, result: { kind: "sign_in", why: error.message } };
        }
        throw error;
      }
    },
    context.signal,
  );
}
