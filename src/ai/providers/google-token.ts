/**
 * Access tokens for Vertex AI from Application Default Credentials: a service account signs a
 * JWT (RS256) and trades it at its token endpoint (the JWT-bearer grant); a gcloud user login
 * trades its refresh token (the refresh-token grant). A token is kept in memory, per process,
 * until five minutes before it expires (half its life, for short-lived ones).
 */
import { createHash, createPrivateKey, createSign } from "node:crypto";
import * as v from "valibot";
import type { GoogleCredentials, ServiceAccount } from "./google-credentials.ts";

export const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
const ERROR_TEXT_LIMIT = 300;
const TOKEN_TIMEOUT_MS = 60_000;

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString("base64url");
}

/**
 * The signed assertion a service account presents: `iss` its email, `scope` cloud-platform, `aud`
 * the endpoint it is sent to, valid for an hour from `nowSeconds`.
 */
export function signServiceAccountJwt(account: ServiceAccount, audience: string, nowSeconds: number, file: string): string {
  let key;
  try {
    key = createPrivateKey(account.private_key);
  } catch {
    throw new Error(`The Google Cloud credentials file ${file} has a private_key that is not a PEM private key`);
  }
  const header = { alg: "RS256", typ: "JWT", ...(account.private_key_id ? { kid: account.private_key_id } : {}) };
  const claims = { iss: account.client_email, scope: CLOUD_PLATFORM_SCOPE, aud: audience, iat: nowSeconds, exp: nowSeconds + 3600 };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = createSign("RSA-SHA256").update(unsigned).sign(key);
  return `${unsigned}.${base64url(signature)}`;
}

/** The form a token request posts, for either kind of credentials. */
export function tokenRequestForm(credentials: GoogleCredentials, nowSeconds: number): URLSearchParams {
  const account = credentials.account;
  if (account.type === "service_account") {
    return new URLSearchParams({
      grant_type: JWT_BEARER_GRANT,
      assertion: signServiceAccountJwt(account, credentials.tokenUrl, nowSeconds, credentials.file),
    });
  }
  return new URLSearchParams({
    grant_type: "refresh_token",
    client_id: account.client_id,
    client_secret: account.client_secret,
    refresh_token: account.refresh_token,
  });
}

const TokenResponseSchema = v.looseObject({
  access_token: v.pipe(v.string(), v.minLength(1)),
  expires_in: v.optional(v.number()),
});

const TokenErrorSchema = v.looseObject({ error: v.optional(v.string()), error_description: v.optional(v.string()) });

export interface AccessToken {
  token: string;
  /** Epoch ms after which the token is fetched again. */
  refreshAt: number;
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > ERROR_TEXT_LIMIT ? `${flat.slice(0, ERROR_TEXT_LIMIT)}…` : flat;
}

/** "400 invalid_grant: Token has been expired or revoked." from an endpoint's refusal. */
function refusal(status: number, body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body.trim() ? `${status} ${shorten(body)}` : `${status} (no body)`;
  }
  const parsed = v.safeParse(TokenErrorSchema, json);
  if (parsed.success && (parsed.output.error || parsed.output.error_description)) {
    return `${status} ${[parsed.output.error, parsed.output.error_description].filter(Boolean).join(": ")}`;
  }
  return `${status} ${shorten(body)}`;
}

/** Trades the credentials for an access token at their token endpoint. */
export async function fetchAccessToken(
  credentials: GoogleCredentials,
  signal: AbortSignal | undefined,
  now: () => number = Date.now,
): Promise<AccessToken> {
  const started = now();
  const form = tokenRequestForm(credentials, Math.floor(started / 1000));
  const where = `Google token endpoint ${credentials.tokenUrl} (credentials ${credentials.file})`;
  let response: Response;
  try {
    response = await fetch(credentials.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
      signal,
    });
  } catch (error) {
    const reason = signal?.aborted ? "no answer in time" : error instanceof Error ? error.message : String(error);
    throw new Error(`Could not reach the ${where}: ${reason}`);
  }
  const body = await response.text();
  if (!response.ok) throw new Error(`The ${where} refused: ${refusal(response.status, body)}`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error(`The ${where} answered with something other than JSON`);
  }
  const parsed = v.safeParse(TokenResponseSchema, json);
  if (!parsed.success) throw new Error(`The ${where} answered without an access_token`);
  const lifetimeMs = (parsed.output.expires_in ?? 3600) * 1000;
  return { token: parsed.output.access_token, refreshAt: started + lifetimeMs - Math.min(REFRESH_MARGIN_MS, lifetimeMs / 2) };
}

/** Tokens by credentials (the file's text and the endpoint): one fetch at a time for each. */
export class AccessTokenCache {
  private readonly tokens = new Map<string, Promise<AccessToken>>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(credentials: GoogleCredentials, signal: AbortSignal | undefined): Promise<string> {
    const key = createHash("sha256").update(credentials.tokenUrl).update("\0").update(credentials.fingerprint).digest("hex");
    const cached = this.tokens.get(key);
    if (cached) {
      const token = await cached.catch(() => undefined);
      if (token && this.now() < token.refreshAt) return token.token;
      if (this.tokens.get(key) !== cached) return this.get(credentials, signal);
    }
    // Not tied to this request's signal (another request may wait for the same token), but bounded.
    const pending = fetchAccessToken(credentials, AbortSignal.timeout(TOKEN_TIMEOUT_MS), this.now);
    this.tokens.set(key, pending);
    pending.catch(() => {
      if (this.tokens.get(key) === pending) this.tokens.delete(key);
    });
    return (await abortable(pending, signal)).token;
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Error("Request was aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("Request was aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
