/**
 * What `/tree` draws: a title with the filter and the position, the keys, the search, and as many
 * rows as the terminal's height leaves, the selected one kept in view. Every line fits the
 * width; the text of entries and labels is made safe here (fit.ts), colours added after.
 */
import pc from "picocolors";
import { stringWidth } from "../../../util/width.ts";
import type { Theme, ThemeToken } from "../theme.ts";
import { fitParts, flatSafe, packItems, wrapParts, type Part } from "./fit.ts";
import type { TreeBrowser } from "./tree-browser.ts";
import { FILTER_NAMES, type TreeRow } from "./tree-rows.ts";

export interface ScreenSize {
  columns: number;
  rows: number;
}

/** The keys, as the help lines name them. */
export const TREE_KEYS = ["↑↓ move", "←→ page", "Ctrl+←→ branch", "Ctrl+O filter", "type to search", "Shift+L label", "Enter go", "Esc cancel"];
/** The keys while a label is written. */
const LABEL_KEYS = ["Enter saves the label", "empty removes it", "Esc leaves it as it was"];

const BAR = "│  ";
const HERE = " ← here";
/** Rows the selected entry may wrap onto, so that it can be read whole at a narrow width. */
const SELECTED_ROWS = 4;

/** Branch levels drawn in full at a width; deeper ones keep their last levels after an ellipsis. */
function prefixRoom(columns: number): number {
  return 3 * Math.max(1, Math.min(8, Math.floor((columns - 20) / 9)));
}

function capPrefix(prefix: string, room: number): string {
  return prefix.length > room ? `…${prefix.slice(-(room - 1))}` : prefix;
}

const KIND_TAGS: Partial<Record<TreeRow["kind"], [tag: string, token: ThemeToken]>> = {
  user: ["user: ", "accent"],
  assistant: ["assistant: ", "success"],
};

const TEXT_TOKENS: Partial<Record<TreeRow["kind"], ThemeToken>> = {
  tool: "muted",
  shell: "muted",
  summary: "warning",
  custom: "muted",
  internal: "dim",
  fold: "dim",
  other: "dim",
};

function rowParts(row: TreeRow, theme: Theme, selected: boolean): Part[] {
  const parts: Part[] = [];
  const strong = (text: string) => (selected ? theme.bold(text) : text);
  if (row.label !== undefined) parts.push({ text: `[${flatSafe(row.label)}] `, style: (t) => theme.fg("warning", t) });
  const tag = KIND_TAGS[row.kind];
  if (tag) parts.push({ text: tag[0], style: (t) => theme.fg(tag[1], t) });
  const token = row.failed ? "error" : TEXT_TOKENS[row.kind];
  const text = row.kind === "fold" ? `⋯ ${flatSafe(row.text)}` : flatSafe(row.text);
  parts.push({ text: row.failed && row.kind === "tool" ? `${text} ✗` : text, style: (t) => strong(token ? theme.fg(token, t) : t) });
  return parts;
}

/**
 * The lines of a row: one, cut to the width, or for the selected row as many as its text needs
 * (up to a few), so that it can be read whole at a narrow width.
 */
function drawRow(row: TreeRow, selected: boolean, here: boolean, columns: number, theme: Theme): string[] {
  const cursor = selected ? theme.fg("accent", "›") : " ";
  const prefix = capPrefix(row.prefix, prefixRoom(columns));
  // Under the row's own connector, the bar of its branch goes on (or nothing, for the last one).
  const under = prefix.replace(/├─ $/, "│  ").replace(/└─ $/, "   ");
  const marker = row.onActivePath ? theme.fg("accent", "•") : " ";
  const room = columns - (BAR.length + 2 + prefix.length + 2);
  const ellipsis = (t: string) => theme.fg("dim", t);
  const parts = rowParts(row, theme, selected);
  const content = selected ? wrapParts(parts, room, SELECTED_ROWS, ellipsis) : [fitParts(parts, room - (here ? HERE.length : 0), ellipsis)];
  if (here) {
    // Where you are is said after the text, on a line of its own when the last one is full.
    if (stringWidth(content.at(-1)!) + HERE.length <= room) content[content.length - 1] += theme.fg("dim", HERE);
    else content.push(theme.fg("dim", HERE.trim()));
  }
  return content.map((text, i) =>
    i === 0 ? `${pc.gray(BAR)}${cursor} ${theme.fg("dim", prefix)}${marker} ${text}` : `${pc.gray(BAR)}  ${theme.fg("dim", under)}  ${text}`,
  );
}

/** The first row of the window of `height` rows that keeps `selected` in view, near its middle. */
function windowStart(selected: number, count: number, height: number): number {
  return Math.max(0, Math.min(selected - Math.floor(height / 2), count - height));
}

/** The whole frame, one string of lines: as many as the screen has rows (the last is not ended). */
export function drawTree(browser: TreeBrowser, size: ScreenSize, theme: Theme): string {
  const columns = Math.max(20, size.columns);
  const room = columns - BAR.length;
  const rows = browser.rows;
  const position = rows.length > 0 ? `${browser.selected + 1}/${rows.length}` : "0/0";
  const title = fitParts([{ text: "Session tree", style: pc.bold }, { text: ` · ${FILTER_NAMES[browser.filter]} · ${position}` }], room);
  const draft = browser.labelDraft;
  const help = packItems(draft ? LABEL_KEYS : TREE_KEYS, room).map((line) => `${pc.gray(BAR)}${theme.fg("dim", line)}`);
  const typed = (what: string, text: string) => `${fitParts([{ text: what, style: (t) => theme.fg("accent", t) }, { text: flatSafe(text) }], room - 1)}█`;
  const search = draft ? typed("Label: ", draft.text) : browser.search ? typed("Search: ", browser.search) : theme.fg("dim", "Search: type to filter");
  const head = [`${pc.cyan("◆")}  ${title}`, ...help, `${pc.gray(BAR)}${search}`];
  const height = Math.max(1, size.rows - head.length - 1);
  const lines = [...head];
  if (rows.length === 0) {
    lines.push(`${pc.gray(BAR)}${theme.fg("dim", fitParts([{ text: browser.search ? "No entries match the search." : "No entries show with this filter." }], room))}`);
  }
  const draw = (index: number) => drawRow(rows[index]!, index === browser.selected, rows[index]!.id === browser.currentId, columns, theme);
  // The selected row may take several lines: the window holds fewer rows then.
  const selectedLines = rows.length > 0 ? draw(browser.selected).length : 1;
  const window = Math.max(1, height - (selectedLines - 1));
  const start = windowStart(browser.selected, rows.length, window);
  const shown = rows.slice(start, start + window);
  shown.forEach((_row, i) => lines.push(...draw(start + i)));
  // The frame keeps the screen's whole height, whatever shows: after a resize, when the terminal
  // may have re-wrapped it, everything on the screen is the frame's to draw again.
  while (lines.length < size.rows - 1) lines.push(pc.gray("│"));
  const above = start;
  const below = rows.length - start - shown.length;
  const more = [above > 0 ? `↑ ${above} more` : "", below > 0 ? `↓ ${below} more` : ""].filter(Boolean).join(" · ");
  lines.push(`${pc.gray("└")}  ${theme.fg("dim", more)}`.trimEnd());
  return lines.join("\n");
}
