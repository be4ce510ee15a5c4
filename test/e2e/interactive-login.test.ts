/**
 * Subscription sign-in in the interactive mode, through the built binary in tmux: `/login` with
 * the browser played by the test (it reads the sign-in URL off the screen, follows it at the fake
 * authorization server and delivers the redirect to pig's loopback callback, or pastes it),
 * Escape mid-login, `/logout` of a subscription, and the first-run setup's sign-in path.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { authorizeRedirect, FakeOAuth } from "../helpers/fake-oauth.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { createWorld, fakeModelsJson, type PigWorld } from "../helpers/pig-env.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";

const { open, track } = interactivePig();
const oauth = new FakeOAuth();
afterAll(() => oauth.close());

/** The environment that points pig's logins at the fake authorization server, with no browser opened. */
function loginEnv(world: PigWorld): Record<string, string> {
  const file = join(world.agentDir, "oauth-endpoints.json");
  writeFileSync(file, JSON.stringify({ anthropic: oauth.overridesFor("anthropic"), xai: oauth.overridesFor("xai") }));
  return { PIG_OAUTH_ENDPOINTS: file, PIG_NO_BROWSER: "1" };
}

/** models.json: the fake provider, and Anthropic's models sent to the fake LLM server (no key of its own). */
function withAnthropic(world: PigWorld, options: { fake?: boolean } = {}): void {
  const models = fakeModelsJson(world.llm.url, {}) as { providers: Record<string, unknown> };
  if (options.fake === false) delete models.providers.fake;
  models.providers.anthropic = { baseUrl: world.llm.url };
  writeFileSync(join(world.agentDir, "models.json"), JSON.stringify(models));
}

const authPath = (world: PigWorld) => join(world.agentDir, "auth.json");
const readAuth = (world: PigWorld) => JSON.parse(readFileSync(authPath(world), "utf8")) as Record<string, Record<string, unknown>>;

/**
 * Waits for `pattern` on the screen read with wrapped rows joined back into their lines (a URL
 * the terminal wrapped, a notice pig wrapped at its words, joined by a space); that screen.
 */
async function waitJoined(tmux: TmuxSession, pattern: RegExp): Promise<string> {
  const joined = () => tmux.captureJoined().replace(/\n/g, " ");
  await tmux.waitFor(() => pattern.test(joined()));
  return joined();
}

/** The sign-in URL as pig printed it: on the screen with the rows it wrapped onto joined back. */
async function signInUrl(tmux: TmuxSession): Promise<string> {
  const pattern = new RegExp(`${oauth.url.replace(/[.:/]/g, "\\$&")}/authorize\\?\\S+`);
  await tmux.waitFor(() => pattern.test(tmux.captureJoined()));
  return pattern.exec(tmux.captureJoined())![0];
}

/** `/login`, "Sign in with an account", Claude Pro/Max: up to the pasted-code prompt. */
async function startAnthropicLogin(tmux: TmuxSession): Promise<string> {
  tmux.type("/login");
  tmux.sendKeys("Enter");
  await tmux.waitFor("Sign in how?");
  tmux.sendKeys("Enter");
  await tmux.waitFor("Sign in with which account?");
  tmux.sendKeys("Enter");
  const url = await signInUrl(tmux);
  await tmux.waitFor(/paste/i);
  return url;
}

