/**
 * Each provider's login and refresh at request level, against the fake authorization server:
 * the fields upstream 0.87.1 sends, what is stored, and the device-code outcomes.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { signIn } from "../../../src/ai/oauth/index.ts";
import { loadFlow } from "../../../src/ai/oauth/logins.ts";
import type { OAuthCredential } from "../../../src/ai/oauth/flow.ts";
import type { LoginQuestion } from "../../../src/ai/oauth/types.ts";
import { authorizeRedirect, FakeOAuth, fakeJwt, type FakeOAuthOptions } from "../../helpers/fake-oauth.ts";
import { loginWorld, never, scriptedIO } from "./helpers.ts";

let fake: FakeOAuth;
afterEach(() => fake?.close());

const codexToken = (n: number) => fakeJwt({ "https://api.openai.com/auth": { chatgpt_account_id: `acct-${n}` }, n });

/** Signs in to `provider`: the "browser" follows authorize URLs back to pig, device codes are approved at once. */
async function login(
  provider: string,
  options: FakeOAuthOptions = {},
  answers: (q: LoginQuestion) => Promise<string> = never,
  outcome: "approved" | "denied" | "expired" = "approved",
  afterPolls = 0,
) {
  fake = new FakeOAuth(options);
  const world = loginWorld(fake, [provider]);
  const io = scriptedIO(answers, (notice) => {
    if (notice.kind === "open_url") void authorizeRedirect(notice.url).then((to) => fetch(to));
    if (notice.kind === "device_code") {
      const polls = () => fake.tokenCalls("urn:ietf:params:oauth:grant-type:device_code").filter((r) => r.answered).length;
      void fake.waitFor(() => polls() >= afterPolls).then(() => fake.decide(notice.userCode, outcome));
    }
  });
  await signIn(provider, io, world.authPath, { env: world.env });
  const entry = JSON.parse(readFileSync(world.authPath, "utf8"))[provider] as OAuthCredential;
  return { entry, io, world };
}

const choose = (id: string) => async (q: LoginQuestion) => (q.kind === "select" ? id : q.kind === "text" ? "" : never());

