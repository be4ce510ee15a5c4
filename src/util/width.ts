/**
 * Display widths in terminal columns: grapheme clusters (so an emoji with modifiers or a letter
 * with a combining accent moves the cursor as one unit), wide characters (CJK, emoji take two
 * columns), ANSI escape sequences (zero columns) and how a terminal advances its cursor through
 * printed text, which is what lets the prompt be redrawn below a partial output line.
 */

import { visibleControl } from "./terminal-safe.ts";

// Made on first use: constructing a Segmenter loads ICU's break rules (several ms), which a run
// that never measures text (pig -p) should not pay at load.
let segmenter: Intl.Segmenter | undefined;
const graphemeSegmenter = (): Intl.Segmenter => (segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" }));

/** Columns a tab occupies inside the input buffer (a fixed width keeps wrapping predictable). */
export const BUFFER_TAB_WIDTH = 4;

// Blocks where no character joins the one before it (Unicode's grapheme rules, UAX #29: they
// hold letters, symbols and controls, no combining marks, joiners, prepended characters or
// Hangul jamo): ASCII to the spacing modifier letters (below U+0300's combining marks), Greek
// and Cyrillic (without Cyrillic's combining marks), the general punctuation before the
// zero-width and bidi controls and after them, arrows to the technical symbols, and box drawing
// to the dingbats. Text made of them (Latin, Greek and Cyrillic scripts, a code block's frame,
// bullets and dashes) is taken apart a UTF-16 unit at a time, every unit a grapheme but for CR
// before LF, without the Segmenter: its break rules cost several ms to load, and it is slower
// per character. test/interactive/input/width.test.ts holds every character of them against it.
export const ONE_UNIT_GRAPHEMES = /^[\x00-\u02ff\u0370-\u0482\u048a-\u052f\u2010-\u2027\u2030-\u205e\u2190-\u23ff\u2500-\u27bf]*$/;

/** Whether every UTF-16 unit of `text` is a grapheme of its own (see above). */
function unitsAreGraphemes(text: string): boolean {
  return ONE_UNIT_GRAPHEMES.test(text) && !text.includes("\r\n");
}

/** The grapheme clusters of `text`, in order. */
export function graphemes(text: string): string[] {
  if (unitsAreGraphemes(text)) return text.split("");
  const out: string[] = [];
  for (const { segment } of graphemeSegmenter().segment(text)) out.push(segment);
  return out;
}

/** Grapheme clusters with their UTF-16 offsets, for mapping a cursor offset to a column. */
export function graphemesWithOffsets(text: string): { text: string; index: number }[] {
  const out: { text: string; index: number }[] = [];
  if (unitsAreGraphemes(text)) {
    for (let index = 0; index < text.length; index++) out.push({ text: text[index]!, index });
    return out;
  }
  for (const { segment, index } of graphemeSegmenter().segment(text)) out.push({ text: segment, index });
  return out;
}

/** Columns one grapheme cluster takes when printed (Bun measures East Asian width and emoji). */
export function graphemeWidth(grapheme: string): number {
  const code = grapheme.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return 0;
  return Math.min(2, Bun.stringWidth(grapheme));
}

// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and two-character escapes (ESC x).
export const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

// Printable ASCII: one column a character, each its own grapheme. Most of what a stream prints
// is, and segmenting it into graphemes was the largest cost of measuring it.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Any ASCII: every character is its own grapheme ("\r\n" is one, and moves the cursor as "\r" then "\n" do).
const ASCII = /^[\x00-\x7f]*$/;

/** Columns `text` takes on one row, escape sequences ignored. */
export function stringWidth(text: string): number {
  const plain = stripAnsi(text);
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  let width = 0;
  for (const g of graphemes(plain)) width += graphemeWidth(g);
  return width;
}

/**
 * How a grapheme of the input buffer is shown: tabs as spaces, other C0 controls in caret
 * notation, C1 and bidi controls as their `\u` escape (terminal-safe.ts).
 */
export function bufferGlyph(grapheme: string): { text: string; width: number } {
  if (grapheme === "\t") return { text: " ".repeat(BUFFER_TAB_WIDTH), width: BUFFER_TAB_WIDTH };
  const code = grapheme.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) {
    const caret = `^${String.fromCharCode(code === 0x7f ? 0x3f : code + 0x40)}`;
    return { text: caret, width: 2 };
  }
  if (BUFFER_HIDDEN.test(grapheme)) {
    const text = visibleControl(grapheme);
    return { text, width: text.length };
  }
  return { text: grapheme, width: graphemeWidth(grapheme) };
}

// C1 controls and bidi controls: they would act on the terminal or reorder the row.
const BUFFER_HIDDEN = /^[\x80-\x9f\u202a-\u202e\u2066-\u2069]$/;

/** Columns `text` (one line of the input buffer) takes as shown by `bufferGlyph`. */
export function bufferWidth(text: string): number {
  let width = 0;
  for (const g of graphemes(text)) width += bufferGlyph(g).width;
  return width;
}

/**
 * `text` cut to at most `width` columns, escape sequences kept (a style reset is appended when
 * something was cut so a colour does not leak into what follows), `ellipsis` marking the cut.
 */
export function truncateToWidth(text: string, width: number, ellipsis = "…"): string {
  if (stringWidth(text) <= width) return text;
  const room = Math.max(0, width - stringWidth(ellipsis));
  let out = "";
  let used = 0;
  let sawEscape = false;
  let last = 0;
  const append = (plain: string): boolean => {
    for (const g of graphemes(plain)) {
      const w = graphemeWidth(g);
      if (used + w > room) return false;
      out += g;
      used += w;
    }
    return true;
  };
  for (const match of text.matchAll(ANSI)) {
    if (!append(text.slice(last, match.index))) return finish();
    out += match[0];
    sawEscape = true;
    last = match.index + match[0].length;
  }
  append(text.slice(last));
  return finish();

  function finish(): string {
    return `${out}${sawEscape ? "\x1b[0m" : ""}${width > 0 ? ellipsis.slice(0, width) : ""}`;
  }
}

/**
 * The cursor column after a terminal prints `text` starting at `column` on a screen `columns`
 * wide, following xterm's rules: a character that does not fit wraps to the next row (a wide
 * one at the last column too), and filling the last column leaves the cursor *pending* at
 * `columns` rather than on the next row. Escape sequences are assumed not to move the cursor.
 */
export function advanceColumn(column: number, text: string, columns: number): number {
  return advanceCursor({ row: 0, column }, text, columns).column;
}

/**
 * Where the cursor goes (rows down from where it was, and its column) when a terminal prints
 * `text`, by the same rules; a newline goes to the next row's start (the terminal's output
 * processing turns "\n" into "\r\n"), a carriage return to the row's start.
 */
export function advanceCursor(at: { row: number; column: number }, text: string, columns: number): { row: number; column: number } {
  let { row, column: col } = at;
  const plain = stripAnsi(text);
  for (const g of ASCII.test(plain) ? plain : graphemes(plain)) {
    if (g === "\n" || g === "\r\n") {
      row++;
      col = 0;
    } else if (g === "\r") col = 0;
    else if (g === "\t") col = Math.min(columns - 1, (Math.floor(col / 8) + 1) * 8);
    else if (g === "\b") col = Math.max(0, Math.min(col, columns - 1) - 1);
    else {
      const w = g.length === 1 && g >= " " && g < "\x7f" ? 1 : graphemeWidth(g);
      if (w === 0) continue;
      if (col + w > columns) {
        row++;
        col = w;
      } else col += w;
    }
  }
  return { row, column: col };
}
