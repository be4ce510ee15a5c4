/**
 * Kimi For Coding: the device flow of auth.kimi.com (its host may also be set with upstream's
 * KIMI_CODE_OAUTH_HOST or KIMI_OAUTH_HOST). Requests carry the access token as a bearer token.
 */
import { deviceLogin } from "../device-login.ts";
import { endpointsFor } from "../endpoints.ts";
import { tokenCredential, type OAuthCredential, type OAuthFlow } from "../flow.ts";
import { requestJson, TokenReplySchema } from "../http.ts";
import { LOGIN_PROVIDERS } from "../login-providers.ts";

const CLIENT_ID = "17e5f671-d194-4dfb-9706-5516cb48c098";

function host(env: NodeJS.ProcessEnv): string {
  const fallback = env.KIMI_CODE_OAUTH_HOST || env.KIMI_OAUTH_HOST || "https://auth.kimi.com";
  return endpointsFor("kimi-coding", { host: fallback }, env, LOGIN_PROVIDERS).host.replace(/\/+$/, "");
}

function credentialOf(reply: { access_token: string; refresh_token?: string | undefined; expires_in?: number | undefined }, what: string): OAuthCredential {
  // A lifetime of zero or less counts as none: the credential would be expired when stored.
  const lifetime = reply.expires_in !== undefined && reply.expires_in > 0 ? reply.expires_in : undefined;
  return tokenCredential({ ...reply, expires_in: lifetime }, what);
}

export const kimiCodingFlow: OAuthFlow = {
  async login({ io, env }) {
    const base = host(env);
    const reply = await deviceLogin({
      io,
      provider: "kimi-coding",
      providerName: "Kimi",
      clientId: CLIENT_ID,
      deviceUrl: `${base}/api/oauth/device_authorization`,
      tokenUrl: `${base}/api/oauth/token`,
      defaultExpiresInSeconds: 15 * 60,
    });
    return credentialOf(reply, "Kimi device token");
  },
  async refresh(credential, signal, env) {
    const what = "Kimi token refresh";
    const form = { client_id: CLIENT_ID, grant_type: "refresh_token", refresh_token: credential.refresh };
    const reply = await requestJson(`${host(env)}/api/oauth/token`, { what, form, signal, secrets: [credential.refresh] }, TokenReplySchema);
    return credentialOf(reply, what);
  },
  requestAuth: (credential) => ({ apiKey: credential.access, headers: { Authorization: `Bearer ${credential.access}` } }),
};
