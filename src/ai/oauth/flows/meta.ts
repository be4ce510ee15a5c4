/**
 * Meta (Muse subscription): the device flow of auth.meta.com yields an identity token that
 * inference does not accept; it is exchanged for a Model API key that lives about a day. As
 * upstream stores it, the identity token is `refresh` and the key `access`, so renewing mints a
 * new key; a refused mint means the identity token is dead and the user signs in again.
 */
import * as v from "valibot";
import { deviceLogin } from "../device-login.ts";
import { endpointsFor } from "../endpoints.ts";
import type { OAuthCredential, OAuthFlow } from "../flow.ts";
import { parseReply, refusal, request } from "../http.ts";
import { LOGIN_PROVIDERS } from "../login-providers.ts";

const CLIENT_ID = "1031625952748946";
const DEFAULTS = {
  deviceAuthorization: "https://auth.meta.com/oidc/device/authorization/",
  deviceToken: "https://auth.meta.com/oidc/device/token/",
  mint: "https://api.meta.ai/muse-code/key",
};
const KEY_LIFETIME_MS = 24 * 60 * 60_000;

const endpoints = (env: NodeJS.ProcessEnv) => endpointsFor("meta", DEFAULTS, env, LOGIN_PROVIDERS);
const MintSchema = v.looseObject({ api_key: v.optional(v.string()), action_url: v.optional(v.string()) });

async function mint(env: NodeJS.ProcessEnv, identityToken: string, signal: AbortSignal): Promise<OAuthCredential> {
  const spec = { what: "Meta API key mint", secrets: [identityToken] };
  const reply = await request(endpoints(env).mint, {
    ...spec,
    headers: { Authorization: `Bearer ${identityToken}`, "x-api-version": "1.0.0" },
    json: {},
    signal,
  });
  if (!reply.ok) throw refusal(reply, spec);
  const body = parseReply(MintSchema, reply, spec.what);
  if (!body.api_key) {
    const action = body.action_url && /^https?:\/\//.test(body.action_url) ? `; finish the setup at ${body.action_url}` : "";
    throw new Error(`Meta did not issue an API key${action}`);
  }
  return { type: "oauth", refresh: identityToken, access: body.api_key, expires: Date.now() + KEY_LIFETIME_MS };
}

export const metaFlow: OAuthFlow = {
  async login({ io, env }) {
    const urls = endpoints(env);
    const reply = await deviceLogin({ io, provider: "meta", providerName: "Meta", clientId: CLIENT_ID, deviceUrl: urls.deviceAuthorization, tokenUrl: urls.deviceToken });
    io.tell({ kind: "progress", message: "Getting a Meta Model API key…" });
    return mint(env, reply.access_token, io.signal);
  },
  refresh: (credential, signal, env) => mint(env, credential.refresh, signal),
};
