/**
 * The browser of a test's MCP sign-in: a `LoginIO` that, when pig shows the authorization URL,
 * follows it as a browser would (the authorization server approves at once and redirects) and
 * either lands on pig's loopback callback or pastes the URL it ended on.
 */
import { LoginCancelled, type LoginIO, type LoginNotice } from "../../../src/ai/oauth/types.ts";

/** The authorization server's answer to an authorize URL: where it redirects the browser. */
export async function approve(authorizeUrl: string): Promise<URL> {
  const response = await fetch(authorizeUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) throw new Error(`authorize answered ${response.status} without a redirect: ${await response.text()}`);
  return new URL(location);
}

export interface BrowserIO extends LoginIO {
  notices: LoginNotice[];
  /** The authorization URLs shown. */
  opened: string[];
  /** What the browser's landing on the callback answered (status and page). */
  landings: { status: number; page: string }[];
}

/** `paste`: the user pastes the redirect URL instead of the browser reaching the callback. */
export function browserIO(mode: "callback" | "paste" = "callback", signal: AbortSignal = new AbortController().signal): BrowserIO {
  let pasteTarget: Promise<URL> | undefined;
  const io: BrowserIO = {
    signal,
    notices: [],
    opened: [],
    landings: [],
    tell(notice) {
      io.notices.push(notice);
      if (notice.kind !== "open_url") return;
      io.opened.push(notice.url);
      const redirect = approve(notice.url);
      if (mode === "paste") {
        pasteTarget = redirect;
        return;
      }
      void redirect
        .then(async (target) => {
          const landed = await fetch(target);
          io.landings.push({ status: landed.status, page: await landed.text() });
        })
        .catch((error) => io.landings.push({ status: 0, page: String(error) }));
    },
    async ask(question) {
      if (question.kind === "pasted_code" && mode === "paste" && pasteTarget) return (await pasteTarget).href;
      // Nobody types: the question waits until it is no longer needed.
      return new Promise<string>((_, reject) => {
        const stop = question.signal ?? signal;
        stop.addEventListener("abort", () => reject(new LoginCancelled()), { once: true });
      });
    },
  };
  return io;
}