describeNeeding("tmux", tmuxAvailable(), "interactive sign-in", () => {
  test("/login with an account: the browser's redirect reaches pig's callback; the prompt closes itself and the login is stored", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    withAnthropic(world);
    const pig = open(world, { env: loginEnv(world) });
    await pig.waitFor("›");
    const url = await startAnthropicLogin(pig);
    expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256");
    // The browser: the authorization server sends it to pig's loopback callback.
    const redirect = await authorizeRedirect(url);
    expect(redirect.hostname).toMatch(/^(localhost|127\.0\.0\.1)$/);
    const page = await fetch(redirect);
    expect(page.status).toBe(200);
    const screen = await waitJoined(pig, /Signed in to Claude Pro\/Max \(anthropic\); saved in .*auth\.json\. \d+ models? available: anthropic\//);
    // The paste prompt closed itself as answered (◇), not as cancelled (■).
    expect(screen).toMatch(/◇ Finish signing in to Anthropic in the browser/);
    const entry = readAuth(world).anthropic!;
    expect(entry).toMatchObject({ type: "oauth" });
    expect(String(entry.access)).toStartWith("sk-ant-oat01-");
    // A usable model was current: it stays.
    pig.type("/session");
    pig.sendKeys("Enter");
    await pig.waitFor(/Model:\s+fake\/fake-model/);
  });

  test("/login with an account: the redirect URL pasted from another machine's browser signs in", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    withAnthropic(world);
    // Wide enough for the closed prompt's whole line.
    const pig = open(world, { env: loginEnv(world), width: 160 });
    await pig.waitFor("›");
    const url = await startAnthropicLogin(pig);
    // That browser cannot reach this machine: the user copies where it ended up.
    const redirect = await authorizeRedirect(url);
    pig.paste(redirect.toString());
    pig.sendKeys("Enter");
    await pig.waitFor("Signed in to Claude Pro/Max (anthropic)");
    expect(readAuth(world).anthropic).toMatchObject({ type: "oauth" });
    // The pasted URL carried the authorization code: the closed prompt does not keep it on screen.
    const screen = pig.captureJoined();
    expect(screen).toMatch(/◇ Finish signing in to Anthropic in the browser.* · pasted/);
    expect(screen).not.toContain(redirect.searchParams.get("code")!);
  });

  test("Escape mid-login cancels it: auth.json is unchanged and the callback server is gone", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    withAnthropic(world);
    const before = `${JSON.stringify({ openai: { type: "api_key", key: "sk-kept-0123456789" } }, null, 2)}\n`;
    writeFileSync(authPath(world), before, { mode: 0o600 });
    const pig = open(world, { env: loginEnv(world) });
    await pig.waitFor("›");
    const url = await startAnthropicLogin(pig);
    const redirect = await authorizeRedirect(url);
    pig.sendKeys("Escape");
    await pig.waitFor("Sign-in to Claude Pro/Max cancelled; nothing was stored.");
    expect(readFileSync(authPath(world), "utf8")).toBe(before);
    // The browser arriving late finds nobody listening.
    const late = await fetch(redirect).then(
      () => "answered",
      () => "refused",
    );
    expect(late).toBe("refused");
    // The prompt works again.
    pig.type("/session");
    pig.sendKeys("Enter");
    await pig.waitFor(/Model:\s+fake\/fake-model/);
  });

  test("/logout lists the subscription login as one and removes it, saying what still applies", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    withAnthropic(world);
    writeFileSync(
      authPath(world),
      JSON.stringify({
        anthropic: { type: "oauth", access: "sk-ant-oat01-stored-token-5d1f", refresh: "rt-stored-9e2a", expires: Date.now() + 3_600_000 },
        openai: { type: "api_key", key: "sk-kept-0123456789" },
      }),
      { mode: 0o600 },
    );
    const pig = open(world, { env: { ...loginEnv(world), ANTHROPIC_API_KEY: "sk-ant-env-key-77aa" } });
    await pig.waitFor("›");
    pig.type("/logout");
    pig.sendKeys("Enter");
    const picker = await pig.waitFor("Remove which stored login?");
    expect(picker).toContain("anthropic · subscription (Claude Pro/Max)");
    expect(picker).toContain("openai · API key");
    pig.sendKeys("Enter");
    await waitJoined(pig, /Signed out of anthropic: its subscription login was removed from .*auth\.json\. ANTHROPIC_API_KEY from the environment still applies to anthropic\./);
    expect(Object.keys(readAuth(world))).toEqual(["openai"]);
  });
});

