/**
 * The parts of a Markdown (GFM) table both renderers need: a row's cells (escaped pipes kept as
 * text), whether a line is the separator under the header, and each column's alignment.
 */

export type CellAlign = "left" | "center" | "right";

const SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

export function isTableSeparator(line: string): boolean {
  return line.includes("-") && SEPARATOR.test(line);
}

/** A row's cells, trimmed, the outer pipes dropped and `\|` read as a pipe. */
export function tableCells(line: string): string[] {
  const cells = line.trim().replace(/^\|/, "").replace(/(?<!\\)\|$/, "").split(/(?<!\\)\|/);
  return cells.map((c) => c.trim().replace(/\\\|/g, "|"));
}

/** Each column's alignment from the separator row (`:--` left, `:-:` center, `--:` right). */
export function tableAlignments(separator: string): CellAlign[] {
  return tableCells(separator).map((c) => (c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : "left"));
}
