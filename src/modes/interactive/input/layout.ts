/**
 * The prompt area as rows of text, computed without a terminal: status lines (truncated, one row
 * each), the input buffer wrapped to the width behind a `›` marker (continuation rows indented
 * to match), and an optional completion list below. Also where the cursor goes. The area never
 * gets taller than the screen, because rows scrolled off the top could not be erased any more.
 */
import { bufferGlyph, graphemesWithOffsets, stringWidth, truncateToWidth } from "../../../util/width.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";

export interface MenuView {
  items: readonly { label: string; hint?: string }[];
  selected: number;
  /** Rows shown at once (default MENU_ROWS). */
  rows?: number;
}

export interface PromptView {
  text: string;
  cursor: number;
  status: readonly string[];
  menu?: MenuView;
  /** Lines below the input and its menu (extension widgets and statuses); [] or absent for none. */
  footer?: readonly string[];
}

export interface LayoutStyle {
  /** Before the first input row, e.g. "› " (may contain colour codes). */
  marker: string;
  /** Before the other input rows; the same width as the marker. */
  indent: string;
  /** Styling of the selected menu item and of hints (identity when colours are off). */
  selected: (text: string) => string;
  hint: (text: string) => string;
}

export interface Layout {
  lines: string[];
  cursorRow: number;
  cursorCol: number;
}

/** At most this many completion items are listed at once. */
export const MENU_ROWS = 8;

export const PLAIN_STYLE: LayoutStyle = { marker: "› ", indent: "  ", selected: (text) => text, hint: (text) => text };

interface InputRows {
  rows: string[];
  cursorRow: number;
  cursorCol: number;
}

interface Cell {
  text: string;
  width: number;
  /** UTF-16 offset in the buffer. */
  offset: number;
}

/** One buffer line's graphemes broken into rows of at most `width` columns, after a space where one fits. */
function breakRows(cells: Cell[], width: number): Cell[][] {
  const rows: Cell[][] = [];
  let row: Cell[] = [];
  let used = 0;
  for (const cell of cells) {
    if (used > 0 && used + cell.width > width && cell.text === " ") {
      // A space that does not fit hangs past the end of its row (not drawn) instead of starting the next.
      row.push(cell);
      rows.push(row);
      row = [];
      used = 0;
      continue;
    }
    if (used > 0 && used + cell.width > width) {
      // A word that does not fit moves whole to the next row (a word wider than a row is cut).
      const space = row.findLastIndex((c) => c.text === " ");
      const carried = space > 0 ? row.splice(space + 1) : [];
      rows.push(row);
      row = carried;
      used = carried.reduce((sum, c) => sum + c.width, 0);
    }
    row.push(cell);
    used += cell.width;
  }
  rows.push(row);
  return rows;
}

/** The buffer split into rows of at most `width` columns (at word boundaries), and the cursor's row and column. */
export function wrapInput(text: string, cursor: number, width: number): InputRows {
  const rows: string[] = [];
  let cursorRow = 0;
  let cursorCol = 0;
  let lineStart = 0;
  for (const line of text.split("\n")) {
    const cells = graphemesWithOffsets(line).map((g) => ({ ...bufferGlyph(g.text), offset: lineStart + g.index }));
    const lineRows = breakRows(cells, width);
    lineRows.forEach((row, i) => {
      let used = 0;
      for (const cell of row) {
        if (cell.offset === cursor) {
          // On a space that hangs past the row's end: shown at the start of the next row (a
          // cursor in the last column plus one would not be where the terminal puts it).
          const hanging = used >= width;
          cursorRow = hanging ? rows.length + 1 : rows.length;
          cursorCol = hanging ? 0 : used;
        }
        used += cell.width;
      }
      let drawn = 0;
      rows.push(
        row
          .filter((c) => (drawn += c.width) <= width)
          .map((c) => c.text)
          .join(""),
      );
      if (i === lineRows.length - 1 && lineStart + line.length === cursor) {
        // A cursor after a full row is shown at the start of the next one.
        if (used >= width) {
          rows.push("");
          used = 0;
        }
        cursorRow = rows.length - 1;
        cursorCol = used;
      }
    });
    lineStart += line.length + 1;
  }
  return { rows, cursorRow, cursorCol };
}

