/**
 * One hostile corpus for every surface that shows text from outside pig (data only, so an
 * extension fixture can import it too). Each piece would act on a terminal if written as it is:
 * erase and move (CSI), set the title (OSC 0), link (OSC 8), write the clipboard (OSC 52), device
 * control and application strings (DCS, APC), the one-byte CSI (C1), overwrite by carriage
 * return or backspace, and reorder the line (bidi override and isolate).
 */

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
