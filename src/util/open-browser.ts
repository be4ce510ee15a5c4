/**
 * Opening a sign-in page in the user's browser, best effort: the page is always printed too, so
 * a machine without a browser (a server over SSH, a container) only means the user opens it by
 * hand. Nothing here can fail the login.
 */

/** Why pig does not try to open a browser here, or undefined when it tries. */
export function browserUnavailable(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string | undefined {
  const off = env.PIG_NO_BROWSER;
  if (off !== undefined && off !== "" && off !== "0") return "PIG_NO_BROWSER is set";
  // Without a display, xdg-open falls back to a text browser (w3m, lynx) and would take over
  // this very terminal in the middle of the login.
  if (platform !== "darwin" && platform !== "win32" && !env.DISPLAY && !env.WAYLAND_DISPLAY) return "there is no graphical display";
  return undefined;
}

/** The program and arguments that open `url` on `platform`, never through a shell (the URL is outside text). */
export function browserCommand(url: string, platform: NodeJS.Platform = process.platform): string[] {
  if (platform === "darwin") return ["open", url];
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler", url];
  return ["xdg-open", url];
}

/** Only web pages are handed to the system's opener: a `file:` or option-like target never is. */
export function isWebUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:";
  } catch {
    return false;
  }
}

/** Tries to open `url`; whether an opener was started (not whether a page appeared). */
export function openBrowser(url: string, env: Record<string, string | undefined> = process.env): boolean {
  if (!isWebUrl(url) || browserUnavailable(env) !== undefined) return false;
  const [program, ...args] = browserCommand(url);
  const path = Bun.which(program!);
  if (!path) return false;
  try {
    const child = Bun.spawn([path, ...args], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    // pig does not wait for the opener, nor keep running for it.
    child.unref();
    return true;
  } catch {
    return false;
  }
}