function menuLines(menu: MenuView, columns: number, style: LayoutStyle, limit: number): string[] {
  const count = Math.min(menu.items.length, menu.rows ?? MENU_ROWS, limit);
  if (count <= 0) return [];
  const first = Math.max(0, Math.min(menu.selected - count + 1, menu.items.length - count));
  // Hints start in one column: after the widest label that has one (at most half the width).
  const labelWidth = Math.min(Math.floor(columns / 2), Math.max(0, ...menu.items.filter((item) => item.hint).map((item) => stringWidth(item.label))));
  const lines: string[] = [];
  for (let i = first; i < first + count; i++) {
    const listed = menu.items[i];
    if (!listed) continue;
    // Names and descriptions come from files and extensions.
    const item = { label: terminalSafe(listed.label, { tabs: "show" }), hint: listed.hint === undefined ? undefined : terminalSafe(listed.hint, { tabs: "show" }) };
    const chosen = i === menu.selected;
    const label = item.hint ? item.label + " ".repeat(Math.max(0, labelWidth - stringWidth(item.label))) : item.label;
    let line = `${chosen ? "▸ " : "  "}${label}`;
    const room = columns - stringWidth(line) - 2;
    if (item.hint && room > 3) line += `  ${style.hint(truncateToWidth(item.hint, room))}`;
    line = truncateToWidth(line, columns);
    lines.push(chosen ? style.selected(line) : line);
  }
  if (menu.items.length > count && lines.length > 0) {
    // Say where in a longer list we are, on the last row of the list.
    const tag = ` ${menu.selected + 1}/${menu.items.length}`;
    const last = lines.length - 1;
    const body = truncateToWidth(lines[last] as string, Math.max(0, columns - tag.length));
    lines[last] = `${body}${style.hint(tag)}`;
  }
  return lines;
}

/** The rows to draw for `view` on a `columns` × `rows` screen. */
export function layoutPrompt(view: PromptView, columns: number, rows: number, style: LayoutStyle = PLAIN_STYLE): Layout {
  const width = Math.max(1, columns);
  const maxRows = Math.max(1, rows - 1);
  const markerWidth = stringWidth(style.marker);
  const input = wrapInput(view.text, view.cursor, Math.max(1, width - markerWidth));
  // Status and footer lines are pig's, styled, with text from extensions and models in them.
  const statusRows = view.status.flatMap((line) => terminalSafe(line, { styled: true, tabs: "show" }).split("\n"));
  const status = statusRows.slice(Math.max(0, statusRows.length - (maxRows - 1))).map((line) => truncateToWidth(line, width));
  const menu = view.menu ? menuLines(view.menu, width, style, maxRows - status.length - 1) : [];
  // The footer gives way to the input and its menu when the screen is short.
  const footerRows = (view.footer ?? []).flatMap((line) => terminalSafe(line, { styled: true, tabs: "show" }).split("\n"));
  const footer = footerRows.slice(0, Math.max(0, maxRows - status.length - menu.length - 1)).map((line) => truncateToWidth(line, width));
  const inputBudget = Math.max(1, maxRows - status.length - menu.length - footer.length);
  // Show the rows around the cursor when the buffer is taller than the room left.
  const firstRow = input.cursorRow < inputBudget ? 0 : input.cursorRow - inputBudget + 1;
  const shown = input.rows.slice(firstRow, firstRow + inputBudget);
  const inputLines = shown.map((row, i) => `${firstRow + i === 0 ? style.marker : style.indent}${row}`);
  return {
    lines: [...status, ...inputLines, ...menu, ...footer],
    cursorRow: status.length + input.cursorRow - firstRow,
    cursorCol: markerWidth + input.cursorCol,
  };
}
