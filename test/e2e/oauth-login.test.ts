/**
 * `pig login` and `pig logout` through the built binary against a fake authorization server:
 * the URL on stderr, the redirect URL pasted on stdin or the browser returning to pig's loopback
 * server, a device code entered "in the browser", cancelling with Ctrl+C, and the exit codes.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPig } from "../helpers/binary.ts";
import { authorizeRedirect, FakeOAuth, fakeJwt, type FakeOAuthOptions } from "../helpers/fake-oauth.ts";
import { PigProcess } from "../helpers/login-process.ts";
import { tempDir } from "../helpers/tmp.ts";

let fake: FakeOAuth | undefined;
const running: PigProcess[] = [];
afterEach(() => {
  for (const pig of running.splice(0)) pig.proc.kill("SIGKILL");
  fake?.close();
});

function world(options: FakeOAuthOptions = {}) {
  fake = new FakeOAuth(options);
  const agentDir = tempDir("pig-login-");
  const endpoints = join(agentDir, "endpoints.json");
  const server = fake;
  writeFileSync(endpoints, JSON.stringify(Object.fromEntries(["anthropic", "openai-codex", "github-copilot"].map((p) => [p, server.overridesFor(p)]))));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: agentDir, PIG_CODING_AGENT_DIR: agentDir, PIG_OAUTH_ENDPOINTS: endpoints };
  const authPath = join(agentDir, "auth.json");
  return {
    fake: server,
    env,
    authPath,
    login(args: string[]) {
      const pig = new PigProcess(["login", ...args], { env });
      running.push(pig);
      return pig;
    },
    stored: () => JSON.parse(readFileSync(authPath, "utf8")) as Record<string, Record<string, unknown>>,
  };
}

const URL_LINE = /^  (http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m;

describe("pig login", () => {
  test("anthropic, headless: the URL on stderr, the code#state pasted on stdin", async () => {
    const w = world();
    const pig = w.login(["anthropic"]);
    const [, url] = await pig.waitForStderr(URL_LINE);
    await pig.waitForStderr(/paste the redirect URL \(or the code\) here:/);
    // The browser on another machine ends on the redirect; its page shows the code and state.
    const to = await authorizeRedirect(url!);
    pig.write(`${to.searchParams.get("code")}#${to.searchParams.get("state")}\n`);
    expect(await pig.exited).toBe(0);
    expect(pig.stderr).toContain(`Signed in to anthropic (Claude Pro/Max); the login is stored in ${w.authPath}.`);
    expect(pig.stdout).toBe("");
    const entry = w.stored().anthropic!;
    expect(entry).toMatchObject({ type: "oauth", access: expect.stringMatching(/^sk-ant-oat01-/), refresh: expect.stringMatching(/^rt-/) });
    expect(statSync(w.authPath).mode & 0o777).toBe(0o600);
    // Tokens are never printed.
    expect(pig.stderr.includes(entry.access as string)).toBe(false);
    expect(pig.stderr.includes(entry.refresh as string)).toBe(false);
  });

  test("anthropic: the browser comes back to pig's loopback server, which answers with a page", async () => {
    const w = world();
    const pig = w.login(["anthropic"]);
    const [, url] = await pig.waitForStderr(URL_LINE);
    const to = await authorizeRedirect(url!);
    expect(to.hostname).toBe("localhost");
    const page = await fetch(`http://127.0.0.1:${to.port}${to.pathname}${to.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Signed in to Anthropic.");
    expect(await pig.exited).toBe(0);
    expect(w.stored().anthropic!.type).toBe("oauth");
  });

  test("openai-codex: the account id of the token is stored", async () => {
    const w = world({ accessToken: (n) => fakeJwt({ "https://api.openai.com/auth": { chatgpt_account_id: `acct-${n}` } }) });
    const pig = w.login(["openai-codex"]);
    const [, url] = await pig.waitForStderr(URL_LINE);
    const to = await authorizeRedirect(url!);
    await fetch(`http://127.0.0.1:${to.port}${to.pathname}${to.search}`);
    expect(await pig.exited).toBe(0);
    expect(pig.stderr).toContain("Sign in to ChatGPT with: A browser (default) (--device for the device code)");
    expect(w.stored()["openai-codex"]).toMatchObject({ type: "oauth", accountId: "acct-1" });
  });

  test("github-copilot: a blank enterprise domain on stdin, then the device code entered in the browser", async () => {
    const w = world({ pendingStatus: 200 });
    const pig = w.login(["github-copilot"]);
    await pig.waitForStderr(/GitHub Enterprise URL or domain \(blank for github\.com\)/);
    pig.write("\n");
    const [, code] = await pig.waitForStderr(/and enter the code.*:\n\n {2}(\S+)\n/);
    expect(pig.stderr).toContain(`Open ${w.fake.url}/device`);
    w.fake.decide(code!, "approved");
    expect(await pig.exited).toBe(0);
    const entry = w.stored()["github-copilot"]!;
    expect(entry.access).toMatch(/^tid=copilot-/);
    expect(entry.availableModelIds).toEqual(["gpt-4o"]);
  });

  test("denied at GitHub: exit 1 with the reason; nothing stored", async () => {
    const w = world();
    const pig = w.login(["github-copilot"]);
    pig.endInput();
    const [, code] = await pig.waitForStderr(/and enter the code.*:\n\n {2}(\S+)\n/);
    w.fake.decide(code!, "denied");
    expect(await pig.exited).toBe(1);
    expect(pig.stderr).toEndWith("pig: login failed: The sign-in was denied at GitHub; nothing was stored\n");
    expect(existsSync(w.authPath)).toBe(false);
  });

  test("Ctrl+C while waiting: exit 130, the loopback server closed, nothing stored", async () => {
    const w = world();
    const pig = w.login(["anthropic"]);
    const [, url] = await pig.waitForStderr(URL_LINE);
    const port = new URL(new URL(url!).searchParams.get("redirect_uri")!).port;
    pig.proc.kill("SIGINT");
    expect(await pig.exited).toBe(130);
    expect(pig.stderr).toEndWith("pig: login cancelled; nothing was stored\n");
    expect(existsSync(w.authPath)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/callback`)).rejects.toThrow();
  });

  test("an unknown provider lists the subscription providers (exit 2); --help lists them with their names", () => {
    const w = world();
    const unknown = runPig(["login", "anthropik"], { env: w.env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `pig: login: "anthropik" has no subscription login; those are: anthropic, openai-codex, github-copilot, kimi-coding, xai, openrouter, meta, radius\nRun 'pig login --help' for usage.\n`,
    );
    const help = runPig(["login", "--help"], { env: w.env });
    expect(help.code).toBe(0);
    expect(help.stdout).toStartWith("Usage: pig login <provider> [--device]");
    expect(help.stdout).toContain("  github-copilot GitHub Copilot (device code)");
  });
});

describe("pig logout", () => {
  test("removes a stored login (exit 0), then says there is none (exit 1); other entries stay", () => {
    const w = world();
    writeFileSync(w.authPath, JSON.stringify({ anthropic: { type: "oauth", access: "sk-ant-oat01-x", refresh: "rt-x", expires: 1 }, openai: { type: "api_key", key: "sk-k" } }));
    const first = runPig(["logout", "anthropic"], { env: w.env });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(`Removed the anthropic login from ${w.authPath}.\n`);
    expect(w.stored()).toEqual({ openai: { type: "api_key", key: "sk-k" } });
    const again = runPig(["logout", "anthropic"], { env: w.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`pig: no login or key for anthropic is stored in ${w.authPath}\n`);
    const none = runPig(["logout"], { env: w.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toStartWith("pig: logout: name one provider whose login or key to remove (stored: openai)");
  });
});
