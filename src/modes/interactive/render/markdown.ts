/**
 * Markdown for the terminal, rendered a line at a time as text streams in: headings, list
 * bullets (with a hanging indent), quotes, rules, fenced code inside its gutter, tables (aligned,
 * or row by row when too wide), links (text and URL, clickable through OSC 8 where the terminal
 * supports it), inline code, bold and italic. Everything wraps at word boundaries to the width
 * asked for when the line is printed, so lines after a resize fit the new width. A line is
 * printed once it is complete, so styling never has to be undone; until then the caller can
 * show `pending`, the line so far. Table rows are held until the table ends.
 */
import { stringWidth } from "../../../util/width.ts";
import type { Theme } from "../theme.ts";
import { LineSplitter } from "../../../util/line-splitter.ts";
import { isTableSeparator, tableAlignments, tableCells, type CellAlign } from "../../../util/markdown-table.ts";
import { printableLine } from "./terminal-text.ts";
import { hyperlink, wrapLine } from "./wrap.ts";

export interface MarkdownOptions {
  /** What precedes each line of code after the block's border (default two spaces). */
  codeBlockIndent?: string;
  /** Columns to fit, asked for every line (default: no wrapping). */
  width?: () => number;
  /** Links as OSC 8 hyperlinks (their URL is shown too). */
  hyperlinks?: boolean;
}

const UNBOUNDED = 1_000_000;

export class MarkdownStream {
  private readonly lines = new LineSplitter();
  private inFence = false;
  private fenceIndent = "";
  private table: string[] = [];
  private readonly codeIndent: string;
  private readonly width: () => number;
  private readonly links: boolean;

  constructor(
    private readonly theme: Theme,
    private readonly out: (text: string) => void,
    options: MarkdownOptions = {},
  ) {
    // The border takes the first column of the indent.
    this.codeIndent = (options.codeBlockIndent ?? "  ").slice(1);
    this.width = options.width ?? (() => UNBOUNDED);
    this.links = options.hyperlinks ?? false;
  }

  /** Adds streamed text; complete lines are rendered and printed. */
  push(text: string): void {
    for (const line of this.lines.push(text)) this.line(line);
  }

  /** The line still being written (not printed yet), as it would look plain. */
  get pending(): string {
    return this.lines.pending;
  }

  /** Ends the block: the last line is printed (with a newline) and fence state reset. */
  end(): void {
    const last = this.lines.take();
    if (last) this.line(last);
    this.flushTable();
    this.inFence = false;
  }

  private line(raw: string): void {
    const line = printableLine(raw);
    if (this.table.length > 0) {
      const continues = line.includes("|") && line.trim() !== "" && (this.table.length > 1 || isTableSeparator(line));
      if (continues) {
        this.table.push(line);
        return;
      }
      this.flushTable();
    }
    if (!this.inFence && /^\s{0,3}\|/.test(line)) {
      this.table.push(line);
      return;
    }
    this.out(`${this.renderLine(line).join("\n")}\n`);
  }

  private flushTable(): void {
    const rows = this.table;
    if (rows.length === 0) return;
    this.table = [];
    if (rows.length < 2 || !isTableSeparator(rows[1]!)) {
      for (const row of rows) this.out(`${this.renderLine(row).join("\n")}\n`);
      return;
    }
    this.out(`${renderTable(rows, this.theme, this.columns(), this.links).join("\n")}\n`);
  }

  private columns(): number {
    return Math.max(20, this.width());
  }

