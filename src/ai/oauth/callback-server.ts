/**
 * The loopback server a browser login returns to: it listens on 127.0.0.1 only (never on an
 * address another machine can reach), at the port and path the provider's registered redirect
 * URI names. A request with the wrong `state` (another login's, or a forged one) gets a page that
 * says so and the server keeps waiting for the right one; the provider's `error` ends the login.
 */
import { callbackPage } from "./page.ts";
import { LoginFailed } from "./types.ts";

export interface CallbackSpec {
  /** 0: any free port (the redirect URI then names the one chosen). */
  port: number;
  path: string;
  /** The `state` this login sent; undefined when the provider uses none (the path is secret then). */
  state: string | undefined;
  /** The host the redirect URI names: the provider registered `localhost` or `127.0.0.1` (an MCP server's configured URI may name `[::1]`). */
  redirectHost: "localhost" | "127.0.0.1" | "[::1]";
  /** The provider's name for pages and messages: "Anthropic". */
  providerName: string;
}

export interface CallbackServer {
  redirectUri: string;
  /** Resolves with the code of the first callback with the right `state`; rejects when the provider reports an error. */
  code: Promise<string>;
  /** The `iss` that came with the code (RFC 9207), when the server sent one; settled once `code` is. */
  issuer: Promise<string | undefined>;
  close(): void;
}

const HTML = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" };

/** Starts listening; throws when the port is taken (the caller then offers only the paste path). */
export function startCallbackServer(spec: CallbackSpec): CallbackServer {
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may be awaiting yet when the provider reports an error.
  code.catch(() => {});
  let issuer: string | undefined;
  let done = false;
  const page = (status: number, ok: boolean, heading: string, detail?: string) =>
    new Response(callbackPage(ok, heading, detail), { status, headers: HTML });
  const server = Bun.serve({
    // Never an address another machine can reach: `[::1]` only when the redirect URI names it.
    hostname: spec.redirectHost === "[::1]" ? "::1" : "127.0.0.1",
    port: spec.port,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== spec.path) return page(404, false, "This is not the address pig is waiting on.");
      if (done) return page(409, false, "This sign-in has already finished.", "Go back to pig.");
      const params = url.searchParams;
      if (spec.state !== undefined && params.get("state") !== spec.state) {
        return page(400, false, "This answer is not from the sign-in pig started.", "Its state does not match; pig is still waiting for the right one. Start again from the link pig showed.");
      }
      const error = params.get("error");
      if (error) {
        const description = params.get("error_description");
        done = true;
        settle.reject(new LoginFailed(`${spec.providerName} did not sign you in: ${error}${description ? `: ${description}` : ""}`));
        return page(400, false, `${spec.providerName} did not sign you in.`, description ?? error);
      }
      const value = params.get("code");
      if (!value) return page(400, false, "The answer carries no authorization code.", "pig is still waiting; start again from the link pig showed.");
      done = true;
      issuer = params.get("iss") ?? undefined;
      settle.resolve(value);
      return page(200, true, `Signed in to ${spec.providerName}.`);
    },
  });
  return {
    redirectUri: `http://${spec.redirectHost}:${server.port}${spec.path}`,
    code,
    issuer: code.then(
      () => issuer,
      () => undefined,
    ),
    close: () => {
      done = true;
      // Lets the page being answered finish; no new connection is accepted.
      void server.stop(false);
    },
  };
}
