/** The one abort message every file tool uses (bash has its own texts). */
export const ABORTED_MESSAGE = "Operation aborted";

export function abortError(): Error {
  return new Error(ABORTED_MESSAGE);
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError();
}

/**
 * Runs `work` but settles with `Operation aborted` as soon as `signal` fires, without waiting for
 * the work to notice. The work keeps its own abort checks between steps, so it stops soon after.
 */
export function abortable<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  if (!signal) return work();
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    work().then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) reject(abortError());
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? abortError() : error);
      },
    );
  });
}
