/**
 * Reading a failed answer: is it a context overflow (compaction can help) or a transient error
 * (a retry can help)? Patterns are upstream Pi 0.73.1's.
 */
import { refusedOnThisMachine } from "./connection-error.ts";
import type { AssistantMessage, Model } from "./types.ts";

const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i,
  /request_too_large/i,
  /input is too long for requested model/i,
  /exceeds the context window/i,
  /input token count.*exceeds the maximum/i,
  /maximum prompt length is \d+/i,
  /reduce the length of the messages/i,
  /maximum context length is \d+ tokens/i,
  /exceeds the limit of \d+/i,
  /exceeds the available context size/i,
  /greater than the context length/i,
  /context window exceeds limit/i,
  /exceeded model token limit/i,
  /too large for model with \d+ maximum context length/i,
  /model_context_window_exceeded/i,
  /prompt too long; exceeded (max )?context length/i,
  /context[_ ]length[_ ]exceeded/i,
  /too many tokens/i,
  /token limit exceeded/i,
  /^4(00|13)\s*(status code)?\s*\(no body\)/i,
];

const OVERFLOW_EXCLUSIONS: readonly RegExp[] = [/^(Throttling error|Service unavailable):/i, /rate limit/i, /too many requests/i];

const RETRYABLE =
  /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i;

/** Whether the answer shows the context did not fit the model's window (reported or silent). */
export function isContextOverflow(message: AssistantMessage, contextWindow: number): boolean {
  if (message.stopReason === "error" && message.errorMessage) {
    const text = message.errorMessage;
    if (OVERFLOW_EXCLUSIONS.some((re) => re.test(text))) return false;
    return OVERFLOW_PATTERNS.some((re) => re.test(text));
  }
  const input = message.usage.input + message.usage.cacheRead;
  if (message.stopReason === "stop") return input > contextWindow;
  if (message.stopReason === "length") return message.usage.output === 0 && input >= 0.99 * contextWindow;
  return false;
}

/**
 * Whether a failed answer is worth retrying: not an overflow (compaction handles it), and not a
 * refused connection to this machine (no server listens there; waiting will not start one).
 */
export function isRetryableError(message: AssistantMessage, model: Pick<Model, "contextWindow" | "baseUrl">): boolean {
  if (message.stopReason !== "error" || !message.errorMessage) return false;
  if (isContextOverflow(message, model.contextWindow)) return false;
  if (refusedOnThisMachine(message.errorMessage, model.baseUrl)) return false;
  return RETRYABLE.test(message.errorMessage);
}
