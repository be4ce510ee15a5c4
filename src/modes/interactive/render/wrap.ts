/**
 * Fitting printed text to the terminal: word wrapping with a prefix on the first row and a
 * (hanging) prefix on the rest, escape sequences and hyperlinks kept, widths measured in
 * terminal columns (graphemes, East Asian width, emoji) by Bun's ANSI-aware wrapper.
 */
import { ANSI, graphemes, stringWidth, stripAnsi } from "../../../util/width.ts";
import { styledLine } from "./terminal-text.ts";

export interface WrapOptions {
  /** Before the first row (may contain colour codes). */
  first?: string;
  /** Before every other row; defaults to spaces as wide as `first` (a hanging indent). */
  rest?: string;
  /** Code and program output: break anywhere, keep every space (no trimming at the breaks). */
  verbatim?: boolean;
  /**
   * The start of the line that the rows after the first are indented past, matched on its
   * visible text: a diff line's sign and number, a table row's label column. Kept while at
   * least `MIN_HANGING_ROOM` columns stay for the text; a row that continues the line then
   * cannot be read as a line of its own.
   */
  hangAfter?: RegExp;
}

/** Columns of text a hanging indent must leave on each row (a key's description in `/hotkeys` at 40 columns). */
const MIN_HANGING_ROOM = 16;

/**
 * `text` (one logical line, outside text in it already made printable: terminal-text.ts) as
 * rows of at most `width` columns, prefixes included, broken at spaces; a word wider than a row
 * breaks after a `/` (a path) where it can (then after a `-` or `_`), else where the row ends,
 * except a URL, which is left whole for the terminal to wrap. Outside verbatim
 * text, the line's own indent is kept on every row (under the prefix), as long as it leaves half
 * the row for text; `hangAfter` indents the rows after the first further.
 */
export function wrapLine(text: string, width: number, options: WrapOptions = {}): string[] {
  const clean = styledLine(text);
  let first = options.first ?? "";
  let rest = options.rest ?? " ".repeat(stringWidth(first));
  let body = clean;
  const prefix = Math.max(stringWidth(first), stringWidth(rest));
  const lead = leadOf(stripAnsi(clean), options);
  const leadWidth = stringWidth(lead ?? "");
  const fits = options.hangAfter && lead !== undefined ? width - prefix - leadWidth >= MIN_HANGING_ROOM : prefix + leadWidth < width / 2;
  if (lead && fits) {
    const [head, tail] = splitAtColumn(clean, leadWidth);
    first += head;
    rest += " ".repeat(leadWidth);
    body = tail;
  }
  const room = Math.max(1, width - Math.max(stringWidth(first), stringWidth(rest)));
  if (stripAnsi(body) === "") return [`${first}${body}`];
  const rows = options.verbatim
    ? Bun.wrapAnsi(body, room, { hard: true, trim: false, wordWrap: false }).split("\n")
    : // Not hard: the only words left wider than a row are URLs (see breaksInLongWords).
      Bun.wrapAnsi(breaksInLongWords(body, room), room, { hard: false, trim: true })
        .split("\n")
        .map((row) => row.replaceAll(`${BREAK} `, "").replaceAll(BREAK, ""));
  return rows.map((row, i) => `${i === 0 ? first : rest}${row}`);
}

/**
 * A table row's label column: its label, then a gap of two spaces or more before the value
 * (`File:       /tmp/…`, `Ctrl+C                clear the editor…`).
 */
export const LABEL_COLUMN = /^ *\S(?:.*?\S)? {2,}(?=\S)/;

/**
 * pig's own text (notices, `/session`, `/help`, `/hotkeys`, the start-up header) fitted to the
 * terminal: a line wider than `width` wraps as `wrapLine` wraps it. A table row (`table`, the
 * default) continues under its value column, or, when that leaves too little room, has its
 * value on the rows under its label, indented. Other lines continue under their indent. Lines
 * that fit are left as they are.
 */
export function wrapOwnText(text: string, width: number, options: { table?: boolean } = {}): string {
  const table = options.table ?? true;
  return text
    .split("\n")
    .map((line) => (stringWidth(line) <= width ? line : (table ? tableRowRows(line, width) : wrapLine(line, width)).join("\n")))
    .join("\n");
}

/** Columns a value under its label is indented by, past the label's own indent. */
const VALUE_INDENT = 4;

function tableRowRows(line: string, width: number): string[] {
  const label = LABEL_COLUMN.exec(stripAnsi(line))?.[0];
  if (!label || width - stringWidth(label) >= MIN_HANGING_ROOM) return wrapLine(line, width, { hangAfter: LABEL_COLUMN });
  const [head, value] = splitAtColumn(line, stringWidth(label));
  const indent = " ".repeat(/^ */.exec(label)![0].length + VALUE_INDENT);
  return [...wrapLine(head, width), ...wrapLine(value, width, { first: indent, rest: indent })];
}

