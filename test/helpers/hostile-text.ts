/** The hostile corpus (hostile-corpus.ts) and the checks that none of it reached a terminal raw. */
import { expect } from "bun:test";

import { HOSTILE_PIECES } from "./hostile-corpus.ts";

export { HOSTILE, HOSTILE_PIECES } from "./hostile-corpus.ts";

/** How the corpus shows once made safe: fragments a test can look for. */
export const HOSTILE_VISIBLE = ["␛[2K", "␛[1A", "␛]0;owned-title␇", "␛]52;c;", "␛Pq", "␛_apc-payload", "\\u009b31m", "before␍after", "ab␈c", "\\u202eevil", "\\u2066iso\\u2069"];

/**
 * What must never reach the terminal from the corpus: its escape sequences as written (pig's own
 * output has erase and cursor-up sequences of its own, so those two are looked for where the
 * corpus has them), C1 and bidi controls, a backspace, a bare CR between two words.
 */
export function expectNoHostileBytes(output: string): void {
  const p = HOSTILE_PIECES;
  const pieces = [`HOSTILE-START ${p.eraseLine}`, `${p.eraseLine} ${p.cursorUp}`, p.title, p.link, p.clipboard, p.dcs, p.apc, "\x9b", "\u202e", "\u202c", "\u2066", "\u2069", "\b", p.bareCr];
  const found = pieces.filter((piece) => output.includes(piece)).map((piece) => JSON.stringify(piece));
  expect(found).toEqual([]);
}

/** Every visible form of the corpus is in `text` (a screen or captured output). */
export function expectHostileShown(text: string): void {
  for (const fragment of HOSTILE_VISIBLE) expect(text).toContain(fragment);
}
