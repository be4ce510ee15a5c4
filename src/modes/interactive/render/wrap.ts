/**
 * Fitting printed text to the terminal: word wrapping with a prefix on the first row and a
 * (hanging) prefix on the rest, escape sequences and hyperlinks kept, widths measured in
 * terminal columns (graphemes, East Asian width, emoji) by Bun's ANSI-aware wrapper.
 */
import { stringWidth } from "../../../util/width.ts";
import { styledLine } from "./terminal-text.ts";

export interface WrapOptions {
  /** Before the first row (may contain colour codes). */
  first?: string;
  /** Before every other row; defaults to spaces as wide as `first` (a hanging indent). */
  rest?: string;
  /** Code and program output: break anywhere, keep every space (no trimming at the breaks). */
  verbatim?: boolean;
}

/**
 * `text` (one logical line, outside text in it already made printable: terminal-text.ts) as
 * rows of at most `width` columns, prefixes included. Outside
 * verbatim text, the line's own indent is kept on every row (under the prefix), as long as it
 * leaves half the row for text.
 */
export function wrapLine(text: string, width: number, options: WrapOptions = {}): string[] {
  const clean = styledLine(text);
  let first = options.first ?? "";
  let rest = options.rest ?? " ".repeat(stringWidth(first));
  let body = clean;
  if (!options.verbatim) {
    // The indent may sit inside the line's colour: it is taken out from behind the escape codes.
    const [, style, indent] = /^((?:\x1b\[[0-9;:]*m)*)( *)/.exec(clean)!;
    if (indent && Math.max(stringWidth(first), stringWidth(rest)) + indent.length < width / 2) {
      first += indent;
      rest += indent;
      body = `${style}${clean.slice(style!.length + indent.length)}`;
    }
  }
  const room = Math.max(1, width - Math.max(stringWidth(first), stringWidth(rest)));
  if (body === "") return [first];
  const wrapped = Bun.wrapAnsi(body, room, options.verbatim ? { hard: true, trim: false, wordWrap: false } : { hard: true, trim: true });
  return wrapped.split("\n").map((row, i) => `${i === 0 ? first : rest}${row}`);
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
