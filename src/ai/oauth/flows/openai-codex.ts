/**
 * ChatGPT Plus/Pro (Codex): authorization code with PKCE through auth.openai.com, or its device
 * code (a user code entered at auth.openai.com/codex/device; the poll answers with an
 * authorization code and its verifier). The ChatGPT account id, which Codex requests carry, is
 * read from the access token's claims and stored as `accountId`.
 */
import * as v from "valibot";
import { browserCode } from "../browser-login.ts";
import { pollDeviceCode } from "../device-code.ts";
import { endpointsFor } from "../endpoints.ts";
import { browserOrDeviceLogin, tokenCredential, type FlowContext, type OAuthCredential, type OAuthFlow } from "../flow.ts";
import { oauthErrorCode, parseReply, refusal, request, requestJson, TokenReplySchema } from "../http.ts";
import { LOGIN_PROVIDERS } from "../login-providers.ts";
import { createPkce, randomState } from "../pkce.ts";
import { codexAccountId } from "../../providers/openai-codex-account.ts";
import { LoginFailed } from "../types.ts";

const CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
const SCOPE = "openid profile email offline_access";
const DEFAULTS = {
  authorize: "https://auth.openai.com/oauth/authorize",
  token: "https://auth.openai.com/oauth/token",
  callbackPort: 1455,
  deviceUserCode: "https://auth.openai.com/api/accounts/deviceauth/usercode",
  deviceToken: "https://auth.openai.com/api/accounts/deviceauth/token",
  deviceVerification: "https://auth.openai.com/codex/device",
  deviceRedirect: "https://auth.openai.com/deviceauth/callback",
};
/** Upstream gives a device code fifteen minutes. */
const DEVICE_CODE_LIFETIME_S = 15 * 60;

const endpoints = (env: NodeJS.ProcessEnv) => endpointsFor("openai-codex", DEFAULTS, env, LOGIN_PROVIDERS);

async function tokens(env: NodeJS.ProcessEnv, what: string, form: Record<string, string>, signal: AbortSignal, previousRefresh?: string): Promise<OAuthCredential> {
  const reply = await requestJson(endpoints(env).token, { what, form, signal, secrets: Object.values(form) }, TokenReplySchema);
  return { ...tokenCredential(reply, what, { previousRefresh }), accountId: codexAccountId(reply.access_token) };
}

async function browserLogin({ io, env }: FlowContext): Promise<OAuthCredential> {
  const urls = endpoints(env);
  const pkce = createPkce();
  const state = randomState();
  const received = await browserCode({
    io,
    callback: { port: urls.callbackPort, path: "/auth/callback", state, redirectHost: "localhost", providerName: "OpenAI" },
    authorizeUrl: (redirectUri) =>
      `${urls.authorize}?${new URLSearchParams({
        response_type: "code",
        client_id: CLIENT_ID,
        redirect_uri: redirectUri,
        scope: SCOPE,
        code_challenge: pkce.challenge,
        code_challenge_method: "S256",
        state,
        id_token_add_organizations: "true",
        codex_cli_simplified_flow: "true",
        originator: "pi",
      })}`,
  });
  io.tell({ kind: "progress", message: "Exchanging the authorization code for tokens…" });
  return tokens(
    env,
    "OpenAI Codex token exchange",
    { grant_type: "authorization_code", client_id: CLIENT_ID, code: received.code, code_verifier: pkce.verifier, redirect_uri: received.redirectUri },
    io.signal,
  );
}

const UserCodeSchema = v.looseObject({
  device_auth_id: v.pipe(v.string(), v.minLength(1)),
  user_code: v.pipe(v.string(), v.minLength(1)),
  // Sent as a string ("5") by the real service.
  interval: v.optional(v.union([v.number(), v.pipe(v.string(), v.transform(Number), v.number())])),
});
const DeviceTokenSchema = v.looseObject({ authorization_code: v.pipe(v.string(), v.minLength(1)), code_verifier: v.pipe(v.string(), v.minLength(1)) });

async function deviceLogin({ io, env }: FlowContext): Promise<OAuthCredential> {
  const urls = endpoints(env);
  const what = "OpenAI Codex device code request";
  const started = await request(urls.deviceUserCode, { what, json: { client_id: CLIENT_ID }, signal: io.signal });
  if (started.status === 404) throw new LoginFailed("OpenAI Codex device code login is not enabled for this server; use the browser login (pig login openai-codex without --device)");
  if (!started.ok) throw refusal(started, { what });
  const device = parseReply(UserCodeSchema, started, what);
  io.tell({ kind: "device_code", userCode: device.user_code, verificationUri: urls.deviceVerification, expiresInSeconds: DEVICE_CODE_LIFETIME_S });
  const code = await pollDeviceCode<v.InferOutput<typeof DeviceTokenSchema>>({
    providerName: "OpenAI",
    provider: "openai-codex",
    intervalSeconds: device.interval,
    expiresInSeconds: DEVICE_CODE_LIFETIME_S,
    signal: io.signal,
    poll: async () => {
      const polled = { what: "OpenAI Codex device code poll", secrets: [device.device_auth_id] };
      const reply = await request(urls.deviceToken, { ...polled, json: { device_auth_id: device.device_auth_id, user_code: device.user_code }, signal: io.signal });
      if (reply.ok) return { status: "complete", value: parseReply(DeviceTokenSchema, reply, polled.what) };
      // Pending is 403/404 here, or its own error code.
      const error = oauthErrorCode(reply);
      if (reply.status === 403 || reply.status === 404 || error === "deviceauth_authorization_pending") return { status: "pending" };
      if (error === "slow_down") return { status: "slow_down" };
      return { status: "failed", message: refusal(reply, polled).message };
    },
  });
  io.tell({ kind: "progress", message: "Exchanging the authorization code for tokens…" });
  return tokens(
    env,
    "OpenAI Codex token exchange",
    { grant_type: "authorization_code", client_id: CLIENT_ID, code: code.authorization_code, code_verifier: code.code_verifier, redirect_uri: urls.deviceRedirect },
    io.signal,
  );
}

export const openaiCodexFlow: OAuthFlow = {
  login: browserOrDeviceLogin(
    {
      message: "Sign in to ChatGPT with:",
      browser: { id: "browser", label: "A browser (default)" },
      device: { id: "device_code", label: "A device code (no browser on this machine)" },
    },
    browserLogin,
    deviceLogin,
  ),
  refresh: (credential, signal, env) =>
    tokens(env, "OpenAI Codex token refresh", { grant_type: "refresh_token", refresh_token: credential.refresh, client_id: CLIENT_ID }, signal, credential.refresh),
};
