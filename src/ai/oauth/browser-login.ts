/**
 * The shared shape of a browser login: start the loopback server (or fall back to pasting when
 * its port is taken), show the authorize URL, and wait for the code from either path.
 */
import { receiveCode, type ReceivedCode } from "./browser-code.ts";
import { startCallbackServer, type CallbackServer, type CallbackSpec } from "./callback-server.ts";
import type { LoginIO } from "./types.ts";

export interface BrowserLogin {
  io: LoginIO;
  callback: CallbackSpec;
  /** The authorize URL for the redirect URI the server ended up with. */
  authorizeUrl(redirectUri: string): string;
}

export async function browserCode(login: BrowserLogin): Promise<ReceivedCode & { redirectUri: string }> {
  const { io, callback } = login;
  let server: CallbackServer | undefined;
  let redirectUri = `http://${callback.redirectHost}:${callback.port}${callback.path}`;
  try {
    server = startCallbackServer(callback);
    redirectUri = server.redirectUri;
  } catch (error) {
    io.tell({
      kind: "info",
      message: `pig could not listen on 127.0.0.1:${callback.port} (${(error as Error).message}); when the browser ends on a page that does not load, paste its URL here.`,
    });
  }
  try {
    io.tell({
      kind: "open_url",
      url: login.authorizeUrl(redirectUri),
      instructions: `Sign in to ${callback.providerName} in a browser. If it runs on another machine, paste the URL it ends on here.`,
    });
    const received = await receiveCode({ io, server, state: callback.state, providerName: callback.providerName, placeholder: redirectUri });
    return { ...received, redirectUri };
  } finally {
    server?.close();
  }
}
