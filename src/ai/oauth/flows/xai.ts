/** xAI (SuperGrok or X Premium): the device flow of auth.x.ai; the access token is the API key. */
import { deviceLogin } from "../device-login.ts";
import { endpointsFor } from "../endpoints.ts";
import { tokenCredential, type OAuthFlow } from "../flow.ts";
import { requestJson, TokenReplySchema } from "../http.ts";
import { LOGIN_PROVIDERS } from "../login-providers.ts";

const CLIENT_ID = "b1a00492-073a-47ea-816f-4c329264a828";
const SCOPE = "openid profile email offline_access grok-cli:access api:access";
const DEFAULTS = { deviceCode: "https://auth.x.ai/oauth2/device/code", token: "https://auth.x.ai/oauth2/token" };
const EXPIRY_SKEW_MS = 5 * 60_000;
/** Used when the answer names no lifetime (upstream's value). */
const DEFAULT_LIFETIME_S = 3600;

const endpoints = (env: NodeJS.ProcessEnv) => endpointsFor("xai", DEFAULTS, env, LOGIN_PROVIDERS);

const TERMS = { defaultLifetimeS: DEFAULT_LIFETIME_S, skewMs: EXPIRY_SKEW_MS };

export const xaiFlow: OAuthFlow = {
  async login({ io, env }) {
    const urls = endpoints(env);
    const reply = await deviceLogin({
      io,
      provider: "xai",
      providerName: "xAI",
      clientId: CLIENT_ID,
      deviceUrl: urls.deviceCode,
      tokenUrl: urls.token,
      deviceFields: { scope: SCOPE, referrer: "pi" },
    });
    return tokenCredential(reply, "xAI device token", TERMS);
  },
  async refresh(credential, signal, env) {
    const what = "xAI token refresh";
    const form = { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: credential.refresh };
    const reply = await requestJson(endpoints(env).token, { what, form, signal, secrets: [credential.refresh] }, TokenReplySchema);
    return tokenCredential(reply, what, { ...TERMS, previousRefresh: credential.refresh });
  },
};
