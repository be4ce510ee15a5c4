/**
 * What a person is told when a model call fails: what failed (provider and model), where (the
 * endpoint URL), after how many attempts, and the error in a readable form (an HTML page by its
 * title, a long text cut short). The session file keeps the provider's own text, which the
 * overflow and retry rules read; these words are only shown (print mode's stderr, the
 * interactive screen, JSON mode's stderr).
 */
import type { PigEvent } from "../agent/events.ts";
import { endpointUrl } from "../ai/endpoint.ts";
import { htmlSummary } from "../ai/response-watch.ts";
import type { AssistantMessage, Model } from "../ai/types.ts";
import { hideUrlCredentials } from "../util/redact.ts";

const MAX_SHOWN = 1000;
const HTML = /<(!doctype\s+html|html|head|body)\b/i;

/** `503 {"type":"error","error":{"type":"api_error","message":"…"}}` (Anthropic's way) as `503 … (api_error)`. */
function jsonErrorText(text: string): string | undefined {
  const match = /^(\d{3}) (\{[\s\S]*\})$/.exec(text.trim());
  if (!match) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(match[2]!);
  } catch {
    return undefined;
  }
  const error = (body as { error?: { message?: unknown; type?: unknown } }).error;
  if (typeof error?.message !== "string") return undefined;
  return `${match[1]} ${error.message}${typeof error.type === "string" ? ` (${error.type})` : ""}`;
}

/** The error text for a person: a JSON error body by its message, an HTML page by its title, anything long cut short. */
export function readableError(error: string): string {
  // A URL in the message (a proxy, a base URL) is shown without its credentials.
  const text = hideUrlCredentials(error);
  const json = jsonErrorText(text);
  if (json) return readableError(json);
  const html = HTML.exec(text);
  if (html) {
    const before = text.slice(0, html.index).trim();
    const summary = htmlSummary(text.slice(html.index));
    return `${before ? `${before} ` : ""}(an HTML page${summary ? `: ${summary}` : ""})`;
  }
  const trimmed = text.trim();
  return trimmed.length > MAX_SHOWN ? `${trimmed.slice(0, MAX_SHOWN)}… (${trimmed.length - MAX_SHOWN} more characters)` : trimmed;
}

/** Finds the model an answer came from (the registry's, for its base URL). */
export type ModelLookup = (provider: string, id: string) => Model | undefined;

/** "provider/model at https://host/v1/chat/completions" (without the URL when the model is unknown). */
export function whereText(answer: Pick<AssistantMessage, "provider" | "model">, lookup: ModelLookup): string {
  const model = lookup(answer.provider, answer.model);
  return `${answer.provider}/${answer.model}${model ? ` at ${hideUrlCredentials(endpointUrl(model))}` : ""}`;
}

/** A retry's wait: "20ms", "2s", "1.5s". */
export function delayText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${Math.round(ms / 100) / 10}s`;
}

/** The line announcing a retry: which model failed, why, and when the next attempt starts. */
export function retryText(event: Extract<PigEvent, { type: "auto_retry_start" }>, model: string | undefined): string {
  const who = model ? `${model}: ` : "";
  return `${who}${readableError(event.errorMessage)} — retry ${event.attempt}/${event.maxAttempts} in ${delayText(event.delayMs)}`;
}

/** The final word on a failed answer: what failed, where, after how many attempts, and why. */
export function failureText(answer: AssistantMessage, lookup: ModelLookup, attempts: number): string {
  const error = readableError(answer.errorMessage ?? `the request ended with ${answer.stopReason}`);
  return `${whereText(answer, lookup)} failed after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${error}`;
}

/**
 * Counts the attempts of the answer being worked on from the session's events: a new prompt or
 * a successful retry starts again at one, each retry adds one.
 */
export class AttemptCounter {
  private retries = 0;

  observe(event: PigEvent): void {
    if (event.type === "message_start" && event.message.role === "user") this.retries = 0;
    else if (event.type === "auto_retry_start") this.retries = event.attempt;
    else if (event.type === "auto_retry_end" && event.success) this.retries = 0;
  }

  get attempts(): number {
    return this.retries + 1;
  }
}
