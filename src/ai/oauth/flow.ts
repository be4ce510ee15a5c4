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
