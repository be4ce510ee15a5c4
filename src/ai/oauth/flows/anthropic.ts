/**
 * Claude Pro/Max: authorization code with PKCE through claude.ai; tokens from Anthropic's token
 * endpoint (JSON bodies). The access token (`sk-ant-oat…`) is sent as Claude Code sends it
 * (providers/anthropic-oauth.ts).
 */
import { browserCode } from "../browser-login.ts";
import { endpointsFor } from "../endpoints.ts";
import { expiresAt, type FlowContext, type OAuthCredential, type OAuthFlow } from "../flow.ts";
import { requestJson, TokenReplySchema } from "../http.ts";
import { LOGIN_PROVIDERS } from "../login-providers.ts";
import { createPkce, randomState } from "../pkce.ts";

const CLIENT_ID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e";
const SCOPES = "org:create_api_key user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload";
const DEFAULTS = {
  authorize: "https://claude.ai/oauth/authorize",
  token: "https://platform.claude.com/v1/oauth/token",
  callbackPort: 53692,
};
/** Stored a little early, as upstream does, so a request never carries a token about to lapse. */
const EXPIRY_SKEW_MS = 5 * 60_000;

const endpoints = (env: NodeJS.ProcessEnv) => endpointsFor("anthropic", DEFAULTS, env, LOGIN_PROVIDERS);

function credentialOf(reply: { access_token: string; refresh_token?: string | undefined; expires_in?: number | undefined }, previousRefresh?: string): OAuthCredential {
  const refresh = reply.refresh_token || previousRefresh;
  if (!refresh) throw new Error("Anthropic token answer: \"refresh_token\" is missing");
  if (reply.expires_in === undefined) throw new Error("Anthropic token answer: \"expires_in\" is missing");
  return { type: "oauth", access: reply.access_token, refresh, expires: expiresAt(reply.expires_in, EXPIRY_SKEW_MS) };
}

async function login({ io, env }: FlowContext): Promise<OAuthCredential> {
  const urls = endpoints(env);
  const pkce = createPkce();
  const state = randomState();
  const received = await browserCode({
    io,
    callback: { port: urls.callbackPort, path: "/callback", state, redirectHost: "localhost", providerName: "Anthropic" },
    authorizeUrl: (redirectUri) =>
      `${urls.authorize}?${new URLSearchParams({
        code: "true",
        client_id: CLIENT_ID,
        response_type: "code",
        redirect_uri: redirectUri,
        scope: SCOPES,
        code_challenge: pkce.challenge,
        code_challenge_method: "S256",
        state,
      })}`,
  });
  io.tell({ kind: "progress", message: "Exchanging the authorization code for tokens…" });
  const reply = await requestJson(
    urls.token,
    {
      what: "Anthropic token exchange",
      json: {
        grant_type: "authorization_code",
        client_id: CLIENT_ID,
        code: received.code,
        state: received.state ?? state,
        redirect_uri: received.redirectUri,
        code_verifier: pkce.verifier,
      },
      signal: io.signal,
      secrets: [received.code, pkce.verifier],
    },
    TokenReplySchema,
  );
  return credentialOf(reply);
}

async function refresh(credential: OAuthCredential, signal: AbortSignal, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const reply = await requestJson(
    endpoints(env).token,
    {
      what: "Anthropic token refresh",
      json: { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: credential.refresh },
      signal,
      secrets: [credential.refresh, credential.access],
    },
    TokenReplySchema,
  );
  return credentialOf(reply, credential.refresh);
}

export const anthropicFlow: OAuthFlow = { login, refresh };
