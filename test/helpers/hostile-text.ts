/**
 * One hostile corpus for every surface that shows text from outside pig, and the check that none
 * of it reached the terminal raw. Each piece would act on a terminal if written as it is: erase
 * and move (CSI), set the title (OSC 0), link (OSC 8), write the clipboard (OSC 52), device
 * control and application strings (DCS, APC), the one-byte CSI (C1), overwrite by carriage
 * return or backspace, and reorder the line (bidi override and isolate).
 */
import { expect } from "bun:test";

export const HOSTILE_PIECES = {
  eraseLine: "\x1b[2K",
  cursorUp: "\x1b[1A",
  title: "\x1b]0;owned-title\x07",
  link: "\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07",
  clipboard: "\x1b]52;c;cm0gLXJmIH4=\x07",
  dcs: "\x1bPq#0;2;0;0;0\x1b\\",
  apc: "\x1b_apc-payload\x1b\\",
  c1Csi: "\x9b31m",
  bareCr: "before\rafter",
  backspace: "ab\bc",
  rtlOverride: "\u202eevil\u202c",
  isolate: "\u2066iso\u2069",
} as const;

/** All of it in one line, between markers a test can find on the screen. */
export const HOSTILE = `HOSTILE-START ${Object.values(HOSTILE_PIECES).join(" ")} HOSTILE-END`;

/** How the corpus shows once made safe: fragments a test can look for. */
export const HOSTILE_VISIBLE = ["␛[2K", "␛[1A", "␛]0;owned-title␇", "␛]52;c;", "␛Pq", "␛_apc-payload", "\\u009b31m", "before␍after", "ab␈c", "\\u202eevil", "\\u2066iso\\u2069"];

/**
 * What must never reach the terminal from the corpus: its escape sequences (pig's own colours
 * are other sequences), C1 controls, bidi controls, a bare CR or a backspace.
 */
export function expectNoHostileBytes(output: string): void {
  for (const piece of ["\x1b[2K", "\x1b[1A", "\x1b]0;", "\x1b]52;", "\x1b]8;;https://evil", "\x1bP", "\x1b_", "\x9b", "\u202e", "\u202c", "\u2066", "\u2069", "\b"]) {
    expect(output.includes(piece) ? JSON.stringify(piece) : "absent").toBe("absent");
  }
  expect(output.includes("before\rafter")).toBe(false);
}

/** Every visible form of the corpus is in `text` (a screen or captured output). */
export function expectHostileShown(text: string): void {
  for (const fragment of HOSTILE_VISIBLE) expect(text).toContain(fragment);
}
