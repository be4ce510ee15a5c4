/** Waits the end-to-end tests share: a gate the test opens, and a state polled for until it holds. */

/** A promise a test resolves to let a held answer go. */
export function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

/** Resolves once `check` holds; fails the test with `what` if it never does. */
export async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}
