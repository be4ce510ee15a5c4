/**
 * The ChatGPT account a Codex request is made for. A ChatGPT subscription's OAuth access token is
 * a JWT whose payload carries the account id in the claim `https://api.openai.com/auth` →
 * `chatgpt_account_id` (where upstream Pi reads it); the backend wants it again in the
 * `chatgpt-account-id` header. The signature is not checked: the server does that.
 */
import * as v from "valibot";

export const ACCOUNT_CLAIM = "https://api.openai.com/auth";

const PayloadSchema = v.looseObject({
  [ACCOUNT_CLAIM]: v.looseObject({ chatgpt_account_id: v.pipe(v.string(), v.minLength(1)) }),
});

/** The token cannot be used for a Codex request; the message says what to do (never shows the token). */
export class CodexTokenError extends Error {
  override name = "CodexTokenError";
}

function decodePayload(token: string): unknown {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    return JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The `chatgpt_account_id` of `token`; throws `CodexTokenError` for a token that is not such a JWT. Pure. */
export function codexAccountId(token: string, provider = "openai-codex"): string {
  const payload = decodePayload(token);
  if (payload === undefined) {
    throw new CodexTokenError(`The credential for ${provider} is not a ChatGPT sign-in token (not a JWT); sign in again with /login ${provider}`);
  }
  const parsed = v.safeParse(PayloadSchema, payload);
  if (!parsed.success) {
    throw new CodexTokenError(`The ${provider} sign-in token names no ChatGPT account (claim "${ACCOUNT_CLAIM}".chatgpt_account_id); sign in again with /login ${provider}`);
  }
  return parsed.output[ACCOUNT_CLAIM].chatgpt_account_id;
}
