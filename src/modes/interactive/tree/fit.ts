/**
 * Fitting the tree's lines to the terminal's width: text made safe and flat (one line), cut at a
 * word boundary with an ellipsis, and coloured part by part after the cut, so a colour never
 * spills past the end of its part and the cut never splits an escape sequence.
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
 * How many characters of `plain` (flat text) fit in `room` columns with the ellipsis after them:
 * up to the last space when it leaves at least half of what fits, else as many as fit.
 */
function keptLength(plain: string, room: number): number {
  let used = 0;
  let length = 0;
  for (const grapheme of graphemes(plain)) {
    const width = graphemeWidth(grapheme);
    if (used + width > room - 1) break;
    used += width;
    length += grapheme.length;
  }
  const space = plain.lastIndexOf(" ", length);
  const cut = space > 0 && space >= length / 2 ? space : length;
  return plain.slice(0, cut).trimEnd().length;
}

/**
 * The parts (already flat and safe) as one line of at most `room` columns: whole when they fit,
 * else cut at a word boundary and ended by an ellipsis in `ellipsisStyle`.
 */
export function fitParts(parts: readonly Part[], room: number, ellipsisStyle: (text: string) => string = (t) => t): string {
  const plain = parts.map((p) => p.text).join("");
  const paint = (part: Part, text: string) => (text && part.style ? part.style(text) : text);
  if (stringWidth(plain) <= room) return parts.map((p) => paint(p, p.text)).join("");
  if (room <= 0) return "";
  let left = keptLength(plain, room);
  let line = "";
  for (const part of parts) {
    if (left <= 0) break;
    const kept = part.text.slice(0, left);
    line += paint(part, kept);
    left -= kept.length;
  }
  return `${line}${ellipsisStyle(ELLIPSIS)}`;
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
