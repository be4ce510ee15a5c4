/**
 * What one provider's subscription login module provides: the login itself, the refresh of its
 * tokens, and what a model request carries. The credential is stored in auth.json in upstream's
 * shape, so upstream reads pig's file and pig reads upstream's.
 */
import type { LoginIO } from "./types.ts";

/** An auth.json OAuth entry: upstream's field names, plus the provider's own fields (`accountId`, `enterpriseUrl`, …). */
export interface OAuthCredential {
  type: "oauth";
  access: string;
  refresh: string;
  /** Milliseconds since the epoch. */
  expires: number;
  [field: string]: unknown;
}

export interface FlowContext {
  io: LoginIO;
  env: NodeJS.ProcessEnv;
}

/** What a request of the provider's models carries. */
export interface RequestAuth {
  apiKey: string;
  headers?: Record<string, string>;
}

export interface OAuthFlow {
  login(context: FlowContext): Promise<OAuthCredential>;
  /** New tokens for `credential`; throws `OAuthHttpError` when the server refuses (a revoked refresh token). */
  refresh(credential: OAuthCredential, signal: AbortSignal, env: NodeJS.ProcessEnv): Promise<OAuthCredential>;
  /** Default: the access token as the API key. */
  requestAuth?(credential: OAuthCredential): RequestAuth;
}

/** `expires_in` seconds from now, minus `skewMs` (Anthropic, Copilot and xAI store an earlier expiry). */
export function expiresAt(expiresInSeconds: number, skewMs = 0): number {
  return Date.now() + expiresInSeconds * 1000 - skewMs;
}

/** How a provider reads the usual token answer (`access_token`, `refresh_token`, `expires_in`). */
export interface TokenTerms {
  /** The refresh token kept when the answer brings no new one (a refresh that does not rotate). */
  previousRefresh?: string;
  /** Seconds assumed when the answer names no lifetime; without it, `expires_in` is required. */
  defaultLifetimeS?: number;
  /** How much earlier than the server says the credential is counted expired. */
  skewMs?: number;
}

/**
 * The stored credential for a token answer; an answer without what the provider needs is an
 * error naming `what` and the missing fields (never the tokens).
 */
export function tokenCredential(
  reply: { access_token: string; refresh_token?: string | undefined; expires_in?: number | undefined },
  what: string,
  terms: TokenTerms = {},
): OAuthCredential {
  const refresh = reply.refresh_token || terms.previousRefresh;
  const lifetime = reply.expires_in ?? terms.defaultLifetimeS;
  if (!refresh || lifetime === undefined) {
    const needed = terms.defaultLifetimeS === undefined ? `"refresh_token" or "expires_in" is missing` : `"refresh_token" is missing`;
    throw new Error(`${what}: unexpected answer: ${needed}`);
  }
  return { type: "oauth", access: reply.access_token, refresh, expires: expiresAt(lifetime, terms.skewMs) };
}

type LoginStep = (context: FlowContext) => Promise<OAuthCredential>;

/** A login that first asks how to sign in: in a browser (the default) or with a device code. */
export function browserOrDeviceLogin(
  question: { message: string; browser: { id: string; label: string }; device: { id: string; label: string } },
  browser: LoginStep,
  device: LoginStep,
): LoginStep {
  return async (context) => {
    const method = await context.io.ask({ kind: "select", message: question.message, options: [question.browser, question.device], signal: context.io.signal });
    return method === question.device.id ? device(context) : browser(context);
  };
}
