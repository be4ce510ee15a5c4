/**
 * Unsigned test JWTs shaped like a ChatGPT subscription's OAuth access token: the account id sits
 * in the payload claim `https://api.openai.com/auth` → `chatgpt_account_id`. Free of test-runner
 * imports, so scripts can use it too.
 */
export const FAKE_CODEX_ACCOUNT_ID = "acct_fake_0001";

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** A JWT whose payload is `payload` (no signature anyone checks). */
export function fakeJwt(payload: Record<string, unknown>, signature = "fake-signature"): string {
  return `${base64url({ alg: "none", typ: "JWT" })}.${base64url(payload)}.${signature}`;
}

/** An access token for `accountId`, expiring in the year 2100. */
export function fakeCodexToken(accountId = FAKE_CODEX_ACCOUNT_ID): string {
  return fakeJwt({
    "https://api.openai.com/auth": { chatgpt_account_id: accountId, chatgpt_plan_type: "plus" },
    exp: 4102444800,
  });
}

/** An `auth.json` holding an `openai-codex` OAuth login in Pi's shape, far from expiring (no refresh). */
export function fakeCodexAuthJson(token = fakeCodexToken(), accountId = FAKE_CODEX_ACCOUNT_ID): object {
  return { "openai-codex": { type: "oauth", access: token, refresh: "fake-refresh-token", expires: 4102444800000, accountId } };
}
