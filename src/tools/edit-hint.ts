/**
 * When an oldText is not in the file, the model usually has a stale or slightly mistyped copy of
 * a region that is there. Showing that region (found by line similarity) lets it retry in one step
 * instead of re-reading the file.
 */

/** Regions scoring below this are not shown: they would mislead more than help. */
const MIN_SCORE = 0.5;
/** At most this many needle lines are compared per window, to bound the work on big edits. */
const MAX_SAMPLED_LINES = 40;
/** Windows that get the full comparison after the cheap first pass. */
const SHORTLIST = 20;
/** At most this many lines of the region are shown. */
const MAX_SHOWN_LINES = 40;

interface Line {
  text: string;
  /** Sorted character-pair codes of the canonical text. */
  grams: Uint32Array;
}

function prepare(line: string): Line {
  const text = line.trim().replace(/\s+/g, " ");
  const grams = new Uint32Array(Math.max(0, text.length - 1));
  for (let i = 0; i + 1 < text.length; i++) grams[i] = (text.charCodeAt(i) << 16) | text.charCodeAt(i + 1);
  grams.sort();
  return { text, grams };
}

/** Size of the multiset intersection of two sorted code lists. */
function shared(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let count = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      count++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return count;
}

/** Dice similarity of two lines; a one-line needle may also match as part of a longer line. */
function similarity(file: Line, needle: Line, partial: boolean): number {
  if (file.text === needle.text) return 1;
  if (file.grams.length === 0 || needle.grams.length === 0) return 0;
  const common = shared(file.grams, needle.grams);
  const dice = (2 * common) / (file.grams.length + needle.grams.length);
  return partial ? Math.max(dice, (common / needle.grams.length) * 0.9) : dice;
}

function trimBlankEdges(lines: string[]): string[] {
  let from = 0;
  let to = lines.length;
  while (from < to && (lines[from] ?? "").trim() === "") from++;
  while (to > from && (lines[to - 1] ?? "").trim() === "") to--;
  return lines.slice(from, to);
}

function spread(count: number, max: number): number[] {
  const step = Math.max(1, Math.ceil(count / max));
  const out: number[] = [];
  for (let j = 0; j < count; j += step) out.push(j);
  return out;
}

/**
 * A short hint naming the file region most similar to `oldText` (line numbers and the lines as
 * they are in the file), or "" when nothing is similar enough. Both texts use "\n" line ends.
 */
export function closestMatchHint(content: string, oldText: string): string {
  const needleLines = trimBlankEdges(oldText.split("\n"));
  const fileLines = content.split("\n");
  if (needleLines.length === 0 || fileLines.length === 0) return "";
  const window = Math.min(needleLines.length, fileLines.length);
  const needle = needleLines.slice(0, window).map(prepare);
  const file = fileLines.map(prepare);
  const partial = window === 1;
  const sampled = spread(window, MAX_SAMPLED_LINES);
  // First pass: three needle lines per window, to shortlist the windows worth a full look.
  const probe = [...new Set([0, Math.floor((window - 1) / 2), window - 1])];
  const score = (i: number, rows: number[]) => {
    let sum = 0;
    for (const j of rows) sum += similarity(file[i + j] as Line, needle[j] as Line, partial);
    return sum / rows.length;
  };

  const windows = file.length - window + 1;
  const rough = new Float64Array(windows);
  for (let i = 0; i < windows; i++) rough[i] = score(i, probe);
  const shortlist = Array.from({ length: windows }, (_, i) => i)
    .sort((a, b) => (rough[b] as number) - (rough[a] as number) || a - b)
    .slice(0, SHORTLIST);

  let best = -1;
  let bestScore = 0;
  for (const i of shortlist.sort((a, b) => a - b)) {
    const s = score(i, sampled);
    if (s > bestScore) {
      bestScore = s;
      best = i;
    }
  }
  if (best < 0 || bestScore < MIN_SCORE) return "";
  const shown = fileLines.slice(best, best + Math.min(window, MAX_SHOWN_LINES));
  const more = window - shown.length;
  const tail = more > 0 ? `\n... (${more} more lines)` : "";
  return `\nClosest match (lines ${best + 1}-${best + window}):\n${shown.join("\n")}${tail}`;
}
