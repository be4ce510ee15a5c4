/** The pure parts of a login: PKCE, what a pasted answer holds, the endpoint overrides file, the credential of a token answer. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { endpointsFor } from "../../../src/ai/oauth/endpoints.ts";
import { tokenCredential } from "../../../src/ai/oauth/flow.ts";
import { parsePastedCode } from "../../../src/ai/oauth/pasted-code.ts";
import { challengeOf, createPkce, randomState } from "../../../src/ai/oauth/pkce.ts";
import { tempDir } from "../../helpers/tmp.ts";

describe("PKCE", () => {
  test("S256 of RFC 7636's example verifier is its example challenge", () => {
    expect(challengeOf("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  test("a fresh verifier is 43 base64url characters and differs each time; state is 32 hex digits", () => {
    const a = createPkce();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.challenge).toBe(challengeOf(a.verifier));
    expect(createPkce().verifier).not.toBe(a.verifier);
    expect(randomState()).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("a pasted answer", () => {
  test.each([
    ["http://localhost:53692/callback?code=abc&state=xyz", { code: "abc", state: "xyz" }],
    ["  https://example.com/done?code=abc  ", { code: "abc" }],
    ["abc#xyz", { code: "abc", state: "xyz" }],
    ["code=abc&state=xyz", { code: "abc", state: "xyz" }],
    ["?code=abc", { code: "abc" }],
    ["abc", { code: "abc" }],
    ["", {}],
    ["http://localhost:1455/auth/callback?error=access_denied", {}],
  ])("%p", (input, expected) => {
    expect(parsePastedCode(input)).toEqual(expected);
  });
});

describe("PIG_OAUTH_ENDPOINTS", () => {
  const defaults = { token: "https://example.com/token", callbackPort: 53692 };
  const file = (content: string) => {
    const path = join(tempDir(), "endpoints.json");
    writeFileSync(path, content);
    return path;
  };

  test("unset: the defaults; set: the provider's overrides over them", () => {
    expect(endpointsFor("anthropic", defaults, {}, ["anthropic"])).toEqual(defaults);
    const path = file(JSON.stringify({ anthropic: { token: "http://127.0.0.1:9/t" } }));
    expect(endpointsFor("anthropic", defaults, { PIG_OAUTH_ENDPOINTS: path }, ["anthropic"])).toEqual({ token: "http://127.0.0.1:9/t", callbackPort: 53692 });
  });

  test("each mistake names the file and the key", () => {
    const check = (content: string, known = ["anthropic", "xai"]) => {
      const path = file(content);
      try {
        endpointsFor("anthropic", defaults, { PIG_OAUTH_ENDPOINTS: path }, known);
      } catch (error) {
        return (error as Error).message.replace(path, "<file>");
      }
      return "no error";
    };
    expect(check("{")).toStartWith("<file> (named by PIG_OAUTH_ENDPOINTS): not valid JSON");
    expect(check('{"anthropic": {"token": true}}')).toBe('<file> (named by PIG_OAUTH_ENDPOINTS): "anthropic.token" must be a string (a URL) or a number (a port)');
    expect(check('{"anthropic": {"callbackPort": "53692"}}')).toBe('<file> (named by PIG_OAUTH_ENDPOINTS): "anthropic.callbackPort" must be a number (a port)');
    expect(check('{"anthropic": {"token": "ftp://x"}}')).toBe('<file> (named by PIG_OAUTH_ENDPOINTS): "anthropic.token" must be an http:// or https:// URL, not "ftp://x"');
    expect(check('{"antropic": {}}')).toBe('<file> (named by PIG_OAUTH_ENDPOINTS): "antropic" is not a provider with a subscription login (those are: anthropic, xai)');
    expect(check("[]")).toStartWith("<file> (named by PIG_OAUTH_ENDPOINTS): must be an object of providers");
    const missing = join(tempDir(), "none.json");
    expect(() => endpointsFor("anthropic", defaults, { PIG_OAUTH_ENDPOINTS: missing }, ["anthropic"])).toThrow(`${missing} (named by PIG_OAUTH_ENDPOINTS) does not exist`);
  });
});

describe("the credential of a token answer", () => {
  test("access, refresh and an expiry `expires_in` seconds from now, less the provider's skew", () => {
    const before = Date.now();
    const credential = tokenCredential({ access_token: "a", refresh_token: "r", expires_in: 3600 }, "X token exchange", { skewMs: 60_000 });
    expect(credential).toMatchObject({ type: "oauth", access: "a", refresh: "r" });
    expect(credential.expires).toBeGreaterThanOrEqual(before + 3_540_000);
    expect(credential.expires).toBeLessThanOrEqual(Date.now() + 3_540_000);
  });

  test("a refresh that does not rotate keeps the old refresh token; a missing lifetime takes the provider's default", () => {
    const before = Date.now();
    const credential = tokenCredential({ access_token: "a" }, "X token refresh", { previousRefresh: "old", defaultLifetimeS: 10 });
    expect(credential.refresh).toBe("old");
    expect(credential.expires).toBeGreaterThanOrEqual(before + 10_000);
  });

  test("what is missing is named, with what was asked", () => {
    expect(() => tokenCredential({ access_token: "a", expires_in: 5 }, "X token exchange")).toThrow('X token exchange: unexpected answer: "refresh_token" or "expires_in" is missing');
    expect(() => tokenCredential({ access_token: "a", refresh_token: "r" }, "X token exchange")).toThrow('"refresh_token" or "expires_in" is missing');
    expect(() => tokenCredential({ access_token: "a" }, "X device token", { defaultLifetimeS: 10 })).toThrow('X device token: unexpected answer: "refresh_token" is missing');
  });
});
