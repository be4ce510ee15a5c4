/**
 * The forgiving comparison `edit` falls back to when an oldText is not in the file verbatim:
 * models often retype typographic quotes and dashes as ASCII, drop trailing spaces, or use
 * compatibility forms of characters. Both sides are normalised the same way; `FuzzyText` maps a
 * match in the normalised file back to the original, so only the matched region is replaced.
 */

const SINGLE_QUOTES = /[\u2018-\u201B]/g;
const DOUBLE_QUOTES = /[\u201C-\u201F]/g;
const DASHES = /[\u2010-\u2015\u2212]/g;
const SPACES = /[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;

function replaceLookalikes(text: string): string {
  return text.replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(DASHES, "-").replace(SPACES, " ");
}

/** NFKC, trailing whitespace removed from every line, typographic quotes/dashes/spaces as ASCII. */
export function fuzzyNormalize(text: string): string {
  const trimmed = text
    .normalize("NFKC")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
  return replaceLookalikes(trimmed);
}

/** One normalised line and, per UTF-16 unit of it, the original range (within the line). */
interface LineMap {
  text: string;
  start: number[];
  end: number[];
}

const WHITESPACE = /\s/;

/** Normalises one line a code point at a time, remembering where each output unit came from. */
function mapLine(line: string): LineMap {
  const units: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  let offset = 0;
  for (const ch of line) {
    const next = offset + ch.length;
    const normalized = ch.charCodeAt(0) < 0x80 ? ch : ch.normalize("NFKC");
    for (let i = 0; i < normalized.length; i++) {
      units.push(normalized[i] as string);
      start.push(offset);
      end.push(next);
    }
    offset = next;
  }
  let keep = units.length;
  while (keep > 0 && WHITESPACE.test(units[keep - 1] as string)) keep--;
  return { text: replaceLookalikes(units.slice(0, keep).join("")), start: start.slice(0, keep), end: end.slice(0, keep) };
}

function lineStarts(lines: string[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  return starts;
}

/** Index of the last entry of the ascending `starts` that is <= `offset`. */
function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A text with its fuzzy normalisation. Normalisation never adds or removes line breaks, so line N
 * of one is line N of the other and only the lines where a match starts and ends need mapping.
 */
export class FuzzyText {
  readonly text: string;
  private readonly lines: string[];
  private readonly fuzzyLines: string[];
  private readonly starts: number[];
  private readonly fuzzyStarts: number[];
  private readonly maps = new Map<number, LineMap | undefined>();

  constructor(readonly original: string) {
    this.text = fuzzyNormalize(original);
    this.lines = original.split("\n");
    this.fuzzyLines = this.text.split("\n");
    this.starts = lineStarts(this.lines);
    this.fuzzyStarts = lineStarts(this.fuzzyLines);
  }

  /** The line's map, or undefined when per-character normalisation disagrees with the whole line's. */
  private map(index: number): LineMap | undefined {
    if (!this.maps.has(index)) {
      const map = mapLine(this.lines[index] ?? "");
      this.maps.set(index, map.text === this.fuzzyLines[index] ? map : undefined);
    }
    return this.maps.get(index);
  }

  /**
   * The original range behind `[from, from + length)` of the normalised text, or `undefined` when
   * it cannot be mapped exactly (e.g. it starts or ends inside one original character's expansion).
   */
  originalRange(from: number, length: number): { index: number; length: number } | undefined {
    if (length === 0 || this.lines.length !== this.fuzzyLines.length) return undefined;
    const startLine = lineOf(this.fuzzyStarts, from);
    const startCol = from - (this.fuzzyStarts[startLine] as number);
    const last = from + length - 1;
    const endLine = lineOf(this.fuzzyStarts, last);
    const endCol = last - (this.fuzzyStarts[endLine] as number);

    let index: number;
    if (startCol >= (this.fuzzyLines[startLine] as string).length) {
      // The match starts at the line break itself.
      index = (this.starts[startLine] as number) + (this.lines[startLine] as string).length;
    } else {
      const map = this.map(startLine);
      if (!map || (startCol > 0 && map.start[startCol - 1] === map.start[startCol])) return undefined;
      index = (this.starts[startLine] as number) + (map.start[startCol] as number);
    }
    let stop: number;
    if (endCol >= (this.fuzzyLines[endLine] as string).length) {
      stop = (this.starts[endLine] as number) + (this.lines[endLine] as string).length + 1;
    } else {
      const map = this.map(endLine);
      if (!map || (endCol + 1 < map.start.length && map.start[endCol + 1] === map.start[endCol])) return undefined;
      stop = (this.starts[endLine] as number) + (map.end[endCol] as number);
    }
    return { index, length: stop - index };
  }
}
