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
  /** The authorize URL for the redirect URI the server ended up with (an MCP sign-in registers its client for that URI first). */
  authorizeUrl(redirectUri: string): string | Promise<string>;
  /** The redirect URI to send as it is, when one is configured (servers compare it as a string); default: the callback server's. */
  fixedRedirectUri?: string;
  /** The callback port is only preferred (the port of a client registered earlier): when it is taken, any free port will do. */
  anyPortWhenTaken?: boolean;
}

function listen(login: BrowserLogin): CallbackServer {
  try {
    return startCallbackServer(login.callback);
  } catch (error) {
    if (!login.anyPortWhenTaken || login.callback.port === 0) throw error;
    return startCallbackServer({ ...login.callback, port: 0 });
  }
}

export async function browserCode(login: BrowserLogin): Promise<ReceivedCode & { redirectUri: string }> {
  const { io, callback } = login;
  let server: CallbackServer | undefined;
  let redirectUri = login.fixedRedirectUri ?? `http://${callback.redirectHost}:${callback.port}${callback.path}`;
  try {
    server = listen(login);
    redirectUri = login.fixedRedirectUri ?? server.redirectUri;
  } catch (error) {
    io.tell({
      kind: "info",
      message: `pig could not listen on 127.0.0.1:${callback.port} (${(error as Error).message}); when the browser ends on a page that does not load, paste its URL here.`,
    });
  }
  try {
    io.tell({
      kind: "open_url",
      url: await login.authorizeUrl(redirectUri),
      instructions: `Sign in to ${callback.providerName} in a browser. If it runs on another machine, paste the URL it ends on here.`,
    });
    const received = await receiveCode({ io, server, state: callback.state, providerName: callback.providerName, placeholder: redirectUri });
    return { ...received, redirectUri };
  } finally {
    server?.close();
  }
}
