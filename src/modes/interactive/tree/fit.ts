/**
 * Fitting the tree's lines to the terminal's width: text made safe and flat (one line), cut at a
 * word boundary with an ellipsis or wrapped at word boundaries, and coloured part by part after
 * the cut, so a colour never spills past the end of its part and a cut never splits an escape
 * sequence.
 */
import { terminalSafe } from "../../../util/terminal-safe.ts";
import { graphemes, graphemeWidth, stringWidth } from "../../../util/width.ts";

/** Text from the session (or typed) as one line the terminal shows, never obeys. */
export function flatSafe(text: string): string {
  return terminalSafe(text, { tabs: "show" }).replace(/\s+/g, " ").trim();
}

/** A part of a line and how it is coloured. */
export interface Part {
  text: string;
  style?: (text: string) => string;
}

const ELLIPSIS = "…";

/**
 * How many characters of `plain` (flat text) go on a row of `room` columns: up to the last space
 * when it leaves at least half of what fits, else as many as fit.
 */
function rowLength(plain: string, room: number): number {
  let used = 0;
  let length = 0;
  for (const grapheme of graphemes(plain)) {
    const width = graphemeWidth(grapheme);
    if (used + width > room) break;
    used += width;
    length += grapheme.length;
  }
  // A row narrower than the first character still takes it: the text always moves on.
  if (length === 0) return graphemes(plain)[0]?.length ?? plain.length;
  const space = plain.lastIndexOf(" ", length);
  const cut = space > 0 && space >= length / 2 ? space : length;
  return plain.slice(0, cut).trimEnd().length;
}

/** The characters `start` to `end` of the parts' joined text, each piece in its part's colour. */
function paintRange(parts: readonly Part[], start: number, end: number): string {
  let line = "";
  let offset = 0;
  for (const part of parts) {
    const from = Math.max(start - offset, 0);
    const to = Math.min(end - offset, part.text.length);
    if (to > from) {
      const text = part.text.slice(from, to);
      line += part.style ? part.style(text) : text;
    }
    offset += part.text.length;
  }
  return line;
}

/**
 * The parts (already flat and safe) on at most `maxRows` rows of `room` columns, broken at word
 * boundaries; what does not fit ends the last row with an ellipsis in `ellipsisStyle`.
 */
export function wrapParts(parts: readonly Part[], room: number, maxRows: number, ellipsisStyle: (text: string) => string = (t) => t): string[] {
  const plain = parts.map((p) => p.text).join("");
  const rows: string[] = [];
  let start = 0;
  while (start < plain.length && room > 0) {
    const rest = plain.slice(start);
    if (stringWidth(rest) <= room) {
      rows.push(paintRange(parts, start, plain.length));
      break;
    }
    if (rows.length === maxRows - 1) {
      rows.push(`${paintRange(parts, start, start + rowLength(rest, room - 1))}${ellipsisStyle(ELLIPSIS)}`);
      break;
    }
    const length = rowLength(rest, room);
    rows.push(paintRange(parts, start, start + length));
    start += length;
    while (plain[start] === " ") start++;
  }
  return rows.length > 0 ? rows : [""];
}

/** The parts (already flat and safe) as one row of at most `room` columns, cut with an ellipsis. */
export function fitParts(parts: readonly Part[], room: number, ellipsisStyle: (text: string) => string = (t) => t): string {
  return wrapParts(parts, room, 1, ellipsisStyle)[0]!;
}

/**
 * Items (short phrases, flat and safe) joined by `separator` into lines of at most `room`
 * columns, an item never split unless it is wider than a line on its own.
 */
export function packItems(items: readonly string[], room: number, separator = " · "): string[] {
  const lines: string[] = [];
  let line = "";
  for (const item of items) {
    const candidate = line ? `${line}${separator}${item}` : item;
    if (stringWidth(candidate) <= room || !line) {
      line = candidate;
      continue;
    }
    lines.push(line);
    line = item;
  }
  if (line) lines.push(line);
  return lines.map((l) => (stringWidth(l) > room ? fitParts([{ text: l }], room) : l));
}
