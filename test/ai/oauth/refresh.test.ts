/**
 * Renewing a subscription login before a request: within upstream's five-minute margin the
 * token is refreshed under the auth.json lock and saved; a token another process renewed is
 * used as it is; a revoked refresh token says to sign in again.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { ModelRegistry } from "../../../src/ai/registry.ts";
import type { Model } from "../../../src/ai/types.ts";
import { FakeOAuth } from "../../helpers/fake-oauth.ts";
import { loginWorld } from "./helpers.ts";

let fake: FakeOAuth;
afterEach(() => fake?.close());

function world(expiresInMs: number) {
  fake = new FakeOAuth();
  const w = loginWorld(fake, ["anthropic"]);
  const seeded = fake.seedLogin();
  writeFileSync(w.authPath, JSON.stringify({ anthropic: { type: "oauth", ...seeded, expires: Date.now() + expiresInMs } }));
  const registry = new ModelRegistry({ agentDir: w.agentDir, env: w.env });
  const model: Model = registry.find("anthropic", "claude-haiku-4-5") ?? { ...registry.models.find((m) => m.provider === "anthropic")! };
  return { ...w, seeded, registry, model };
}

const stored = (authPath: string) => JSON.parse(readFileSync(authPath, "utf8")).anthropic;

describe("subscription token renewal", () => {
  test("a token with more than five minutes left is used as it is", async () => {
    const w = world(10 * 60_000);
    const auth = await w.registry.requestAuth(w.model);
    expect(auth.apiKey).toBe(w.seeded.access);
    expect(auth.secrets).toEqual([w.seeded.access, w.seeded.refresh]);
    expect(fake.tokenCalls("refresh_token")).toHaveLength(0);
  });

  test("within five minutes of expiry it is renewed and saved, keeping the file's other entries", async () => {
    const w = world(4 * 60_000);
    const before = JSON.parse(readFileSync(w.authPath, "utf8"));
    writeFileSync(w.authPath, JSON.stringify({ ...before, openai: { type: "api_key", key: "sk-other" } }));
    const auth = await w.registry.requestAuth(w.model);
    expect(auth.apiKey).not.toBe(w.seeded.access);
    expect(auth.apiKey).toMatch(/^sk-ant-oat01-access-2-/);
    const calls = fake.tokenCalls("refresh_token");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.fields).toEqual({ grant_type: "refresh_token", client_id: "9d1c250a-e61b-44d9-88ed-5944d1962f5e", refresh_token: w.seeded.refresh });
    const file = JSON.parse(readFileSync(w.authPath, "utf8"));
    expect(file.anthropic.access).toBe(auth.apiKey);
    expect(file.anthropic.refresh).not.toBe(w.seeded.refresh);
    expect(file.openai).toEqual({ type: "api_key", key: "sk-other" });
    // The next request uses the saved token.
    expect((await w.registry.requestAuth(w.model)).apiKey).toBe(auth.apiKey);
    expect(fake.tokenCalls("refresh_token")).toHaveLength(1);
  });

  test("a token another process renewed meanwhile is used, without refreshing again", async () => {
    const w = world(-1000);
    const renewed = { type: "oauth", access: "sk-ant-oat01-from-the-other-process", refresh: "rt-other", expires: Date.now() + 3_600_000 };
    writeFileSync(w.authPath, JSON.stringify({ anthropic: renewed }));
    expect((await w.registry.requestAuth(w.model)).apiKey).toBe(renewed.access);
    expect(fake.tokenCalls("refresh_token")).toHaveLength(0);
  });

  test("a revoked refresh token: the error says what happened and to sign in again; the file is unchanged", async () => {
    const w = world(-1000);
    fake.revoke(w.seeded.refresh);
    const before = readFileSync(w.authPath, "utf8");
    await expect(w.registry.requestAuth(w.model)).rejects.toThrow(
      "The anthropic login has expired or was revoked (Anthropic token refresh failed: HTTP 400: invalid_grant: Refresh token not found or invalid); run /login anthropic (or pig login anthropic) to sign in again",
    );
    expect(readFileSync(w.authPath, "utf8")).toBe(before);
  });

  test("the login removed from auth.json meanwhile says so", async () => {
    const w = world(-1000);
    writeFileSync(w.authPath, "{}");
    await expect(w.registry.requestAuth(w.model)).rejects.toThrow("The anthropic login is no longer in auth.json");
    expect(stored(w.authPath)).toBeUndefined();
  });
});

describe("upstream's lock of auth.json", () => {
  test("a renewal waits while upstream's lock directory is there, then renews", async () => {
    const { mkdirSync, rmdirSync, existsSync } = await import("node:fs");
    const w = world(-1000);
    mkdirSync(`${w.authPath}.lock`);
    const renewal = w.registry.requestAuth(w.model);
    let settled = false;
    void renewal.finally(() => (settled = true));
    // While the directory is there nothing can reach the token endpoint; checked after a round trip of the test's own.
    await fetch(`${fake.url}/v1/oauth`);
    expect(settled).toBe(false);
    expect(fake.tokenCalls("refresh_token")).toHaveLength(0);
    rmdirSync(`${w.authPath}.lock`);
    expect((await renewal).apiKey).toMatch(/^sk-ant-oat01-access-2-/);
    expect(existsSync(`${w.authPath}.lock`)).toBe(false);
  });
});

describe("upstream's entries in auth.json", () => {
  test("a renewal keeps the provider's own fields; storing a key for another provider keeps every field of the login", async () => {
    const { saveApiKey } = await import("../../../src/ai/auth.ts");
    const w = world(-1000);
    const entry = { ...JSON.parse(readFileSync(w.authPath, "utf8")).anthropic, note: "written by upstream", accountId: "acct-7" };
    writeFileSync(w.authPath, JSON.stringify({ anthropic: entry }));
    await w.registry.requestAuth(w.model);
    expect(stored(w.authPath)).toMatchObject({ note: "written by upstream", accountId: "acct-7", type: "oauth" });
    const renewed = stored(w.authPath);
    saveApiKey(w.authPath, "openai", "sk-other");
    expect(JSON.parse(readFileSync(w.authPath, "utf8"))).toEqual({ anthropic: renewed, openai: { type: "api_key", key: "sk-other" } });
    expect(new ModelRegistry({ agentDir: w.agentDir, env: w.env }).problems).toEqual([]);
  });
});
