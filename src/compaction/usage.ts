/** Adding up what summary requests cost: a split turn's two requests are stored as one usage. */
import type { Usage } from "../session/format.ts";

function optionalSum(key: "cacheWrite1h" | "reasoning", a: Usage, b: Usage): Partial<Record<typeof key, number>> {
  const x = (a as Record<string, unknown>)[key];
  const y = (b as Record<string, unknown>)[key];
  if (typeof x !== "number" && typeof y !== "number") return {};
  return { [key]: (typeof x === "number" ? x : 0) + (typeof y === "number" ? y : 0) };
}

/**
 * The sum of two usages, in the key order Pi writes (`cacheWrite1h` and `reasoning` only when
 * either side has them); either alone when the other is missing.
 */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a || !b) return a ?? b;
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    ...optionalSum("cacheWrite1h", a, b),
    ...optionalSum("reasoning", a, b),
    totalTokens: a.totalTokens + b.totalTokens,
    cost: {
      input: a.cost.input + b.cost.input,
      output: a.cost.output + b.cost.output,
      cacheRead: a.cost.cacheRead + b.cost.cacheRead,
      cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
      total: a.cost.total + b.cost.total,
    },
  };
}
