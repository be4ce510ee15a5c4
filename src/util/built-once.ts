/**
 * A value built the first time it is asked for, then kept. For schema sets a one-turn run does
 * not use: valibot builds every schema object when its module is evaluated, and hundreds of
 * them at start-up are CPU time a `-p` run spends for nothing.
 */
export function builtOnce<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}
