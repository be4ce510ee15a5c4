/**
 * A subscription login's tokens renewed while pig runs, through the built binary: in the middle
 * of a `-p` run (the model server sees the new token on the next request), two pig processes
 * needing a renewal at once (the token endpoint is asked once), pig killed with -9 while the
 * token endpoint holds its answer (the next pig still works, or says what to do), and a revoked
 * refresh token (the exact message).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeOAuth, type FakeOAuthOptions } from "../helpers/fake-oauth.ts";
import { startFakeLlm, type FakeLlm } from "../helpers/fake-llm/server.ts";
import type { ScriptResponse } from "../helpers/fake-llm/server.ts";
import { PigProcess } from "../helpers/login-process.ts";
import { tempDir } from "../helpers/tmp.ts";

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const RELOGIN = "run /login anthropic (or pig login anthropic) to sign in again";

/**
 * An agent dir whose `anthropic` provider points at the fake model server and whose auth.json
 * holds a login the fake authorization server knows, already due for renewal.
 */
async function world(responses: ScriptResponse[], oauth: FakeOAuthOptions = {}, provider = "anthropic") {
  const fake = new FakeOAuth(oauth);
  closers.push(() => fake.close());
  const llm: FakeLlm = await startFakeLlm({ script: { responses } as never });
  closers.push(() => llm.close());
  const agentDir = tempDir("pig-refresh-");
  const cwd = tempDir("pig-refresh-work-");
  const model = { id: "claude-test", name: "claude-test", reasoning: false, input: ["text"], contextWindow: 200000, maxTokens: 8192, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { [provider]: { baseUrl: llm.url, api: "anthropic-messages", models: [model] } } }));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: provider, defaultModel: "claude-test", quietStartup: true }));
  writeFileSync(join(agentDir, "endpoints.json"), JSON.stringify({ [provider]: fake.overridesFor(provider) }));
  const seeded = fake.seedLogin();
  const authPath = join(agentDir, "auth.json");
  writeFileSync(authPath, JSON.stringify({ [provider]: { type: "oauth", ...seeded, expires: Date.now() - 1000 } }), { mode: 0o600 });
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: agentDir, PIG_CODING_AGENT_DIR: agentDir, PIG_OAUTH_ENDPOINTS: join(agentDir, "endpoints.json") };
  return {
    fake,
    llm,
    agentDir,
    authPath,
    seeded,
    pig(args: string[]) {
      const pig = new PigProcess(args, { env, cwd });
      // Piped stdin would be added to the prompt: there is none.
      pig.endInput();
      closers.push(() => pig.proc.kill("SIGKILL"));
      return pig;
    },
    stored: () => JSON.parse(readFileSync(authPath, "utf8"))[provider] as { access: string; refresh: string; expires: number },
    sessionText: () => {
      const dir = join(agentDir, "sessions");
      return existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl")).map((f) => readFileSync(join(dir, f), "utf8")).join("\n") : "";
    },
  };
}

const bearer = (llm: FakeLlm, index: number) => llm.requests[index]!.headers.authorization;

/** A hold on the token endpoint: the first refresh waits until `release`. */
function holdFirstRefresh() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  return {
    release,
    beforeToken: async () => {
      if (!first) return;
      first = false;
      await released;
    },
  };
}

