/**
 * Fuzzy matching for completion: the query's characters must appear in order in the candidate
 * (case-insensitively); the best alignment is found by dynamic programming and scored so that
 * runs of consecutive characters, matches at the start of a path segment or word, and short
 * candidates win — `src/ap` ranks `src/app.ts` above `src/tools/apply.ts`.
 */

const MATCH = 16;
const CONSECUTIVE = 8;
const GAP = 3;

/** Extra points for matching at `j`: the start, after a separator, or at a camelCase hump. */
function boundaryBonus(candidate: string, j: number): number {
  if (j === 0) return 10;
  const previous = candidate[j - 1] as string;
  if (previous === "/") return 9;
  if ("-_. ".includes(previous)) return 7;
  const current = candidate[j] as string;
  if (previous === previous.toLowerCase() && current !== current.toLowerCase()) return 6;
  return 0;
}

function isSubsequence(query: string, candidate: string): boolean {
  let i = 0;
  for (let j = 0; j < candidate.length && i < query.length; j++) if (candidate[j] === query[i]) i++;
  return i === query.length;
}

/** The score of `query` against `candidate`, or undefined when it does not match at all. */
export function fuzzyScore(query: string, candidate: string): number | undefined {
  const q = query.toLowerCase();
  const c = candidate.toLowerCase();
  if (q.length === 0) return -candidate.length * 0.05;
  if (!isSubsequence(q, c)) return undefined;
  const n = c.length;
  // row[j]: the best score with the current query character matched at j.
  let row = new Array<number>(n).fill(Number.NEGATIVE_INFINITY);
  for (let j = 0; j < n; j++) {
    if (c[j] === q[0]) row[j] = MATCH + boundaryBonus(candidate, j) - Math.min(j, 10) * 0.5;
  }
  for (let i = 1; i < q.length; i++) {
    const next = new Array<number>(n).fill(Number.NEGATIVE_INFINITY);
    let bestBefore = Number.NEGATIVE_INFINITY; // max of row[0 .. j-2]
    for (let j = 1; j < n; j++) {
      if (j >= 2) bestBefore = Math.max(bestBefore, row[j - 2] as number);
      if (c[j] !== q[i]) continue;
      const consecutive = (row[j - 1] as number) + CONSECUTIVE;
      const afterGap = bestBefore - GAP;
      next[j] = MATCH + boundaryBonus(candidate, j) + Math.max(consecutive, afterGap);
    }
    row = next;
  }
  const best = Math.max(...row);
  return Number.isFinite(best) ? best - n * 0.05 : undefined;
}

/** `candidates` that match `query`, best first (ties: shorter, then alphabetical), at most `limit`. */
export function rankFuzzy<T>(query: string, candidates: readonly T[], key: (item: T) => string, limit: number): T[] {
  const scored: { item: T; score: number; key: string }[] = [];
  for (const item of candidates) {
    const text = key(item);
    const score = fuzzyScore(query, text);
    if (score !== undefined) scored.push({ item, score, key: text });
  }
  scored.sort((a, b) => b.score - a.score || a.key.length - b.key.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return scored.slice(0, limit).map((entry) => entry.item);
}
