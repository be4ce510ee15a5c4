/**
 * The figures of a fault run: how many cases each fault case ran and how many broke a promise.
 * A test asserts there were no failures; the figures are also written, one JSON line each, to
 * the file named by PIG_FAULT_FIGURES (scripts/fault-figures.ts sets it and prints the table
 * docs/reliability.md shows).
 */
import { appendFileSync } from "node:fs";

export interface Figure {
  /** The fault, as docs/reliability.md names it. */
  fault: string;
  cases: number;
  failures: number;
  /** What the cases came to, where it says more than the count (e.g. "54 killed"). */
  note?: string;
}

export function reportFigure(figure: Figure): void {
  const file = process.env.PIG_FAULT_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}

/**
 * Runs `cases` checks, each of which throws to fail; collects the failures (with the case's
 * label) instead of stopping at the first, reports the figure, and returns the failures.
 */
export async function runCases<T>(
  fault: string,
  cases: readonly T[],
  label: (c: T) => string,
  check: (c: T, index: number) => Promise<void> | void,
  note?: () => string,
): Promise<string[]> {
  const failures: string[] = [];
  for (const [index, c] of cases.entries()) {
    try {
      await check(c, index);
    } catch (error) {
      failures.push(`${label(c)}: ${(error as Error).message.split("\n").slice(0, 6).join("\n")}`);
    }
  }
  const said = note?.();
  reportFigure({ fault, cases: cases.length, failures: failures.length, ...(said ? { note: said } : {}) });
  return failures;
}

/** A small seeded generator (mulberry32): the same seed gives the same faults on every machine. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [0, n) from `random`. */
export function below(random: () => number, n: number): number {
  return Math.floor(random() * n);
}
