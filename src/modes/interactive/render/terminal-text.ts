/**
 * Text from a model or a program made fit to lay out in rows: line ends as `\n` only, a line's
 * carriage returns resolved to what was written last (a progress bar shows its final state),
 * tabs expanded to the next multiple of four columns, escape codes that move the cursor or
 * clear the screen dropped (colours and OSC 8 links kept), other control characters dropped,
 * and accents composed with their letters (so no break falls between them).
 */

import { ANSI, stringWidth } from "../../../util/width.ts";

const TAB = 4;
// Of the escape sequences, colour/style (SGR) and OSC 8 hyperlinks are kept; a lone escape
// character goes with the other controls.
const KEPT = /^(?:\x1b\[[0-9;:]*m|\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\))$/;
// C0 controls but tab and newline, and DEL.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  let column = 0;
  for (const part of line.split(/(\t|\x1b\[[0-9;:]*m|\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\))/)) {
    if (part === "\t") {
      const pad = TAB - (column % TAB);
      out += " ".repeat(pad);
      column += pad;
    } else {
      out += part;
      if (!part.startsWith("\x1b")) column += stringWidth(part);
    }
  }
  return out;
}

/** One line (no `\n`) made printable. */
export function printableLine(line: string): string {
  let text = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (text.includes("\r")) text = text.slice(text.lastIndexOf("\r") + 1);
  // Escape sequences are kept or dropped whole; controls are dropped only from the text between them.
  let out = "";
  let last = 0;
  for (const match of text.matchAll(ANSI)) {
    out += plain(text.slice(last, match.index));
    if (KEPT.test(match[0])) out += match[0];
    last = match.index + match[0].length;
  }
  out += plain(text.slice(last));
  return expandTabs(out).normalize("NFC");
}

function plain(text: string): string {
  return text.replace(/[\u2028\u2029]/g, " ").replace(CONTROL, "");
}

/** Text of several lines made printable, line by line. */
export function printable(text: string): string {
  return text.split("\n").map(printableLine).join("\n");
}