describe("renewing a subscription login while pig runs", () => {
  test("in the middle of a -p run the next request carries the renewed token, which is saved", async () => {
    // Tokens that live ten minutes are stored five minutes early and are due again at once:
    // every request of the run renews.
    const w = await world([{ toolCalls: [{ name: "bash", arguments: { command: "echo between" } }] }, { text: "done" }], { expiresIn: 600 });
    const pig = w.pig(["-p", "run a command"]);
    expect(await pig.exited).toBe(0);
    expect(pig.stdout).toBe("done\n");
    expect(w.llm.requests).toHaveLength(2);
    const [first, second] = [bearer(w.llm, 0), bearer(w.llm, 1)];
    expect(first).toMatch(/^Bearer sk-ant-oat01-access-2-/);
    expect(second).toMatch(/^Bearer sk-ant-oat01-access-3-/);
    // Each refresh used the refresh token the one before it returned.
    const refreshes = w.fake.tokenCalls("refresh_token");
    expect(refreshes).toHaveLength(2);
    expect(refreshes[0]!.fields.refresh_token).toBe(w.seeded.refresh);
    expect(refreshes[1]!.fields.refresh_token).not.toBe(w.seeded.refresh);
    expect(`Bearer ${w.stored().access}`).toBe(second!);
    // No token reaches the session file.
    const session = w.sessionText();
    expect(session).toContain("between");
    for (const token of [first!.slice(7), second!.slice(7), w.seeded.refresh, w.stored().refresh]) expect(session.includes(token)).toBe(false);
  });

  test("two pig processes due for renewal at once: the token endpoint is asked once, both use its token", async () => {
    const hold = holdFirstRefresh();
    const w = await world([], { beforeToken: hold.beforeToken });
    const a = w.pig(["-p", "first"]);
    await w.fake.waitFor(() => w.fake.tokenCalls("refresh_token").length === 1);
    // The second pig reaches its request (and the auth.json lock) while the first one renews.
    const b = w.pig(["--mode", "json", "first too"]);
    await b.waitForStdout(/"type":"turn_start"/);
    hold.release();
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    expect(w.fake.tokenCalls("refresh_token")).toHaveLength(1);
    expect(w.llm.requests).toHaveLength(2);
    expect(bearer(w.llm, 0)).toBe(`Bearer ${w.stored().access}`);
    expect(bearer(w.llm, 1)).toBe(`Bearer ${w.stored().access}`);
  });

  test("kill -9 while the token endpoint holds the answer: auth.json is whole, the lock is taken over, the next pig renews", async () => {
    const hold = holdFirstRefresh();
    const w = await world([], { beforeToken: hold.beforeToken });
    const before = readFileSync(w.authPath, "utf8");
    const a = w.pig(["-p", "first"]);
    await w.fake.waitFor(() => w.fake.tokenCalls("refresh_token").length === 1);
    expect(existsSync(`${w.authPath}.lock`)).toBe(true);
    a.proc.kill("SIGKILL");
    await a.exited;
    expect(readFileSync(w.authPath, "utf8")).toBe(before);
    // The held answer is never delivered: the server did not rotate the refresh token.
    const b = w.pig(["-p", "again"]);
    expect(await b.exited).toBe(0);
    expect(b.stdout).toBe("ok\n");
    expect(w.fake.tokenCalls("refresh_token")).toHaveLength(2);
    expect(bearer(w.llm, 0)).toBe(`Bearer ${w.stored().access}`);
    expect(existsSync(`${w.authPath}.lock`)).toBe(false);
  });

  test("kill -9 after the server rotated the refresh token: the next pig says to sign in again", async () => {
    const hold = holdFirstRefresh();
    const w = await world([], { beforeToken: hold.beforeToken });
    const a = w.pig(["-p", "first"]);
    await w.fake.waitFor(() => w.fake.tokenCalls("refresh_token").length === 1);
    a.proc.kill("SIGKILL");
    await a.exited;
    // The server rotates the token; its answer goes to a process that is gone.
    hold.release();
    await w.fake.waitFor(() => w.fake.requests.filter((r) => r.path === "/token").length === 1);
    const b = w.pig(["-p", "again"]);
    expect(await b.exited).toBe(1);
    expect(b.stderr).toContain(
      `The anthropic login has expired or was revoked (Anthropic token refresh failed: HTTP 400: invalid_grant: Refresh token not found or invalid); ${RELOGIN}`,
    );
    expect(w.llm.requests).toHaveLength(0);
  });

  test("a revoked refresh token: the exact message, nothing sent to the model, auth.json unchanged, no token printed", async () => {
    const w = await world([]);
    w.fake.revoke(w.seeded.refresh);
    const before = readFileSync(w.authPath, "utf8");
    const pig = w.pig(["-p", "hello"]);
    expect(await pig.exited).toBe(1);
    expect(pig.stderr).toContain(
      `The anthropic login has expired or was revoked (Anthropic token refresh failed: HTTP 400: invalid_grant: Refresh token not found or invalid); ${RELOGIN}`,
    );
    expect(w.llm.requests).toHaveLength(0);
    expect(readFileSync(w.authPath, "utf8")).toBe(before);
    for (const text of [pig.stderr, pig.stdout, w.sessionText()]) {
      expect(text.includes(w.seeded.refresh)).toBe(false);
      expect(text.includes(w.seeded.access)).toBe(false);
    }
  });

  test("a Kimi login (Anthropic Messages): renewed at its host, its token sent as a bearer token and not as x-api-key", async () => {
    const w = await world([], {}, "kimi-coding");
    const pig = w.pig(["-p", "hello"]);
    expect(await pig.exited).toBe(0);
    expect(w.fake.requests.map((r) => r.path)).toEqual(["/api/oauth/token"]);
    const sent = w.llm.requests[0]!.headers;
    expect(sent.authorization).toBe(`Bearer ${w.stored().access}`);
    expect(sent["x-api-key"]).toBeUndefined();
  });
});
