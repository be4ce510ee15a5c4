/**
 * The text of a request that never got an answer, and what kind of failure it was. The HTTP
 * clients say only "Connection error."; the network's reason (refused, unknown host, reset) is
 * what tells a person what to fix, so it follows in parentheses. The prefix stays the clients'
 * own, which the retry rules recognise.
 */

const MAX_DETAIL = 300;

/** "ECONNREFUSED: Unable to connect …" from a fetch failure, or undefined when it says nothing. */
export function networkReason(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  let text = cause.message.trim();
  // Bun adds advice meant for the programmer who called fetch, not for the person reading this.
  text = text.replace(/\s*For more information, pass `verbose: true`.*$/s, "");
  // Bun's words for a refusal ask whether the computer can reach the URL; what it means is that
  // nothing listens on that port.
  if (code === "ECONNREFUSED" && /Unable to connect/i.test(text)) text = "ECONNREFUSED: nothing is listening there (is the server running?)";
  if (typeof code === "string" && code && !text.includes(code)) text = text ? `${code}: ${text}` : code;
  if (!text) return undefined;
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

/** "Connection error." with the network's reason, when there is one. */
export function connectionErrorMessage(cause: unknown): string {
  const reason = networkReason(cause);
  return reason ? `Connection error. (${reason})` : "Connection error.";
}

export type ConnectionFailureKind = "refused" | "dns" | "timeout" | "tls" | "reset" | "other";

export interface ConnectionFailure {
  kind: ConnectionFailureKind;
  /** Why, in words a person acts on ("nothing is listening there (connection refused)"). */
  words: string;
}

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH|ALTNAME/i;

/** What kind of network failure `cause` (a fetch or node:http error, or a timeout) was. */
export function connectionFailure(cause: unknown): ConnectionFailure {
  const error = cause instanceof Error ? cause : new Error(String(cause));
  const code = String((error as { code?: unknown }).code ?? "");
  const text = `${code} ${error.message}`;
  if (error.name === "TimeoutError" || /ETIMEDOUT|timed out/i.test(text)) return { kind: "timeout", words: "it did not answer in time" };
  if (/ECONNREFUSED|ConnectionRefused/i.test(text)) return { kind: "refused", words: "nothing is listening there (connection refused)" };
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME|DNS|getaddrinfo/i.test(text)) return { kind: "dns", words: "the host name was not found (DNS)" };
  if (TLS_CODE.test(code) || /certificate|TLS|SSL/i.test(error.message)) return { kind: "tls", words: `the secure connection failed (TLS: ${code || error.message})` };
  if (/ECONNRESET|EPIPE|socket hang up|closed/i.test(text)) return { kind: "reset", words: "the connection was closed before an answer (reset)" };
  return { kind: "other", words: networkReason(error) ?? "the request failed" };
}

/** Whether `url` names this machine (a loopback address or `localhost`). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1" || host === "0.0.0.0";
}

/**
 * A refused connection to a server on this machine: nothing listens on that port, and waiting
 * seconds will not start it. Such an answer is not retried; a remote refusal may be a restart.
 */
export function refusedOnThisMachine(errorMessage: string | undefined, baseUrl: string): boolean {
  return errorMessage !== undefined && /^Connection error\./.test(errorMessage) && /\bECONNREFUSED\b/.test(errorMessage) && isLoopbackUrl(baseUrl);
}