  /** One source line as the rows it takes on screen. */
  renderLine(line: string): string[] {
    const t = this.theme;
    const width = this.columns();
    const fence = /^(\s*)(```|~~~)\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      if (!this.inFence) {
        this.inFence = true;
        this.fenceIndent = fence[1]!;
        return [t.fg("mdCodeBlockBorder", `${fence[1]}┌─${fence[3] ? ` ${fence[3]} ` : ""}`)];
      }
      this.inFence = false;
      return [t.fg("mdCodeBlockBorder", `${fence[1]}└─`)];
    }
    if (this.inFence) {
      // Under its fence (a block inside a list item stays in the item); long code lines
      // continue on the next row, still inside the gutter.
      const gutter = `${this.fenceIndent}${t.fg("mdCodeBlockBorder", "│")}${this.codeIndent}`;
      const code = line.startsWith(this.fenceIndent) ? line.slice(this.fenceIndent.length) : line.trimStart();
      return wrapLine(code, width, { first: gutter, rest: gutter, verbatim: true }).map((row) =>
        row.startsWith(gutter) ? `${gutter}${t.fg("mdCodeBlock", row.slice(gutter.length))}` : row,
      );
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) return wrapLine(t.bold(t.fg("mdHeading", `${heading[1]} ${inline(heading[2]!, t, this.links)}`)), width);
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return [t.fg("mdHr", "─".repeat(Math.min(40, width)))];
    const quote = /^(\s*)>\s?(.*)$/.exec(line);
    if (quote) {
      const bar = `${quote[1]}${t.fg("mdQuoteBorder", "│ ")}`;
      return wrapLine(t.fg("mdQuote", inline(quote[2]!, t, this.links)), width, { first: bar, rest: bar });
    }
    const bullet = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (bullet) {
      const mark = /^\d/.test(bullet[2]!) ? bullet[2]! : "•";
      const first = `${bullet[1]}${t.fg("mdListBullet", mark)} `;
      return wrapLine(inline(bullet[3]!, t, this.links), width, { first, rest: " ".repeat(stringWidth(first)) });
    }
    // An indented line (a list item's continuation) keeps its indent on every row.
    return wrapLine(inline(line, t, this.links), width);
  }
}

const LINK = /\[([^\]\n]+)\]\(([^)\s]+)\)|<(https?:\/\/[^>\s]+)>|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

function renderLinks(text: string, t: Theme, links: boolean): string {
  return text.replace(LINK, (_, label: string | undefined, target: string | undefined, angled: string | undefined, bare: string | undefined) => {
    const url = (target ?? angled ?? bare)!;
    const shown = label ?? url;
    const linked = links ? hyperlink(t.fg("mdLink", shown), url) : t.fg("mdLink", shown);
    return label !== undefined && label !== url ? `${linked} ${t.fg("mdLinkUrl", `(${url})`)}` : linked;
  });
}

/** Inline code, links, bold and italic within one line (code spans are left as they are). */
export function inline(text: string, t: Theme, links = false): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part, i) => {
      if (i % 2 === 1) return t.color ? t.fg("mdCode", part.slice(1, -1)) : part;
      const linked = renderLinks(part, t, links);
      if (!t.color) return linked;
      return linked
        .replace(/\*\*([^*]+)\*\*/g, (_, bold: string) => t.bold(bold))
        .replace(/(^|[^*])\*([^*\s][^*]*)\*(?!\*)/g, (_, pre: string, it: string) => `${pre}${t.italic(it)}`);
    })
    .join("");
}

function pad(text: string, width: number, align: CellAlign): string {
  const room = Math.max(0, width - stringWidth(text));
  if (align === "right") return `${" ".repeat(room)}${text}`;
  if (align === "center") return `${" ".repeat(Math.floor(room / 2))}${text}${" ".repeat(Math.ceil(room / 2))}`;
  return `${text}${" ".repeat(room)}`;
}

/**
 * A table with its columns aligned inside box-drawing borders; when that is wider than
 * `width`, each row becomes a bullet of `header: value` lines instead, which wraps.
 */
export function renderTable(lines: readonly string[], t: Theme, width: number, links = false): string[] {
  const header = tableCells(lines[0]!).map((c) => inline(c, t, links));
  const aligns = tableAlignments(lines[1]!);
  const body = lines.slice(2).map((l) => tableCells(l).map((c) => inline(c, t, links)));
  const count = Math.max(header.length, ...body.map((r) => r.length));
  const cell = (row: string[], i: number) => row[i] ?? "";
  const widths = Array.from({ length: count }, (_, i) => Math.max(1, stringWidth(cell(header, i)), ...body.map((r) => stringWidth(cell(r, i)))));
  const total = widths.reduce((a, b) => a + b, 0) + 3 * count + 1;
  if (total <= width) {
    const b = (s: string) => t.fg("border", s);
    const rule = (left: string, mid: string, right: string) => b(`${left}${widths.map((w) => "─".repeat(w + 2)).join(mid)}${right}`);
    const row = (cells: string[], style: (s: string) => string) =>
      `${b("│")} ${widths.map((w, i) => style(pad(cell(cells, i), w, aligns[i] ?? "left"))).join(` ${b("│")} `)} ${b("│")}`;
    return [rule("┌", "┬", "┐"), row(header, (s) => t.bold(s)), rule("├", "┼", "┤"), ...body.map((r) => row(r, (s) => s)), rule("└", "┴", "┘")];
  }
  const mark = `${t.fg("mdListBullet", "•")} `;
  return body.flatMap((r) =>
    Array.from({ length: count }, (_, i) => i).flatMap((i) =>
      wrapLine(`${t.bold(`${header[i] ?? `column ${i + 1}`}:`)} ${cell(r, i)}`, width, { first: i === 0 ? mark : "  ", rest: "    " }),
    ),
  );
}
