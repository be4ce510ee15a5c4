/**
 * Provider settings that live in variables (Azure's endpoint, Cloudflare's account id): read at
 * request time from the stored credential's own values (auth.json `env`) first, then from the
 * process environment. The sources are parameters, so tests pass their own.
 */

/** A variable's value, or undefined when no source has a non-empty one. */
export type EnvLookup = (name: string) => string | undefined;

export function envLookup(...sources: (Readonly<Record<string, string | undefined>> | undefined)[]): EnvLookup {
  return (name) => {
    for (const source of sources) {
      const value = source?.[name];
      if (value) return value;
    }
    return undefined;
  };
}
