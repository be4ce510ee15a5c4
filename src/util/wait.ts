/** Waiting between attempts: the backoff delay, and a sleep an abort cuts short. */

/**
 * The delay before retry `attempt` (1 for the first retry): the server's requested delay when it
 * named one (`retry-after: 1` means one second, not the longer backoff), else `baseDelayMs`
 * doubling each time. A request longer than allowed never gets here: it is not retried.
 */
export function retryDelay(attempt: number, baseDelayMs: number, serverDelayMs?: number): number {
  return serverDelayMs ?? baseDelayMs * 2 ** (attempt - 1);
}

/** Resolves with true after `ms`, or with false as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
