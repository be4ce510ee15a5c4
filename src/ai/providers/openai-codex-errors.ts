/**
 * Errors of the ChatGPT Codex endpoint, in words a subscriber can act on:
 *
 * - a usage limit (error code `usage_limit_reached`, `usage_not_included`, `rate_limit_exceeded`,
 *   or any 429) says so, with the plan and the minutes until the limit resets when the backend
 *   names them: "You have hit your ChatGPT usage limit (plus plan). Try again in ~42 min." (as
 *   upstream Pi words it);
 * - 401 and 403 (an expired, revoked or foreign sign-in) add how to sign in again;
 * - any other status is `<status> <the server's message>`;
 * - in-stream failures: "Codex error: <message>" for an `error` event, the response's error
 *   message for `response.failed`.
 */
import * as v from "valibot";
import { httpStatusFailure, type StreamFailure } from "./stream-failure.ts";

const ErrorBodySchema = v.looseObject({
  error: v.optional(
    v.nullable(
      v.looseObject({
        message: v.optional(v.nullable(v.string())),
        code: v.optional(v.nullable(v.string())),
        type: v.optional(v.nullable(v.string())),
        plan_type: v.optional(v.nullable(v.string())),
        resets_at: v.optional(v.nullable(v.number())),
      }),
    ),
  ),
  detail: v.optional(v.unknown()),
});

const USAGE_LIMIT = /usage_limit_reached|usage_not_included|rate_limit_exceeded/i;

/** The message for an HTTP error answer from the Codex endpoint. Pure (`now` for the reset time). */
export function codexHttpErrorMessage(status: number, bodyText: string, provider: string, now = Date.now()): string {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  const parsed = v.safeParse(ErrorBodySchema, json);
  const error = parsed.success ? parsed.output.error : undefined;
  const code = error?.code || error?.type || "";
  if (status === 429 || (error && USAGE_LIMIT.test(code))) {
    const plan = error?.plan_type ? ` (${error.plan_type.toLowerCase()} plan)` : "";
    const resetsAt = error?.resets_at;
    const when = typeof resetsAt === "number" ? ` Try again in ~${Math.max(0, Math.round((resetsAt * 1000 - now) / 60000))} min.` : "";
    return `You have hit your ChatGPT usage limit${plan}.${when}`;
  }
  const detail = parsed.success && typeof parsed.output.detail === "string" ? parsed.output.detail : undefined;
  const serverMessage = (error?.message || detail || bodyText.trim() || "(no body)").replace(/[.\s]+$/, "");
  const message = `${status} ${serverMessage}`;
  if (status === 401 || status === 403) return `${message}. Your ChatGPT sign-in was refused: run /login ${provider} to sign in again`;
  return message;
}

/** The failure for an HTTP error answer, with the wait the server asked for (too long past `maxRetryDelayMs`). */
export async function codexHttpFailure(response: Response, provider: string, maxRetryDelayMs: number | undefined): Promise<StreamFailure> {
  const text = await response.text().catch(() => "");
  return httpStatusFailure(response, codexHttpErrorMessage(response.status, text, provider), maxRetryDelayMs);
}

/** An in-stream failure the server reported (not a transport fault). */
export class CodexStreamError extends Error {
  override name = "CodexStreamError";
}

type Json = Record<string, unknown>;

/** The error an in-stream `error` event stands for. */
export function codexEventError(event: Json): CodexStreamError {
  const nested = typeof event.error === "object" && event.error !== null ? (event.error as Json) : undefined;
  const pick = (key: string) => (typeof event[key] === "string" ? (event[key] as string) : typeof nested?.[key] === "string" ? (nested[key] as string) : undefined);
  return new CodexStreamError(`Codex error: ${pick("message") || pick("code") || JSON.stringify(event)}`);
}

/** The error a `response.failed` event stands for. */
export function codexFailedResponseError(event: Json): CodexStreamError {
  const response = event.response as Json | undefined;
  const error = response?.error as Json | undefined;
  return new CodexStreamError(typeof error?.message === "string" && error.message ? error.message : "Codex response failed");
}
