/**
 * What kind of failure ended an answer, for a script to act on without reading the provider's
 * words: a bad key wants a person, a rate limit or a server error wants waiting, an unreachable
 * server wants its URL checked, an overflow wants a smaller context, a cut answer a larger
 * output limit. The provider's text is the only record every API leaves (its status code leads
 * it, or an exception name for Bedrock), so the kind is read from it — with the same overflow
 * and connection rules the retries and compaction use.
 */
import { isContextOverflow } from "./errors.ts";
import type { AssistantMessage } from "./types.ts";

export const FAILURE_KINDS = ["auth", "rate_limit", "server_error", "unreachable", "context_overflow", "cut_off", "aborted", "other"] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

// pig's note on a server asking for a longer wait than allowed comes before the server's own words.
const WAIT_NOTE = /^(?:Server requested \d+s retry delay \(max: \d+s\)\. |Server asked to retry after [^,]*?, more than [^)]*\) ?)/;
const LEADING_STATUS = /^(\d{3})\b/;
const ANSWERED_STATUS = /\banswered (\d{3})\b/;

// Never answered, or the connection went before the answer was whole (refused, no such host, TLS,
// reset, silent past the time allowed).
const UNREACHABLE =
  /^Connection error\.|^terminated$|fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|Unable to connect|getaddrinfo|socket hang up|certificate|self[- ]signed|timed? ?out|did not answer in time/i;
const AUTH = /\b(unauthori[sz]ed|invalid[ _-]?(api[ _-]?)?key|authentication|not authenticated|permission[ _-]denied|access[ _-]?denied|forbidden|expired token|invalid x-api-key)\b/i;
const RATE_LIMIT = /rate.?limit|too many requests|RESOURCE_EXHAUSTED|^Throttling error:|quota/i;
const SERVER_ERROR = /overloaded|^Service unavailable:|^Internal server error:|service.?unavailable|internal.?server.?error|bad gateway|gateway time-?out/i;

/** The HTTP status the provider's error text starts with (after pig's note on a long wait), if any. */
export function errorStatus(errorMessage: string): number | undefined {
  const text = errorMessage.replace(WAIT_NOTE, "");
  const match = LEADING_STATUS.exec(text) ?? ANSWERED_STATUS.exec(text);
  const status = match ? Number(match[1]) : NaN;
  return status >= 400 && status <= 599 ? status : undefined;
}

/** The kind of a failed or cut answer; undefined for an answer that ended as it should. */
export function failureKind(answer: Pick<AssistantMessage, "stopReason" | "errorMessage" | "usage">, contextWindow: number): FailureKind | undefined {
  if (answer.stopReason === "aborted") return "aborted";
  if (answer.stopReason !== "error" && answer.stopReason !== "length") return undefined;
  if (isContextOverflow(answer as AssistantMessage, contextWindow)) return "context_overflow";
  if (answer.stopReason === "length") return "cut_off";
  return errorKind(answer.errorMessage ?? "");
}

/** The kind of a provider's error text: by its status code first, by its words otherwise. */
function errorKind(text: string): FailureKind {
  const status = errorStatus(text);
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limit";
  if (status !== undefined && status >= 500) return "server_error";
  if (status === undefined && UNREACHABLE.test(text)) return "unreachable";
  if (AUTH.test(text)) return "auth";
  if (RATE_LIMIT.test(text)) return "rate_limit";
  if (status === undefined && SERVER_ERROR.test(text)) return "server_error";
  return "other";
}
