/**
 * Radius (the pi-messages gateway, radius.pi.dev unless overridden): a browser login with PKCE
 * whose authorize endpoint the gateway names (`/v1/oauth`), or its device code; tokens from the
 * gateway's `/v1/oauth/token`.
 */
import * as v from "valibot";
import { browserCode } from "../browser-login.ts";
import { pollDeviceCode } from "../device-code.ts";
import { endpointsFor } from "../endpoints.ts";
import { browserOrDeviceLogin, tokenCredential, type FlowContext, type OAuthCredential, type OAuthFlow } from "../flow.ts";
import { oauthErrorCode, refusal, request, parseReply, requestJson, TokenReplySchema } from "../http.ts";
import { LOGIN_PROVIDERS } from "../login-providers.ts";
import { createPkce } from "../pkce.ts";

const CLIENT_ID = "pi-gateway";
const SCOPE = "gateway offline_access";
const DEFAULTS = { gateway: "https://radius.pi.dev", callbackPort: 1456 };
const EXPIRY_SKEW_MS = 60_000;

function gatewayOf(env: NodeJS.ProcessEnv): string {
  const gateway = endpointsFor("radius", DEFAULTS, env, LOGIN_PROVIDERS).gateway;
  return gateway.replace(/\/+$/, "");
}

const DiscoverySchema = v.looseObject({ authorizationEndpoint: v.pipe(v.string(), v.url()) });
const DeviceSchema = v.looseObject({
  device_code: v.pipe(v.string(), v.minLength(1)),
  user_code: v.pipe(v.string(), v.minLength(1)),
  verification_uri: v.pipe(v.string(), v.url()),
  expires_in: v.number(),
  interval: v.optional(v.number()),
});

function credentialOf(reply: v.InferOutput<typeof TokenReplySchema>, what: string): OAuthCredential {
  const scope = (reply as { scope?: unknown }).scope;
  return { ...tokenCredential(reply, what, { skewMs: EXPIRY_SKEW_MS }), ...(typeof scope === "string" ? { scope } : {}) };
}

async function tokens(gateway: string, form: Record<string, string>, signal: AbortSignal, what: string): Promise<OAuthCredential> {
  const reply = await requestJson(`${gateway}/v1/oauth/token`, { what, form, signal, secrets: Object.values(form) }, TokenReplySchema);
  return credentialOf(reply, what);
}

async function browserLogin({ io, env }: FlowContext): Promise<OAuthCredential> {
  const gateway = gatewayOf(env);
  const { callbackPort } = endpointsFor("radius", DEFAULTS, env, LOGIN_PROVIDERS);
  const discovery = await requestJson(`${gateway}/v1/oauth`, { what: "Radius OAuth configuration", signal: io.signal }, DiscoverySchema);
  const pkce = createPkce();
  const state = crypto.randomUUID();
  const received = await browserCode({
    io,
    callback: { port: callbackPort, path: "/oauth/callback", state, redirectHost: "127.0.0.1", providerName: "Radius" },
    authorizeUrl: (redirectUri) =>
      `${discovery.authorizationEndpoint}?${new URLSearchParams({
        response_type: "code",
        client_id: CLIENT_ID,
        redirect_uri: redirectUri,
        scope: SCOPE,
        code_challenge: pkce.challenge,
        code_challenge_method: "S256",
        handoff: "url",
        state,
      })}`,
  });
  return tokens(
    gateway,
    { grant_type: "authorization_code", client_id: CLIENT_ID, redirect_uri: received.redirectUri, code: received.code, code_verifier: pkce.verifier },
    io.signal,
    "Radius token exchange",
  );
}

async function deviceCodeLogin({ io, env }: FlowContext): Promise<OAuthCredential> {
  const gateway = gatewayOf(env);
  const device = await requestJson(`${gateway}/v1/oauth/device`, { what: "Radius device code request", form: { client_id: CLIENT_ID, scope: SCOPE }, signal: io.signal }, DeviceSchema);
  io.tell({ kind: "device_code", userCode: device.user_code, verificationUri: device.verification_uri, expiresInSeconds: device.expires_in });
  const polling = { providerName: "Radius", provider: "radius", what: "Radius device code poll", secrets: [device.device_code] };
  return pollDeviceCode<OAuthCredential>({
    ...polling,
    intervalSeconds: device.interval,
    expiresInSeconds: device.expires_in,
    signal: io.signal,
    poll: async () => {
      const reply = await request(`${gateway}/v1/oauth/token`, {
        ...polling,
        form: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: CLIENT_ID, device_code: device.device_code },
        signal: io.signal,
      });
      if (reply.ok) return { status: "complete", value: credentialOf(parseReply(TokenReplySchema, reply, polling.what), polling.what) };
      const code = oauthErrorCode(reply);
      if (code === "authorization_pending") return { status: "pending" };
      if (code === "slow_down") return { status: "slow_down" };
      if (code === "expired_token") return { status: "failed", message: "The Radius code expired before it was entered; run pig login radius (or /login radius) again" };
      if (code === "access_denied") return { status: "failed", message: "The sign-in was denied at Radius; nothing was stored" };
      return { status: "failed", message: refusal(reply, polling).message };
    },
  });
}

export const radiusFlow: OAuthFlow = {
  login: browserOrDeviceLogin(
    {
      message: "Sign in to Radius with:",
      browser: { id: "browser", label: "A browser (recommended)" },
      device: { id: "device-code", label: "A device code (signing in from another device)" },
    },
    browserLogin,
    deviceCodeLogin,
  ),
  refresh: (credential, signal, env) =>
    tokens(gatewayOf(env), { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: credential.refresh }, signal, "Radius token refresh"),
};
