// A sign-in to a real OAuth MCP server through a command's UI (`ctx.ui`): the page as a notice,
// the paste dialog closed by the flow when the browser answers, a pasted redirect URL, and a
// closed dialog cancelling the sign-in.
import { afterEach, describe, expect, test } from "bun:test";
import { LoginCancelled } from "../../src/ai/oauth/types.ts";
import { HEADLESS_UI, type ExtensionUI } from "../../src/extensions/ui.ts";
import { mcpAuthStore, signInToMcpServer } from "../../src/mcp/oauth/index.ts";
import { commandLoginIO } from "../../src/runtime/mcp-login-io.ts";
import { approve } from "../helpers/mcp/browser-io.ts";
import { startOAuthMcpServer, type OAuthMcpServer } from "../helpers/mcp/oauth-mcp-server.ts";
import { tempDir } from "../helpers/tmp.ts";

const servers: OAuthMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type Paste = "wait" | "paste" | "close";

/** A UI whose notices a "browser" reads: it follows the page, then lands on the callback unless the user pastes. */
function ui(paste: Paste, hasUI = true) {
  const notices: string[] = [];
  const dialogs: { title: string; aborted: boolean }[] = [];
  let redirect: Promise<URL> | undefined;
  const surface: ExtensionUI = {
    ...HEADLESS_UI,
    hasUI,
    notify(message) {
      notices.push(message);
      const url = message.split("\n").find((line) => line.includes("/authorize?"));
      if (!url) return;
      redirect = approve(url);
      // A sign-in closed before the browser finished leaves this unread.
      redirect.catch(() => {});
      if (paste === "wait") void redirect.then((target) => fetch(target));
    },
    async input(title, _placeholder, opts) {
      const dialog = { title, aborted: false };
      dialogs.push(dialog);
      if (paste === "close") return undefined;
      if (paste === "paste") return (await redirect!).href;
      return new Promise((resolve) =>
        opts?.signal?.addEventListener("abort", () => {
          dialog.aborted = true;
          resolve(undefined);
        }),
      );
    },
  };
  return { surface, notices, dialogs };
}

async function signInThrough(paste: Paste, hasUI = true) {
  const mcp = await startOAuthMcpServer();
  servers.push(mcp);
  const store = mcpAuthStore(tempDir());
  const shown = ui(paste, hasUI);
  const io = commandLoginIO(shown.surface, { cancel: new AbortController(), openPages: false, env: {} });
  const signedIn = signInToMcpServer({ name: "docs", url: mcp.url }, { store, io, env: {} });
  return { mcp, store, shown, signedIn };
}

describe("sign-in through a command's UI", () => {
  test("the browser's callback wins; the paste dialog is closed by the flow, not the user", async () => {
    const { signedIn, shown, mcp } = await signInThrough("wait");
    expect(await signedIn).toBe("signed_in");
    expect(shown.notices.some((notice) => notice.startsWith('Sign in to MCP server "docs" in a browser.'))).toBe(true);
    expect(shown.dialogs).toEqual([{ title: 'Finish signing in to MCP server "docs" in the browser, or paste the redirect URL (or the code) here:', aborted: true }]);
    expect(mcp.log.codeExchanges).toBe(1);
  });

  test("a pasted redirect URL completes it", async () => {
    const { signedIn, mcp } = await signInThrough("paste");
    expect(await signedIn).toBe("signed_in");
    expect(mcp.log.codeExchanges).toBe(1);
  });

  test("closing the dialog cancels the sign-in", async () => {
    const { signedIn, mcp } = await signInThrough("close");
    await expect(signedIn).rejects.toThrow(LoginCancelled);
    expect(mcp.log.codeExchanges).toBe(0);
  });

  test("without anyone to ask, the callback is waited for", async () => {
    const { signedIn, shown } = await signInThrough("wait", false);
    expect(await signedIn).toBe("signed_in");
    expect(shown.dialogs).toEqual([]);
  });
});
