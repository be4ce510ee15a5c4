/**
 * Choosing a model from what a person typed: `provider/id`, an id, a glob, or part of a name,
 * with an optional `:thinking` suffix — as upstream's `--model` and `--models` understand them.
 */
import type { ThinkingLevel } from "./message-types.ts";
import { isThinkingLevel } from "./thinking.ts";
import type { Model } from "./types.ts";

export interface ModelPattern {
  provider?: string;
  pattern: string;
  thinking?: ThinkingLevel;
}

/** Splits `provider/pattern:level`; the provider prefix counts only when it is a known provider. */
export function parseModelPattern(input: string, providers: ReadonlySet<string>): ModelPattern {
  let pattern = input.trim();
  let thinking: ThinkingLevel | undefined;
  const colon = pattern.lastIndexOf(":");
  if (colon > 0 && isThinkingLevel(pattern.slice(colon + 1))) {
    thinking = pattern.slice(colon + 1) as ThinkingLevel;
    pattern = pattern.slice(0, colon);
  }
  const slash = pattern.indexOf("/");
  if (slash > 0 && providers.has(pattern.slice(0, slash))) {
    return { provider: pattern.slice(0, slash), pattern: pattern.slice(slash + 1), ...(thinking ? { thinking } : {}) };
  }
  return { pattern, ...(thinking ? { thinking } : {}) };
}

const DATED = /-\d{8}$/;

/** Aliases (no date suffix, or `-latest`) first, then the highest id. */
function preference(a: Model, b: Model): number {
  const alias = (m: Model) => (m.id.endsWith("-latest") || !DATED.test(m.id) ? 0 : 1);
  return alias(a) - alias(b) || b.id.localeCompare(a.id);
}

function globToRegExp(glob: string): RegExp {
  let source = "";
  for (const c of glob) {
    if (c === "*") source += ".*";
    else if (c === "?") source += ".";
    else if (c === "[" || c === "]") source += c;
    else source += c.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "i");
}

/** The models matching a pattern, best first. */
export function matchModels(models: readonly Model[], { provider, pattern }: ModelPattern): Model[] {
  const pool = provider ? models.filter((m) => m.provider === provider) : [...models];
  const lower = pattern.toLowerCase();
  const exact = pool.filter((m) => m.id.toLowerCase() === lower || `${m.provider}/${m.id}`.toLowerCase() === lower);
  if (exact.length > 0) return exact;
  if (/[*?[]/.test(pattern)) {
    const re = globToRegExp(pattern);
    return pool.filter((m) => re.test(m.id) || re.test(`${m.provider}/${m.id}`)).sort(preference);
  }
  return pool
    .filter((m) => m.id.toLowerCase().includes(lower) || m.name.toLowerCase().includes(lower))
    .sort(preference);
}
