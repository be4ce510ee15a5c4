/**
 * OpenRouter: PKCE without a client id or state (the callback path carries a random id
 * instead); the code is exchanged for a permanent API key, stored as an OAuth entry that never
 * expires (`refresh` empty), as upstream stores it.
 */
import * as v from "valibot";
import { browserCode } from "../browser-login.ts";
import { endpointsFor } from "../endpoints.ts";
import type { OAuthFlow } from "../flow.ts";
import { requestJson } from "../http.ts";
import { LOGIN_PROVIDERS } from "../login-providers.ts";
import { createPkce } from "../pkce.ts";

const DEFAULTS = { authorize: "https://openrouter.ai/auth", keys: "https://openrouter.ai/api/v1/auth/keys", callbackPort: 0 };
const KeySchema = v.looseObject({ key: v.pipe(v.string(), v.minLength(1)) });

export const openrouterFlow: OAuthFlow = {
  async login({ io, env }) {
    const urls = endpointsFor("openrouter", DEFAULTS, env, LOGIN_PROVIDERS);
    const pkce = createPkce();
    const received = await browserCode({
      io,
      callback: { port: urls.callbackPort, path: `/oauth/callback/${crypto.randomUUID()}`, state: undefined, redirectHost: "127.0.0.1", providerName: "OpenRouter" },
      authorizeUrl: (callbackUrl) => `${urls.authorize}?${new URLSearchParams({ callback_url: callbackUrl, code_challenge: pkce.challenge, code_challenge_method: "S256" })}`,
    });
    io.tell({ kind: "progress", message: "Exchanging the authorization code for an API key…" });
    const reply = await requestJson(
      urls.keys,
      {
        what: "OpenRouter key exchange",
        json: { code: received.code, code_verifier: pkce.verifier, code_challenge_method: "S256" },
        signal: io.signal,
        secrets: [received.code, pkce.verifier],
      },
      KeySchema,
    );
    return { type: "oauth", access: reply.key, refresh: "", expires: Number.MAX_SAFE_INTEGER };
  },
  // The key does not expire: there is nothing to renew.
  refresh: async (credential) => credential,
};
