/**
 * Text from outside pig (a model, a program, a file, an extension) made fit to lay out in rows:
 * made safe first (util/terminal-safe.ts: escape sequences and controls shown, never obeyed),
 * line ends as `\n` only, tabs expanded to the next multiple of four columns, line and paragraph
 * separators as spaces, and accents composed with their letters (so no break falls between
 * them). pig styles the result afterwards; `styledLine` is the same fitting for text pig has
 * styled, which keeps pig's own colours and links.
 */

import { stringWidth } from "../../../util/width.ts";
import { STYLE, terminalSafe } from "../../../util/terminal-safe.ts";

const TAB = 4;
// Tabs and pig's own styling (which takes no columns), each a part of its own; the text is
// terminal-safe already, so STYLE matches every escape sequence left in it.
const TAB_OR_STYLE = new RegExp(`(\t|${STYLE.source.slice(1, -1)})`);

function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  let column = 0;
  for (const part of line.split(TAB_OR_STYLE)) {
    if (part === "\t") {
      const pad = TAB - (column % TAB);
      out += " ".repeat(pad);
      column += pad;
    } else {
      out += part;
      if (!STYLE.test(part)) column += stringWidth(part);
    }
  }
  return out;
}

function fit(text: string): string {
  return expandTabs(text.replace(/[\u2028\u2029]/g, " ")).normalize("NFC");
}

/** One line (no `\n`) of outside text made printable; a CR that ends it is its line end. */
export function printableLine(line: string): string {
  return fit(terminalSafe(line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** Text of several lines made printable, line by line. */
export function printable(text: string): string {
  return text.split("\n").map(printableLine).join("\n");
}

// A program's colours and links, which pig leaves out of its output rather than show.
const PROGRAM_STYLE = /\x1b\[[0-9;:]*m|\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)/g;

/**
 * One line a command printed: its carriage returns resolved to what was written last (a progress
 * bar shows its final state; no CR reaches the terminal), its colours and links left out, and
 * the rest made printable as any outside text.
 */
export function commandOutputLine(line: string): string {
  let text = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (text.includes("\r")) text = text.slice(text.lastIndexOf("\r") + 1);
  return printableLine(text.replace(PROGRAM_STYLE, ""));
}

/** A command's output of several lines, line by line. */
export function commandOutput(text: string): string {
  return text.split("\n").map(commandOutputLine).join("\n");
}

/** One line pig has styled, fitted the same way: pig's colours and links stay, anything else is shown. */
export function styledLine(line: string): string {
  return fit(terminalSafe(line, { styled: true }));
}
