/**
 * Signing in to an OAuth-protected MCP server: the authorization code flow with PKCE (S256) in a
 * browser, returning to pig's loopback callback server or pasted from a browser on another
 * machine. The request names the MCP server as its `resource` (RFC 8707); the answer must carry
 * this sign-in's `state`, and the authorization server's `iss` when it sends one or promises to
 * (RFC 9207), so a code meant for another server is never exchanged here.
 */
import { browserCode } from "../../ai/oauth/browser-login.ts";
import { createPkce, randomState } from "../../ai/oauth/pkce.ts";
import { LoginCancelled, LoginFailed, type LoginIO } from "../../ai/oauth/types.ts";
import { exchangeCode, registerClient } from "./client.ts";
import { discover, resourceFor, type Challenge } from "./discovery.ts";
import type { AuthServerMetadata, ClientInformation } from "./metadata.ts";
import { refreshServerTokens } from "./refresh.ts";
import { configuredClient, type McpOAuthServer } from "./server.ts";
import { loopbackRedirect } from "./settings.ts";
import { expiryOf, type McpAuthStore, type ServerAuth } from "./store.ts";

export interface SignInContext {
  store: McpAuthStore;
  io: LoginIO;
  env: NodeJS.ProcessEnv;
  /** The server's last challenge (401, or 403 `insufficient_scope`), when sign-in follows one. */
  challenge?: Challenge | undefined;
}

/** How a sign-in ended: with the stored refresh token, or through the browser. */
export type SignInResult = "refreshed" | "signed_in";

/** Scopes of all the lists, each once; undefined when there are none. */
export function mergeScopes(...lists: (string | undefined)[]): string | undefined {
  const scopes = [...new Set(lists.flatMap((list) => list?.split(/\s+/).filter(Boolean) ?? []))];
  return scopes.length > 0 ? scopes.join(" ") : undefined;
}

function checkFlowSupport(server: string, metadata: AuthServerMetadata): void {
  if (metadata.response_types_supported && !metadata.response_types_supported.includes("code")) {
    throw new LoginFailed(`MCP server "${server}": its authorization server ${metadata.issuer} does not offer the authorization code flow`);
  }
  if (metadata.code_challenge_methods_supported && !metadata.code_challenge_methods_supported.includes("S256")) {
    throw new LoginFailed(`MCP server "${server}": its authorization server ${metadata.issuer} does not support PKCE with S256, which pig requires`);
  }
}

/** The port of the redirect URI a stored client was registered with, so it stays usable. */
function registeredPort(client: ClientInformation | undefined): number {
  const uri = client?.redirect_uris?.[0];
  return uri && URL.canParse(uri) ? Number(new URL(uri).port) || 0 : 0;
}

/**
 * Signs in to `server` and stores its tokens in mcp-auth.json. Unless the server asked for more
 * scope, a stored refresh token is tried first. Throws `LoginCancelled` when the user cancels,
 * `LoginFailed` naming the server and what went wrong otherwise.
 */
export async function signIn(server: McpOAuthServer, context: SignInContext): Promise<SignInResult> {
  try {
    return await run(server, context);
  } catch (error) {
    if (context.io.signal.aborted || error instanceof LoginCancelled) throw error instanceof LoginCancelled ? error : new LoginCancelled();
    if (error instanceof LoginFailed) throw error;
    const message = (error as Error).message;
    throw new LoginFailed(message.includes(`"${server.name}"`) ? message : `MCP server "${server.name}": ${message}`);
  }
}

