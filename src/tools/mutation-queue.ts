/**
 * Edits and writes to one file must not interleave: two parallel `edit` calls would both read the
 * old content and the second write would drop the first change. Calls on the same file therefore
 * run one after the other in call order; calls on different files still run concurrently.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";

const tails = new Map<string, Promise<void>>();

/** The queue key: the real path when the file exists (so symlinks share a queue), else the path. */
function queueKey(path: string): string {
  const resolved = resolve(path);
  try {
    return realpathSync(resolved);
  } catch {
    return resolved;
  }
}

/** Runs `task` once every earlier task queued for the same file has settled. */
export function withFileMutationQueue<T>(path: string, task: () => Promise<T>): Promise<T> {
  // The key is computed synchronously so that queue order is call order.
  const key = queueKey(path);
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
