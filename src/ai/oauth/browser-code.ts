/**
 * The authorization code of a browser login: whichever comes first of the browser returning to
 * the loopback server and the user pasting the redirect URL (or the code) from a browser on
 * another machine. The other is stopped.
 */
import type { CallbackServer } from "./callback-server.ts";
import { parsePastedCode } from "./pasted-code.ts";
import { LoginCancelled, LoginFailed, type LoginIO } from "./types.ts";

export interface CodeWait {
  io: LoginIO;
  /** Undefined when the port could not be had: only the paste path is left. */
  server: CallbackServer | undefined;
  /** The `state` the login sent; a pasted URL with another is refused. */
  state: string | undefined;
  providerName: string;
  placeholder: string;
}

export interface ReceivedCode {
  code: string;
  /** The state that came back with it (the expected one when a bare code was pasted). */
  state: string | undefined;
  /** The `iss` that came back with it (RFC 9207); undefined when the server sent none or a bare code was pasted. */
  iss?: string;
}

export async function receiveCode(wait: CodeWait): Promise<ReceivedCode> {
  const { io } = wait;
  if (io.signal.aborted) throw new LoginCancelled();
  const pasting = new AbortController();
  const cancelled = new Promise<never>((_, reject) => {
    io.signal.addEventListener("abort", () => reject(new LoginCancelled()), { once: true });
  });
  cancelled.catch(() => {});
  const pasted = io
    .ask({
      kind: "pasted_code",
      message: wait.server
        ? `Finish signing in to ${wait.providerName} in the browser, or paste the redirect URL (or the code) here:`
        : `Paste the redirect URL (or the code) from the browser here:`,
      placeholder: wait.placeholder,
      signal: AbortSignal.any([pasting.signal, io.signal]),
    })
    .then((input): ReceivedCode => {
      const parsed = parsePastedCode(input);
      if (!parsed.code) throw new LoginFailed(`What was pasted holds no authorization code; paste the whole redirect URL the browser ended on.`);
      if (wait.state !== undefined && parsed.state !== undefined && parsed.state !== wait.state) {
        throw new LoginFailed(`The pasted redirect URL belongs to another sign-in (its state does not match this one); paste the URL from this sign-in's link.`);
      }
      return { code: parsed.code, state: parsed.state ?? wait.state, ...(parsed.iss ? { iss: parsed.iss } : {}) };
    });
  const server = wait.server;
  const fromBrowser = server
    ? server.code.then(async (code): Promise<ReceivedCode> => {
        const iss = await server.issuer;
        return { code, state: wait.state, ...(iss ? { iss } : {}) };
      })
    : new Promise<never>(() => {});
  try {
    return await Promise.race([fromBrowser, pasted, cancelled]);
  } finally {
    pasting.abort();
    pasted.catch(() => {});
    wait.server?.close();
  }
}