async function run(server: McpOAuthServer, context: SignInContext): Promise<SignInResult> {
  const { store, io, env, challenge } = context;
  const config = server.oauth ?? {};
  const stepUp = challenge?.error === "insufficient_scope";
  const stored = store.load(server);
  if (!stepUp && stored?.tokens?.refresh_token) {
    const outcome = await refreshServerTokens(server, undefined, { store, env, resourceMetadataUrl: challenge?.resourceMetadataUrl, signal: io.signal }).catch(() => undefined);
    if (outcome?.kind === "renewed") return "refreshed";
  }
  io.tell({ kind: "progress", message: `Finding where to sign in to MCP server "${server.name}"…` });
  const discovery = await discover({ server: server.name, serverUrl: server.url, resourceMetadataUrl: challenge?.resourceMetadataUrl, authServerMetadataUrl: config.authServerMetadataUrl, signal: io.signal });
  const metadata = discovery.authorizationServerMetadata;
  checkFlowSupport(server.name, metadata);
  const resource = resourceFor(server.name, server.url, discovery.resourceMetadata);
  // A challenge may list only the missing scopes: a step-up keeps what was granted too.
  const challenged = stepUp ? mergeScopes(stored?.tokens?.scope, challenge?.scope) : challenge?.scope;
  const scope = mergeScopes(config.scope, challenged) ?? mergeScopes(discovery.resourceMetadata?.scopes_supported?.join(" "));
  const configured = configuredClient(server, env);
  const redirect = loopbackRedirect(config);
  const pkce = createPkce();
  const state = randomState();
  let client: ClientInformation | undefined = configured;
  const received = await browserCode({
    io,
    callback: { port: redirect.port || registeredPort(stored?.clientInformation), path: redirect.path, state, redirectHost: redirect.host, providerName: `MCP server "${server.name}"` },
    ...(redirect.fixedUri ? { fixedRedirectUri: redirect.fixedUri } : {}),
    anyPortWhenTaken: redirect.port === 0,
    authorizeUrl: async (redirectUri) => {
      client ??= await clientFor(server, context, metadata, redirectUri, scope);
      const url = new URL(metadata.authorization_endpoint);
      const params = url.searchParams;
      params.set("response_type", "code");
      params.set("client_id", client.client_id);
      params.set("code_challenge", pkce.challenge);
      params.set("code_challenge_method", "S256");
      params.set("redirect_uri", redirectUri);
      params.set("state", state);
      if (scope) params.set("scope", scope);
      // OpenID providers hand out a refresh token for offline_access only after consent.
      if (scope?.split(" ").includes("offline_access")) params.set("prompt", "consent");
      if (resource) params.set("resource", resource);
      return url.href;
    },
  });
  if (received.state !== state) throw new LoginFailed(`MCP server "${server.name}": the answer belongs to another sign-in (its state does not match)`);
  if (received.iss !== undefined || metadata.authorization_response_iss_parameter_supported) {
    if (received.iss !== metadata.issuer) {
      throw new LoginFailed(`MCP server "${server.name}": the answer names the issuer ${received.iss ?? "(none)"}, not ${metadata.issuer}; pig does not send this code on (RFC 9207)`);
    }
  }
  if (!client) throw new LoginFailed(`MCP server "${server.name}": no client was set up for the sign-in`);
  io.tell({ kind: "progress", message: `Exchanging the code for tokens of MCP server "${server.name}"…` });
  const tokens = await exchangeCode({ server: server.name, metadata, client, resource, signal: io.signal }, { code: received.code, verifier: pkce.verifier, redirectUri: received.redirectUri });
  // An answer without `scope` grants what was asked (RFC 6749 §5.1); kept so a step-up can add to it.
  const granted = tokens.scope === undefined && scope ? { ...tokens, scope } : tokens;
  const expiry = expiryOf(tokens.expires_in);
  store.update(server, (current) => {
    const next: ServerAuth = { ...current, serverUrl: new URL(server.url).href, discovery, tokens: granted };
    if (expiry === undefined) delete next.tokensExpireAt;
    else next.tokensExpireAt = expiry;
    if (configured) delete next.clientInformation;
    else next.clientInformation = client;
    return next;
  });
  return "signed_in";
}

/** The stored client when it was registered for `redirectUri`; otherwise a new registration, stored at once (its old tokens go with the old client). */
async function clientFor(server: McpOAuthServer, context: SignInContext, metadata: AuthServerMetadata, redirectUri: string, scope: string | undefined): Promise<ClientInformation> {
  const stored = context.store.load(server)?.clientInformation;
  if (stored?.redirect_uris?.includes(redirectUri)) return stored;
  context.io.tell({ kind: "progress", message: `Registering pig with the authorization server of MCP server "${server.name}"…` });
  const client = await registerClient({ server: server.name, metadata, redirectUri, clientName: server.oauth?.clientName, scope, signal: context.io.signal });
  context.store.update(server, (current) => {
    const { tokens: _tokens, tokensExpireAt: _expiry, ...rest } = current ?? { serverUrl: new URL(server.url).href };
    return { ...rest, clientInformation: client };
  });
  return client;
}
