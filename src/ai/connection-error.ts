/**
 * The text of a request that never got an answer. The HTTP clients say only "Connection error.";
 * the network's reason (refused, unknown host, reset) is what tells a person what to fix, so it
 * follows in parentheses. The prefix stays the clients' own, which the retry rules recognise.
 */

const MAX_DETAIL = 300;

/** "ECONNREFUSED: Unable to connect …" from a fetch failure, or undefined when it says nothing. */
export function networkReason(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  let text = cause.message.trim();
  // Bun adds advice meant for the programmer who called fetch, not for the person reading this.
  text = text.replace(/\s*For more information, pass `verbose: true`.*$/s, "");
  if (typeof code === "string" && code && !text.includes(code)) text = text ? `${code}: ${text}` : code;
  if (!text) return undefined;
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

/** "Connection error." with the network's reason, when there is one. */
export function connectionErrorMessage(cause: unknown): string {
  const reason = networkReason(cause);
  return reason ? `Connection error. (${reason})` : "Connection error.";
}
