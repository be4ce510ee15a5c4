/**
 * How a provider's stream ends when something fails, the same for every API pig speaks over
 * plain fetch: the caller's abort reaches the request through a controller of the stream's own,
 * and whatever was thrown becomes the one final `error` event (aborted or error, the watch's
 * diagnosis before the symptom it caused, the server's requested wait, no credential in the text).
 */
import { REDACTED } from "../../util/redact.ts";
import type { ResponseWatch } from "../response-watch.ts";
import { retryAfterMs } from "../retry-after.ts";
import { SseLimitError, type SseEvent } from "../sse.ts";
import type { AssistantMessage, AssistantMessageEvent } from "../types.ts";

export const ABORTED_MESSAGE = "Request was aborted";

/** A failure with the extra fields the final `error` event carries. */
export class StreamFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly retryDelayTooLong?: boolean,
  ) {
    super(message);
  }
}

/** An error's message; anything else thrown, as JSON (as upstream words it). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : JSON.stringify(error);
}

/** Strips the streaming scratch fields (`partialArgs`, `streamIndex`, `partialJson`, `index`) from blocks. */
export function cleanScratch(message: AssistantMessage): void {
  for (const block of message.content) {
    const b = block as unknown as Record<string, unknown>;
    delete b.partialArgs;
    delete b.streamIndex;
    delete b.partialJson;
    delete b.index;
  }
}

/** `text` with every secret of 8 characters or more replaced: a server may quote what it was sent. */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * The stream's own abort controller, aborted when the caller's signal is (so a timeout may abort
 * the request without touching the caller's signal). `release` detaches it and aborts whatever
 * is still running.
 */
export class StreamAbort {
  readonly controller = new AbortController();
  private readonly onAbort = () => this.controller.abort(this.signal?.reason);

  constructor(readonly signal: AbortSignal | undefined) {
    // A signal aborted already (an abort that came with the prompt) fires no event: the request
    // must not go out at all.
    if (signal?.aborted) this.controller.abort(signal.reason);
    else signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  get aborted(): boolean {
    return this.signal?.aborted === true;
  }

  release(): void {
    this.signal?.removeEventListener("abort", this.onAbort);
    this.controller.abort();
  }
}

/** Closes an event iterator the stream stopped reading; a failure to close changes nothing. */
export async function closeQuietly(events: AsyncGenerator<unknown> | undefined): Promise<void> {
  if (events) await events.return(undefined).catch(() => {});
}

export interface FailureSources {
  signal: AbortSignal | undefined;
  watch: ResponseWatch;
  /** Credential values this stream resolved itself (the agent's redactor never saw them). */
  secrets?: readonly string[];
  /** The message of what was thrown; `errorText` unless the API words it otherwise. */
  describe?: (error: unknown) => string;
}

/**
 * The final `error` event for whatever ended a stream: an abort reads "Request was aborted", a
 * fault the watch diagnosed keeps its words (it says more than the "terminated" or "Connection
 * error." it caused), anything else its own message; a `StreamFailure` adds the server's wait.
 */
export function failureEvent(output: AssistantMessage, error: unknown, sources: FailureSources): AssistantMessageEvent {
  cleanScratch(output);
  const aborted = sources.signal?.aborted === true;
  output.stopReason = aborted ? "aborted" : "error";
  const message = sources.watch.failure?.message ?? (sources.describe ?? errorText)(error);
  output.errorMessage = aborted ? ABORTED_MESSAGE : hideSecrets(message, sources.secrets ?? []);
  const failure = error instanceof StreamFailure ? error : undefined;
  return {
    type: "error",
    reason: aborted ? "aborted" : "error",
    error: output,
    ...(failure?.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    ...(failure?.retryDelayTooLong ? { retryDelayTooLong: true } : {}),
  };
}

/**
 * The failure for an HTTP error answer worded `message`, with the wait the server asked for; a
 * retryable status (429, 5xx) asking to wait past `maxRetryDelayMs` says so first, as the SDKs do.
 */
export function httpStatusFailure(response: Response, message: string, maxRetryDelayMs: number | undefined): StreamFailure {
  const wait = retryAfterMs(response.headers);
  const cap = maxRetryDelayMs ?? 0;
  const tooLong = (response.status === 429 || response.status >= 500) && wait !== undefined && cap > 0 && wait > cap;
  const text = tooLong ? `Server requested ${Math.ceil(wait / 1000)}s retry delay (max: ${Math.ceil(cap / 1000)}s). ${message}` : message;
  return new StreamFailure(text, wait, tooLong || undefined);
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? `${seconds}s` : `${Math.ceil(seconds * 10) / 10}s`;
}

/** pig's own message for a server that asks to wait longer than `maxRetryDelayMs` (APIs without an SDK wording of it). */
export function retryDelayTooLongMessage(retryAfterMs: number, maxRetryDelayMs: number): string {
  return `Server asked to retry after ${formatSeconds(retryAfterMs)}, more than the configured maximum of ${formatSeconds(maxRetryDelayMs)} (retry.provider.maxRetryDelayMs)`;
}

/**
 * The next server-sent event. A connection lost mid-body reads "terminated", undici's wording,
 * which upstream reports as it is; an event past the size limits names the provider.
 */
export async function nextSseEvent(events: AsyncIterator<SseEvent>, provider: string, signal?: AbortSignal): Promise<IteratorResult<SseEvent>> {
  try {
    return await events.next();
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof SseLimitError) throw new Error(`Malformed event stream from ${provider}: ${error.message}`);
    throw new Error("terminated", { cause: error });
  }
}
