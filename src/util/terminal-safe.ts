/**
 * Text from outside pig (a model, a tool, a file, a provider, an extension, a session file) made
 * safe to write to a terminal: nothing in it can act on the terminal, and everything in it is
 * seen. A terminal obeys escape sequences and control characters wherever they come from, so an
 * argument a model wrote could erase the line above it, move the cursor back over a command
 * being approved, set the window title, write the clipboard (OSC 52) or reorder a line (bidi
 * overrides). Instead of dropping them (which hides what was there), each is shown as a visible,
 * inert glyph:
 *
 * - ESC and the other C0 controls as their Control Pictures (`␛`, `␍`, `␈`, `␇` …), so an
 *   escape sequence reads `␛[2K` and can never start;
 * - DEL as `␡`;
 * - C1 controls (U+0080–U+009F, e.g. the one-byte CSI U+009B) as `\u009b`;
 * - bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) as `\u202e`.
 *
 * `\n` stays, as does `\t` unless asked; a CR that only ends a line (`\r\n`) goes with the line
 * end, while a bare CR is shown (it would return the cursor and let later text overwrite
 * earlier text).
 *
 * pig's own colours and links are added after: `styled` is for text pig has styled, where
 * colour sequences (SGR) and OSC 8 hyperlinks are pig's and pass, and everything else is shown
 * as above. It is the last pass before the interactive screen, so a surface that forgot to make
 * its text safe still cannot move the cursor or reach the clipboard.
 */

export interface TerminalSafeOptions {
  /** Tabs shown as `␉` instead of kept (where nothing expands them). */
  tabs?: "keep" | "show";
  /** Text pig has styled: its SGR colours and OSC 8 links pass (see above). */
  styled?: boolean;
}

// C0 but `\t` and `\n`, DEL, C1, the bidi controls; `\r\n` as one.
const UNSAFE = /\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_AND_TAB = /\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\t]/g;
/**
 * pig's styling: SGR, and OSC 8 with a target free of controls (terminated by BEL or ST); in a
 * capture group, so that `split` keeps it. The only escape sequences safe text can hold.
 */
export const STYLE = /(\x1b\[[0-9;:]*m|\x1b\]8;[^\x00-\x1f\x7f-\x9f]*(?:\x07|\x1b\\))/;

/** How one unsafe character is shown. */
export function visibleControl(char: string): string {
  if (char === "\r\n") return "\n";
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every escape sequence, control character and bidi control shown instead of obeyed. */
export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  const unsafe = options.tabs === "show" ? UNSAFE_AND_TAB : UNSAFE;
  const plain = (part: string): string => part.replace(unsafe, visibleControl);
  if (!options.styled || !text.includes("\x1b")) return plain(text);
  // split with a capture group: odd parts are pig's styling.
  return text
    .split(STYLE)
    .map((part, i) => (i % 2 === 1 ? part : plain(part)))
    .join("");
}

