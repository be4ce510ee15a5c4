/**
 * The ChatGPT backend's Codex Responses endpoint (`POST …/codex/responses`): the Responses
 * event stream (responses.ts) behind the checks a subscription request must pass, zstd request
 * bodies, and its error bodies.
 *
 * A request is refused with 401 unless it carries `Authorization: Bearer <JWT>` whose payload
 * claim `https://api.openai.com/auth` has the `chatgpt_account_id` sent in `chatgpt-account-id`,
 * an `originator`, and `OpenAI-Beta: responses=experimental`. A usage-limit error
 * (`code: "usage_limit_reached"`, or any 429) carries a plan type and a reset time an hour ahead,
 * as the backend's do.
 */
import type { ScriptError } from "./script.ts";

const CLAIM = "https://api.openai.com/auth";
export const USAGE_LIMIT_PLAN = "plus";
export const USAGE_LIMIT_RESET_SECONDS = 3600;

/** The request body as text: Pi and pig send Codex bodies zstd-compressed (`content-encoding: zstd`). */
export async function requestBodyText(request: Request): Promise<string> {
  if (request.headers.get("content-encoding") !== "zstd") return request.text();
  const bytes = new Uint8Array(await request.arrayBuffer());
  return new TextDecoder().decode(Bun.zstdDecompressSync(bytes));
}

function accountIdOf(token: string): string | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
    const claim = payload[CLAIM] as Record<string, unknown> | undefined;
    return typeof claim?.chatgpt_account_id === "string" ? claim.chatgpt_account_id : undefined;
  } catch {
    return undefined;
  }
}

function unauthorized(message: string): Response {
  return Response.json(
    { error: { message, type: "invalid_request_error", param: null, code: "invalid_api_key" } },
    { status: 401, headers: { "x-request-id": "req_fake_codex_auth" } },
  );
}

/** A 401 answer when the request lacks what the backend requires of a subscription request. */
export function codexRejection(headers: Headers): Response | undefined {
  const auth = headers.get("authorization") ?? "";
  const token = auth.startsWith("Bearer ") ? auth.slice("Bearer ".length) : "";
  const account = accountIdOf(token);
  if (!account) return unauthorized("Could not parse your authentication token. Please try signing in again.");
  if (headers.get("chatgpt-account-id") !== account) return unauthorized("chatgpt-account-id does not match the token");
  if (!headers.get("originator")) return unauthorized("originator header missing");
  if (headers.get("openai-beta") !== "responses=experimental") return unauthorized("OpenAI-Beta header missing");
  return undefined;
}

/** The backend's error body; usage limits name the plan and when the limit resets (epoch seconds). */
export function codexErrorBody(error: ScriptError, now = Date.now()): unknown {
  const code = error.code !== undefined ? error.code : error.status === 429 ? "usage_limit_reached" : null;
  const type = error.type ?? (error.status === 429 ? "usage_limit_reached" : error.status >= 500 ? "server_error" : "invalid_request_error");
  if (code === "usage_limit_reached" || error.status === 429) {
    return {
      error: {
        type,
        message: error.message,
        code,
        plan_type: USAGE_LIMIT_PLAN,
        resets_at: Math.floor(now / 1000) + USAGE_LIMIT_RESET_SECONDS,
      },
    };
  }
  return { error: { message: error.message, type, param: null, code } };
}