/** What the rows after the first hang past: `hangAfter`'s match, else (outside verbatim text) the line's indent. */
function leadOf(plain: string, options: WrapOptions): string | undefined {
  const hang = options.hangAfter?.exec(plain)?.[0];
  // The text's own indent after the match goes with it (a diff line's code keeps its indent).
  if (hang) return `${hang}${/^ */.exec(plain.slice(hang.length))![0]}`;
  if (options.verbatim) return undefined;
  return /^ */.exec(plain)![0] || undefined;
}

// OSC 8 opens a link with a target and closes it with an empty one.
const LINK = /^\x1b\]8;[^;]*;([^\x07\x1b]*)/;
const LINK_CLOSE = "\x1b]8;;\x07";

/**
 * `styled` cut after `columns` visible columns: the head ends its styles and link, and the tail
 * starts with them again, so each part shows as it did in the whole.
 */
function splitAtColumn(styled: string, columns: number): [string, string] {
  let used = 0;
  let index = 0;
  const styles: string[] = [];
  let link: string | undefined;
  for (const match of styled.matchAll(new RegExp(`${ANSI.source}|[^\\x1b]+`, "g"))) {
    const part = match[0];
    if (part.startsWith("\x1b")) {
      const target = LINK.exec(part);
      if (target) link = target[1] ? part : undefined;
      else styles.push(part);
      index = match.index + part.length;
      continue;
    }
    const cut = cutAt(part, columns - used);
    used += stringWidth(part.slice(0, cut));
    index = match.index + cut;
    if (cut < part.length) break;
  }
  const head = `${styled.slice(0, index)}${styles.length > 0 ? "\x1b[0m" : ""}${link ? LINK_CLOSE : ""}`;
  return [head, `${styles.join("")}${link ?? ""}${styled.slice(index)}`];
}

/** How many UTF-16 units of `plain` fill at most `columns` columns, whole graphemes only. */
function cutAt(plain: string, columns: number): number {
  let used = 0;
  let index = 0;
  for (const g of graphemes(plain)) {
    const w = stringWidth(g);
    if (used + w > columns) break;
    used += w;
    index += g.length;
  }
  return index;
}

/**
 * Marks a break opportunity inside a word. A C0 control cannot occur in fitted text (every one is
 * shown as a glyph: terminal-text.ts), and the wrapper counts it as no column.
 */
const BREAK = "\x01";

/**
 * Words wider than `room` with a break opportunity (`BREAK` and a space, taken out after
 * wrapping) after each `/`, so a long path breaks between its parts rather than anywhere; a part
 * still wider than a row (a long file name) also after its `-` and `_`, and at the row's width
 * when nothing else serves. (Each opportunity left inside a row costs that row a column.) A URL
 * is not broken: the terminal wraps it, so that it is copied and opened whole. Escape sequences
 * (a link's target) are not looked into.
 */
function breaksInLongWords(body: string, room: number): string {
  return body.replace(/\S+/g, (word) => {
    if (stringWidth(word) <= room || URL_START.test(stripAnsi(word))) return word;
    const parts = (word.match(new RegExp(`${ANSI.source}|[^/\\x1b]*/|[^/\\x1b]+`, "g")) ?? [])
      .flatMap((part) => (isEscape(part) || stringWidth(part) <= room ? [part] : (part.match(/[^_-]*[_-]+|[^_-]+/g) ?? [part])))
      .flatMap((part) => (isEscape(part) ? [part] : piecesOf(part, room)));
    // Between two parts, unless only escape sequences or nothing follow.
    return parts.map((part, i) => (!isEscape(part) && parts.slice(i + 1).some((p) => !isEscape(p)) ? `${part}${BREAK} ` : part)).join("");
  });
}

/** A word that is (or starts with) a URL: `https://…`, `file:///…`. */
const URL_START = /^\W*[a-z][a-z0-9+.-]*:\/\//i;

function isEscape(part: string): boolean {
  return part.startsWith("\x1b");
}

/** `plain` cut into pieces of at most `room` columns (whole graphemes). */
function piecesOf(plain: string, room: number): string[] {
  const pieces: string[] = [];
  let rest = plain;
  while (stringWidth(rest) > room) {
    const cut = Math.max(1, cutAt(rest, room));
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return [...pieces, rest];
}

/**
 * Whether the terminal shows OSC 8 hyperlinks: known terminals by their environment, and
 * `FORCE_HYPERLINK=1|0` to say so either way.
 */
export function supportsHyperlinks(env: Record<string, string | undefined> = process.env): boolean {
  const forced = env.FORCE_HYPERLINK;
  if (forced !== undefined && forced !== "") return forced !== "0" && forced !== "false";
  if (env.CI || env.TERM === "dumb") return false;
  const program = env.TERM_PROGRAM ?? "";
  if (["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "Tabby", "rio"].includes(program)) return true;
  if (env.KITTY_WINDOW_ID || env.WT_SESSION || env.KONSOLE_VERSION || env.ALACRITTY_WINDOW_ID) return true;
  const vte = Number(env.VTE_VERSION ?? "0");
  return vte >= 5000;
}

/** `text` linking to `url` (OSC 8): terminals without support show the text alone. */
export function hyperlink(text: string, url: string): string {
  return `\x1b]8;;${url}\x07${text}\x1b]8;;\x07`;
}
