/**
 * The Anthropic (Claude Pro/Max) login through `signIn`, against a fake authorization server:
 * the browser returning to the loopback server, the pasted redirect URL and `code#state`, a
 * wrong state, and what is stored.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { signIn, LoginCancelled, LoginFailed } from "../../../src/ai/oauth/index.ts";
import { authorizeRedirect, FakeOAuth } from "../../helpers/fake-oauth.ts";
import { loginWorld, never, scriptedIO } from "./helpers.ts";

let fake: FakeOAuth;
afterEach(() => fake?.close());

function stored(authPath: string): Record<string, Record<string, unknown>> {
  return JSON.parse(readFileSync(authPath, "utf8"));
}

describe("anthropic login", () => {
  test("the browser comes back to the loopback server: tokens stored in upstream's shape, mode 0600", async () => {
    fake = new FakeOAuth();
    const world = loginWorld(fake, ["anthropic"]);
    const io = scriptedIO(never, (notice) => {
      // The "browser": opens the URL and follows the redirect back to pig.
      if (notice.kind === "open_url") void authorizeRedirect(notice.url).then((to) => fetch(to));
    });
    await signIn("anthropic", io, world.authPath, { env: world.env });
    const entry = stored(world.authPath).anthropic!;
    expect(entry.type).toBe("oauth");
    expect(entry.access).toMatch(/^sk-ant-oat01-access-1-/);
    expect(entry.refresh).toMatch(/^rt-/);
    // expires_in 3600 s, stored five minutes early.
    expect(entry.expires as number).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(entry.expires as number).toBeLessThanOrEqual(Date.now() + 55 * 60_000);
    expect(Object.keys(entry).sort()).toEqual(["access", "expires", "refresh", "type"]);
    expect(statSync(world.authPath).mode & 0o777).toBe(0o600);
    // The authorize request carried PKCE and Anthropic's parameters.
    const authorize = fake.requests.find((r) => r.path === "/authorize")!;
    expect(authorize.fields).toMatchObject({ code: "true", client_id: "9d1c250a-e61b-44d9-88ed-5944d1962f5e", response_type: "code", code_challenge_method: "S256" });
    expect(authorize.fields.redirect_uri).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    const exchange = fake.tokenCalls("authorization_code")[0]!;
    expect(exchange.headers["content-type"]).toBe("application/json");
    expect(exchange.fields.state).toBe(authorize.fields.state);
  });

  for (const form of ["url", "code#state", "query"] as const) {
    test(`a pasted ${form} from a browser on another machine`, async () => {
      fake = new FakeOAuth();
      const world = loginWorld(fake, ["anthropic"]);
      let url = "";
      const io = scriptedIO(
        async (question) => {
          expect(question.kind).toBe("pasted_code");
          const to = await authorizeRedirect(url);
          const code = to.searchParams.get("code")!;
          const state = to.searchParams.get("state")!;
          return form === "url" ? to.toString() : form === "code#state" ? `${code}#${state}` : `code=${code}&state=${state}`;
        },
        (notice) => {
          if (notice.kind === "open_url") url = notice.url;
        },
      );
      await signIn("anthropic", io, world.authPath, { env: world.env });
      expect(stored(world.authPath).anthropic!.access).toMatch(/^sk-ant-oat01-/);
    });
  }

  test("a callback with the wrong state gets a page saying so and the login keeps waiting for the right one", async () => {
    fake = new FakeOAuth();
    const world = loginWorld(fake, ["anthropic"]);
    let wrongPage = "";
    const io = scriptedIO(never, (notice) => {
      if (notice.kind !== "open_url") return;
      void (async () => {
        const to = await authorizeRedirect(notice.url);
        const forged = new URL(to);
        forged.searchParams.set("state", "someone-elses");
        const wrong = await fetch(forged);
        expect(wrong.status).toBe(400);
        wrongPage = await wrong.text();
        await fetch(to);
      })();
    });
    await signIn("anthropic", io, world.authPath, { env: world.env });
    expect(wrongPage).toContain("not from the sign-in pig started");
    expect(stored(world.authPath).anthropic!.type).toBe("oauth");
  });

  test("a pasted URL of another login is refused; nothing is stored", async () => {
    fake = new FakeOAuth();
    const world = loginWorld(fake, ["anthropic"]);
    const io = scriptedIO(async () => "http://localhost:53692/callback?code=abc&state=not-this-login");
    await expect(signIn("anthropic", io, world.authPath, { env: world.env })).rejects.toThrow(/belongs to another sign-in/);
    expect(() => readFileSync(world.authPath)).toThrow();
  });

  test("an expired code: the token endpoint's words are shown, the code is not", async () => {
    fake = new FakeOAuth({ codeLifetimeMs: -1 });
    const world = loginWorld(fake, ["anthropic"]);
    let url = "";
    const io = scriptedIO(
      async () => (await authorizeRedirect(url)).toString(),
      (notice) => {
        if (notice.kind === "open_url") url = notice.url;
      },
    );
    const error = await signIn("anthropic", io, world.authPath, { env: world.env }).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(LoginFailed);
    expect((error as Error).message).toBe("Anthropic token exchange failed: HTTP 400: invalid_grant: authorization code expired");
  });

  test("cancelling closes the loopback server and rejects with LoginCancelled", async () => {
    fake = new FakeOAuth();
    const world = loginWorld(fake, ["anthropic"]);
    let redirect = "";
    const io = scriptedIO(never, (notice) => {
      if (notice.kind === "open_url") {
        redirect = new URL(notice.url).searchParams.get("redirect_uri")!;
        io.controller.abort();
      }
    });
    await expect(signIn("anthropic", io, world.authPath, { env: world.env })).rejects.toBeInstanceOf(LoginCancelled);
    const port = new URL(redirect).port;
    // Stopped listening (or, while it winds down, refusing any further callback).
    const late = await fetch(`http://127.0.0.1:${port}/callback?code=x`).then((r) => r.status, () => "refused");
    expect([409, "refused"]).toContain(late);
  });

  test("an endpoints file with a misspelt key names the file and the key", async () => {
    fake = new FakeOAuth();
    const world = loginWorld(fake, ["anthropic"]);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(world.env.PIG_OAUTH_ENDPOINTS!, JSON.stringify({ anthropic: { tokn: "http://127.0.0.1:1/" } }));
    await expect(signIn("anthropic", scriptedIO(never), world.authPath, { env: world.env })).rejects.toThrow(
      `${world.env.PIG_OAUTH_ENDPOINTS} (named by PIG_OAUTH_ENDPOINTS): "anthropic.tokn" is not an endpoint of anthropic (those are: authorize, token, callbackPort)`,
    );
  });
});
