/** Waiting between retries: exponential backoff, stretched to what the server asked for. */

import { isRetryableError } from "../ai/errors.ts";
import type { AssistantMessage, Model } from "../ai/types.ts";
import type { RetrySettings } from "../resources/settings-effective.ts";
import type { SessionEvent } from "./events.ts";
import { retryDelay, sleep } from "../util/wait.ts";

/** `finalError` of a chain the person (or a client) stopped: upstream's words. */
export const RETRY_CANCELLED = "Retry cancelled";

/**
 * The retry state of one run: which attempt this is, what the server last said about waiting,
 * and the `auto_retry_*` events in upstream's order.
 */
export class Retrier {
  attempt = 0;
  private hint: { afterMs?: number; tooLong?: boolean } = {};

  constructor(
    private readonly settings: () => RetrySettings,
    private readonly emit: (event: SessionEvent) => void,
  ) {}

  /** What the provider said when the last answer failed (retry-after, cap exceeded). */
  noteStreamError(hint: { afterMs?: number; tooLong?: boolean }): void {
    this.hint = hint;
  }

  startRequest(): void {
    this.hint = {};
  }

  /** A finished answer: the first good one after retries reports success. */
  onAnswer(answer: AssistantMessage): void {
    if (this.attempt > 0 && answer.stopReason !== "error") {
      this.emit({ type: "auto_retry_end", success: true, attempt: this.attempt });
      this.attempt = 0;
    }
  }

  shouldRetry(answer: AssistantMessage, model: Model): boolean {
    const settings = this.settings();
    if (!settings.enabled || answer.stopReason !== "error") return false;
    // A server that asks for a longer wait than allowed is not retried (upstream fails at once).
    const cap = settings.provider.maxRetryDelayMs;
    if (this.hint.tooLong || (cap > 0 && (this.hint.afterMs ?? 0) > cap)) return false;
    return isRetryableError(answer, model);
  }

  /**
   * Announces the next attempt, drops the failed answer from the context (it stays in the file)
   * and waits. False when attempts ran out or the wait was cancelled.
   */
  async wait(answer: AssistantMessage, dropAnswer: () => void, signal: AbortSignal): Promise<boolean> {
    const settings = this.settings();
    this.attempt++;
    if (this.attempt > settings.maxRetries) {
      this.end(answer.errorMessage ?? "error", this.attempt - 1);
      return false;
    }
    const delayMs = retryDelay(this.attempt, settings.baseDelayMs, this.hint.afterMs);
    this.emit({ type: "auto_retry_start", attempt: this.attempt, maxAttempts: settings.maxRetries, delayMs, errorMessage: answer.errorMessage ?? "" });
    dropAnswer();
    if (!(await sleep(delayMs, signal))) {
      this.end(RETRY_CANCELLED);
      return false;
    }
    return true;
  }

  /** The run ended without a retry: report a failed chain, or a cancelled one. */
  finish(answer: AssistantMessage | undefined, cancelled: boolean): void {
    if (this.attempt === 0) return;
    if (cancelled) this.end(RETRY_CANCELLED);
    else if (answer?.stopReason === "error") this.end(answer.errorMessage ?? "error");
  }

  /** Ends a retry chain for a reason of the session's own (the file cannot be written). */
  stop(reason: string): void {
    if (this.attempt > 0) this.end(reason);
  }

  private end(finalError: string, attempt = this.attempt): void {
    this.emit({ type: "auto_retry_end", success: false, attempt, finalError });
    this.attempt = 0;
  }
}