describeNeeding("tmux", tmuxAvailable(), "device-code sign-in", () => {
  /** `/login xai`, the account way: up to the code in its box; the code. */
  async function startDeviceLogin(pig: TmuxSession): Promise<string> {
    pig.type("/login xai");
    pig.sendKeys("Enter");
    await pig.waitFor("Sign in to xai how?");
    pig.sendKeys("Enter");
    const screen = await waitJoined(pig, /│ {2}\S+ {2}│/);
    expect(screen).toContain(`${oauth.url}/device`);
    return /│ {2}(\S+) {2}│/.exec(screen)![1]!;
  }

  test("/login with a device code: the page and the code are shown; approving it in the browser signs in", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const pig = open(world, { env: loginEnv(world) });
    await pig.waitFor("›");
    const code = await startDeviceLogin(pig);
    await pig.waitFor("Escape cancels");
    oauth.decide(code, "approved");
    await waitJoined(pig, /Signed in to SuperGrok or X Premium \(xAI\) \(xai\); saved in .*auth\.json\./);
    expect(readAuth(world).xai).toMatchObject({ type: "oauth" });
  });

  test("Escape while the device code waits (no dialog open) cancels; nothing is stored", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const pig = open(world, { env: loginEnv(world) });
    await pig.waitFor("›");
    const code = await startDeviceLogin(pig);
    pig.sendKeys("Escape");
    await pig.waitFor("Sign-in to SuperGrok or X Premium (xAI) cancelled; nothing was stored.");
    // Approved too late: pig no longer polls, and nothing appears in auth.json.
    oauth.decide(code, "approved");
    pig.type("/session");
    pig.sendKeys("Enter");
    await pig.waitFor(/Model:\s+fake\/fake-model/);
    expect(existsSync(authPath(world))).toBe(false);
  });
});

describeNeeding("tmux", tmuxAvailable(), "first run with an account", () => {
  test("no model yet: the setup signs in with an account and the session starts on that provider's model", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    // A first start: no settings, no keys; Anthropic's models go to the fake server.
    rmSync(join(world.agentDir, "settings.json"));
    withAnthropic(world, { fake: false });
    const pig = open(world, { env: loginEnv(world) });
    await pig.waitFor("Sign in with an account (subscription)");
    pig.sendKeys("Enter");
    await pig.waitFor("Sign in with which account?");
    pig.sendKeys("Enter");
    const url = await signInUrl(pig);
    await fetch(await authorizeRedirect(url));
    await pig.waitFor("Signed in to Claude Pro/Max");
    // Several Anthropic models: the recommended one is chosen first.
    await pig.waitFor("recommended");
    pig.sendKeys("Enter");
    await pig.waitFor("›");
    pig.type("hello");
    pig.sendKeys("Enter");
    await pig.waitFor(/↑\d/);
    const access = String(readAuth(world).anthropic!.access);
    const request = world.llm.requests.at(-1)!;
    expect(request.headers.authorization).toBe(`Bearer ${access}`);
  });

  test("Escape while the setup's device code waits goes back to the providers; nothing is stored", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    rmSync(join(world.agentDir, "settings.json"));
    rmSync(join(world.agentDir, "models.json"));
    const pig = open(world, { env: loginEnv(world) });
    await pig.waitFor("Sign in with an account (subscription)");
    pig.sendKeys("Enter");
    await pig.waitFor("Sign in with which account?");
    // Down to xAI's login, whose device code waits with no dialog open.
    const accounts = pig.capture();
    const rows = accounts.split("\n").filter((line) => /^│ {2}[●○] /.test(line));
    const xai = rows.findIndex((line) => line.includes("(xAI)"));
    expect(xai).toBeGreaterThan(0);
    for (let i = 0; i < xai; i++) pig.sendKeys("Down");
    await pig.waitFor(/● SuperGrok or X Premium \(xAI\)/);
    pig.sendKeys("Enter");
    await waitJoined(pig, /│ {2}\S+ {2}│/);
    await pig.waitFor("Escape cancels");
    pig.sendKeys("Escape");
    await pig.waitFor("Sign-in to SuperGrok or X Premium (xAI) cancelled; nothing was stored.");
    // The provider list again, which still answers the keys.
    await pig.waitFor(/◆ {2}Provider/);
    pig.sendKeys("Escape");
    await pig.waitFor("pig: no model configured");
    expect(existsSync(authPath(world))).toBe(false);
  });
});
