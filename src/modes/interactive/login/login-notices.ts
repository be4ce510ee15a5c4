/**
 * What a subscription login shows in the scrollback, as plain functions of the notice. Every
 * text in a notice comes from a provider or a flow and is made terminal-safe before pig styles
 * it. A URL is written whole on a line of its own and never broken by pig: the terminal wraps
 * it softly, so selecting it copies one link (and it is an OSC 8 link where the terminal
 * supports them).
 */
import pc from "picocolors";
import type { LoginNotice } from "../../../ai/oauth/types.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";
import { hyperlink } from "../render/wrap.ts";

export interface NoticeStyle {
  /** Whether the terminal shows OSC 8 links (render/wrap.ts supportsHyperlinks). */
  hyperlinks: boolean;
}

/** A URL as shown: whole, safe, linked when the terminal can. */
export function shownUrl(url: string, style: NoticeStyle): string {
  const safe = terminalSafe(url, { tabs: "show" });
  // A link target must be the URL exactly; one with anything unsafe is only shown.
  return pc.cyan(style.hyperlinks && safe === url ? hyperlink(safe, url) : safe);
}

/** The words after an opened (or not) sign-in page. */
export function browserWords(opened: boolean, why: string | undefined): string {
  if (opened) return "pig asked your browser to open it; if nothing opened, open the link yourself.";
  return why ? `Open it in a browser (pig did not open one: ${why}).` : "Open it in a browser.";
}

/** The device code in a box of its own, so it stands out of the scrollback and copies alone. */
export function codeBox(code: string): string[] {
  const safe = terminalSafe(code, { tabs: "show" });
  const bar = "─".repeat(Bun.stringWidth(safe) + 4);
  return [`  ┌${bar}┐`, `  │  ${pc.bold(safe)}  │`, `  └${bar}┘`];
}

function minutes(seconds: number): string {
  const whole = Math.max(1, Math.round(seconds / 60));
  return `${whole} minute${whole === 1 ? "" : "s"}`;
}

/**
 * The lines of one notice. `browser` is what happened when pig tried to open an `open_url`
 * page (the caller tries; this only words it).
 */
export function noticeLines(notice: LoginNotice, style: NoticeStyle, browser?: { opened: boolean; why?: string }): string[] {
  switch (notice.kind) {
    case "info":
      return [
        terminalSafe(notice.message),
        ...(notice.links ?? []).map((link) => `  ${link.label ? `${terminalSafe(link.label)}: ` : ""}${shownUrl(link.url, style)}`),
      ];
    case "open_url":
      return [
        "Sign in on this page:",
        shownUrl(notice.url, style),
        pc.dim(browserWords(browser?.opened ?? false, browser?.why)),
        ...(notice.instructions ? [terminalSafe(notice.instructions)] : []),
      ];
    case "device_code":
      return [
        "Open this page and enter the code below:",
        shownUrl(notice.verificationUri, style),
        ...codeBox(notice.userCode),
        pc.dim(`Waiting for you to confirm in the browser${notice.expiresInSeconds ? ` (the code expires in ${minutes(notice.expiresInSeconds)})` : ""}. Escape cancels.`),
      ];
    case "progress":
      return [pc.dim(terminalSafe(notice.message))];
  }
}