describe("OpenAI Codex", () => {
  test("browser login: PKCE and Codex's parameters, the account id from the token's claims", async () => {
    const { entry } = await login("openai-codex", { accessToken: codexToken }, choose("browser"));
    expect(entry).toMatchObject({ type: "oauth", accountId: "acct-1" });
    const authorize = fake.requests.find((r) => r.path === "/authorize")!.fields;
    expect(authorize).toMatchObject({ client_id: "app_EMoamEEZ73f0CkXaXp7hrann", scope: "openid profile email offline_access", codex_cli_simplified_flow: "true", originator: "pi" });
    expect(authorize.redirect_uri).toMatch(/^http:\/\/localhost:\d+\/auth\/callback$/);
    expect(fake.tokenCalls("authorization_code")[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  test("device code login: the poll's code and verifier are exchanged at the device redirect URI", async () => {
    const { entry, io } = await login("openai-codex", { accessToken: codexToken }, choose("device_code"));
    expect(entry.accountId).toBe("acct-1");
    expect(io.notices.find((n) => n.kind === "device_code")).toMatchObject({ verificationUri: `${fake.url}/device` });
    expect(fake.tokenCalls("authorization_code")[0]!.fields.redirect_uri).toBe(`${fake.url}/deviceauth/callback`);
  });

  test("refresh: a form post with the client id; the account id read again", async () => {
    fake = new FakeOAuth({ accessToken: codexToken });
    const world = loginWorld(fake, ["openai-codex"]);
    const seeded = fake.seedLogin();
    const flow = (await loadFlow("openai-codex"))!;
    const fresh = await flow.refresh({ type: "oauth", ...seeded, expires: 0, accountId: "acct-old" }, new AbortController().signal, world.env);
    expect(fresh.accountId).toBe("acct-2");
    expect(fake.tokenCalls("refresh_token")[0]!.fields).toEqual({ grant_type: "refresh_token", refresh_token: seeded.refresh, client_id: "app_EMoamEEZ73f0CkXaXp7hrann" });
  });
});

describe("GitHub Copilot", () => {
  test("device flow (pending answered with HTTP 200, as GitHub does), then the Copilot token and the account's models", async () => {
    const { entry, io } = await login(
      "github-copilot",
      { pendingStatus: 200 },
      async (q) => {
        expect(q).toMatchObject({ kind: "text", message: "GitHub Enterprise URL or domain (blank for github.com)" });
        return "";
      },
      "approved",
      1,
    );
    expect(fake.tokenCalls("urn:ietf:params:oauth:grant-type:device_code")).toHaveLength(2);
    expect(entry.access).toMatch(/^tid=copilot-\d+-.*proxy-ep=proxy\.example\.test$/);
    expect(entry.refresh).toMatch(/^sk-ant-oat01-access-1-/);
    expect(entry.availableModelIds).toEqual(["gpt-4o"]);
    expect(entry.enterpriseUrl).toBeUndefined();
    expect(io.notices.some((n) => n.kind === "device_code")).toBe(true);
    const device = fake.requests.find((r) => r.path === "/device/code")!;
    expect(device.fields).toEqual({ domain: "github.com", client_id: "Iv1.b507a08c87ecfe98", scope: "read:user" });
    const flow = (await loadFlow("github-copilot"))!;
    expect(flow.requestAuth!(entry)).toEqual({ apiKey: entry.access, headers: { Authorization: `Bearer ${entry.access}` } });
    const exchange = fake.requests.find((r) => r.path === "/copilot/token")!;
    expect(exchange.headers.authorization).toBe(`Bearer ${entry.refresh}`);
    expect(exchange.headers["editor-version"]).toBe("vscode/1.107.0");
  });

  test("an enterprise domain: its URLs, and enterpriseUrl stored", async () => {
    const { entry } = await login("github-copilot", {}, async () => "https://ghe.example.com/some/page");
    expect(entry.enterpriseUrl).toBe("ghe.example.com");
    expect(fake.requests.find((r) => r.path === "/device/code")!.fields.domain).toBe("ghe.example.com");
  });

  test("denied at GitHub: says so", async () => {
    await expect(login("github-copilot", {}, async () => "", "denied")).rejects.toThrow("The sign-in was denied at GitHub; nothing was stored");
  });
});

describe("device flows of Kimi, xAI and Meta", () => {
  test("Kimi: its host's paths; requests carry a bearer header", async () => {
    const { entry } = await login("kimi-coding");
    expect(entry.refresh).toMatch(/^rt-/);
    expect(fake.requests.map((r) => r.path)).toContain("/api/oauth/device_authorization");
    expect(fake.requests.find((r) => r.path === "/api/oauth/device_authorization")!.fields).toEqual({ client_id: "17e5f671-d194-4dfb-9706-5516cb48c098" });
    const flow = (await loadFlow("kimi-coding"))!;
    expect(flow.requestAuth!(entry)).toEqual({ apiKey: entry.access, headers: { Authorization: `Bearer ${entry.access}` } });
  });

  test("xAI: its scope; slow_down with a new interval is obeyed and polling goes on", async () => {
    const { entry } = await login("xai", { slowDownOnce: { interval: 1 } });
    expect(entry.access).toMatch(/^sk-ant-oat01-/);
    expect(fake.requests.find((r) => r.path === "/device/code")!.fields).toMatchObject({ scope: "openid profile email offline_access grok-cli:access api:access", referrer: "pi" });
    expect(fake.tokenCalls("urn:ietf:params:oauth:grant-type:device_code").length).toBeGreaterThanOrEqual(2);
  });

  test("Meta: the identity token is minted into a key (access) and kept as refresh", async () => {
    const { entry } = await login("meta");
    expect(entry.access).toMatch(/^meta-key-/);
    expect(entry.refresh).toMatch(/^sk-ant-oat01-access-1-/);
    const mint = fake.requests.find((r) => r.path === "/meta/mint")!;
    expect(mint.headers.authorization).toBe(`Bearer ${entry.refresh}`);
    expect(mint.headers["x-api-version"]).toBe("1.0.0");
  });

  test("an expired device code says to start again", async () => {
    await expect(login("xai", {}, never, "expired")).rejects.toThrow("The xAI code expired before it was entered; run pig login xai (or /login xai) again");
  });
});

describe("OpenRouter and Radius", () => {
  test("OpenRouter: the code becomes an API key that never expires", async () => {
    const { entry } = await login("openrouter");
    expect(entry).toMatchObject({ type: "oauth", refresh: "", expires: Number.MAX_SAFE_INTEGER });
    expect(entry.access).toMatch(/^sk-or-v1-/);
    const authorize = fake.requests.find((r) => r.path === "/openrouter/auth")!.fields;
    expect(authorize.callback_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback\/[0-9a-f-]{36}$/);
    expect(fake.requests.find((r) => r.path === "/openrouter/keys")!.fields.code_challenge_method).toBe("S256");
  });

  test("Radius browser login: the authorize endpoint the gateway names; scope stored", async () => {
    const { entry } = await login("radius", {}, choose("browser"));
    expect(entry.refresh).toMatch(/^rt-/);
    expect(fake.requests[0]!.path).toBe("/v1/oauth");
    expect(fake.requests.find((r) => r.path === "/authorize")!.fields).toMatchObject({ client_id: "pi-gateway", scope: "gateway offline_access", handoff: "url" });
  });

  test("Radius device code", async () => {
    const { entry } = await login("radius", {}, choose("device-code"));
    expect(entry.access).toMatch(/^sk-ant-oat01-/);
    expect(fake.requests.map((r) => r.path)).toContain("/v1/oauth/device");
  });
});
