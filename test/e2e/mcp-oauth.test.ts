/**
 * Signing in to an OAuth-protected MCP server through the built binary, against a real server made
 * with the official MCP SDK (the test is the browser: it follows the page pig shows and lands on
 * pig's loopback callback): `pig mcp login`, a `-p` run whose tool call carries the stored token,
 * a run after the token expired (renewed with the refresh token), `pig mcp logout`, and
 * `/mcp login` over RPC.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mcpAuthStore, signInToMcpServer } from "../../src/mcp/oauth/index.ts";
import { approve, browserIO } from "../helpers/mcp/browser-io.ts";
import { startOAuthMcpServer, type OAuthMcpServer, type OAuthMcpServerOptions } from "../helpers/mcp/oauth-mcp-server.ts";
import { PigProcess } from "../helpers/login-process.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const servers: OAuthMcpServer[] = [];
const worlds: PigWorld[] = [];
const running: PigProcess[] = [];
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const pig of running.splice(0)) pig.proc.kill("SIGKILL");
  for (const client of clients.splice(0)) client.kill();
  await Promise.all([...servers.splice(0).map((server) => server.close()), ...worlds.splice(0).map((world) => world.close())]);
});

async function setUp(options: OAuthMcpServerOptions = {}, script?: Script) {
  const mcp = await startOAuthMcpServer(options);
  servers.push(mcp);
  const world = await createWorld(script ? { llm: { script } } : {});
  worlds.push(world);
  mkdirSync(world.agentDir, { recursive: true });
  writeFileSync(join(world.agentDir, "mcp.json"), JSON.stringify({ mcpServers: { docs: { url: mcp.url } } }, null, 2));
  const authPath = join(world.agentDir, "mcp-auth.json");
  return {
    mcp,
    world,
    authPath,
    pig(args: string[]) {
      const pig = new PigProcess(args, { env: world.env, cwd: world.cwd });
      running.push(pig);
      return pig;
    },
    stored: () => JSON.parse(readFileSync(authPath, "utf8"))[`mcp__docs|${mcp.url}`],
  };
}

const AUTHORIZE_LINE = /^  (http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m;

type Json = Record<string, any>;
const toolMessages = (body: unknown): string[] =>
  ((body as Json).messages as Json[]).filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : m.content.map((p: Json) => p.text ?? "").join("")));
const WHOAMI = { toolCalls: [{ name: "mcp__docs__whoami", arguments: { greeting: "hi" } }] };

describe("pig mcp login", () => {
  test("pig mcp login, then a -p run whose tool call carries the stored token", async () => {
    const w = await setUp({}, [WHOAMI, { text: "first" }]);
    const login = w.pig(["mcp", "login", "docs"]);
    const [, url] = await login.waitForStderr(AUTHORIZE_LINE);
    await fetch(await approve(url!));
    expect(await login.exited).toBe(0);
    const client = w.mcp.log.registrations[0]!.client_id;

    const run = await w.world.run(["-p", "who am i"]);
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("first");
    expect(toolMessages(w.world.llm.requests[1]!.body)).toEqual([`hi from the protected server: client ${client} with scopes [mcp:tools]`]);
    expect(w.mcp.log.toolCalls.at(-1)?.token).toBe(w.stored().tokens.access_token);
    const list = await w.world.run(["mcp", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toStartWith("docs: connected, 1 tool (user: ");
  });

  test("a run after the token expired renews it with the refresh token; after pig mcp logout a run needs sign-in", async () => {
    const w = await setUp({}, [WHOAMI, { text: "renewed" }, { text: "signed out" }]);
    // Signed in beforehand (the sign-in itself is the test above's).
    await signInToMcpServer({ name: "docs", url: w.mcp.url }, { store: mcpAuthStore(w.world.agentDir), io: browserIO(), env: {} });
    const signedIn = w.stored();
    // Time passes on the server's side: it refuses the token, pig renews it and calls again.
    w.mcp.expireAccessTokens();
    const run = await w.world.run(["-p", "who am i"]);
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("renewed");
    expect(toolMessages(w.world.llm.requests[1]!.body)[0]).toStartWith("hi from the protected server");
    expect(w.mcp.log.refreshes).toBe(1);
    const renewed = w.stored();
    expect(renewed.tokens.access_token).not.toBe(signedIn.tokens.access_token);
    expect(renewed.tokens.refresh_token).not.toBe(signedIn.tokens.refresh_token);
    expect(w.mcp.log.toolCalls.at(-1)?.token).toBe(renewed.tokens.access_token);
    expect(statSync(w.authPath).mode & 0o777).toBe(0o600);

    const logout = await w.world.run(["mcp", "logout", "docs"]);
    expect(logout.code).toBe(0);
    const after = await w.world.run(["-p", "and now"]);
    expect(after.stdout.trim()).toBe("signed out");
    expect(after.stderr).toContain("docs: needs sign-in: run /mcp login docs (or pig mcp login docs) to sign in");
    const list = await w.world.run(["mcp", "list"]);
    expect(list.code).toBe(1);
    expect(list.stdout).toStartWith("docs: needs sign-in (pig mcp login docs) (user: ");
  });

  test("signs in through the browser and the loopback callback; logout deletes the sign-in", async () => {
    const w = await setUp();
    const login = w.pig(["mcp", "login", "docs"]);
    const [, url] = await login.waitForStderr(AUTHORIZE_LINE);
    // The browser: the authorization server approves and sends it back to pig's callback.
    const landed = await fetch(await approve(url!));
    expect(landed.status).toBe(200);
    expect(await landed.text()).toContain('Signed in to MCP server &quot;docs&quot;');
    expect(await login.exited).toBe(0);
    expect(login.stderr).toContain(`Signed in to MCP server "docs"; the sign-in is stored in ${w.authPath}.`);
    expect(statSync(w.authPath).mode & 0o777).toBe(0o600);
    const entry = w.stored();
    expect(entry.tokens.access_token).toMatch(/^at-/);
    expect(login.stderr.includes(entry.tokens.access_token)).toBe(false);
    expect(w.mcp.log.registrations[0]?.client_name).toBe("pig");

    const logout = await w.world.run(["mcp", "logout", "docs"]);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain(`Signed out of MCP server "docs"`);
    expect(w.stored()).toBeUndefined();
    const again = await w.world.run(["mcp", "logout", "docs"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no sign-in of MCP server "docs" is stored in ${w.authPath}`);
  });

  test("the redirect URL pasted on stdin completes the sign-in", async () => {
    const w = await setUp();
    const login = w.pig(["mcp", "login", "docs"]);
    const [, url] = await login.waitForStderr(AUTHORIZE_LINE);
    await login.waitForStderr(/paste the redirect URL \(or the code\) here:/);
    login.write(`${(await approve(url!)).href}\n`);
    expect(await login.exited).toBe(0);
    expect(w.stored().tokens.refresh_token).toMatch(/^rt-/);
  });

  test("an unknown server and a stdio server are refused with what is wrong", async () => {
    const w = await setUp();
    const unknown = await w.world.run(["mcp", "login", "nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no MCP server "nope" in ${join(w.world.agentDir, "mcp.json")}`);
    writeFileSync(join(w.world.agentDir, "mcp.json"), JSON.stringify({ mcpServers: { local: { command: "true" }, bad: { url: w.mcp.url, oauth: { clientRegistration: "cimd" } } } }));
    const stdio = await w.world.run(["mcp", "login", "local"]);
    expect(stdio.stderr).toContain('MCP server "local" runs a command (stdio); only HTTP servers sign in with OAuth');
    const cimd = await w.world.run(["mcp", "login", "bad"]);
    expect(cimd.stderr).toContain("pig has no Client ID Metadata Document");
  });

  test("rpc: /mcp shows the server needs sign-in; /mcp login signs in, reconnects it, and its tool works", async () => {
    const w = await setUp({}, [WHOAMI, { text: "done" }]);
    const client = new RpcClient({ cwd: w.world.cwd, env: w.world.env });
    clients.push(client);
    const notice = async (command: string, pattern: RegExp): Promise<string> => {
      const from = client.lines.length;
      expect((await client.request({ type: "prompt", message: command })).success).toBe(true);
      const line = await client.waitFor((l, i) => i >= from && l.type === "extension_ui_request" && l.method === "notify" && pattern.test(String(l.message)), 20_000, from);
      return String(line.message);
    };
    expect(await notice("/mcp", /^docs: /)).toStartWith("docs: needs sign-in");
    // The command's response comes once the sign-in is over: the page is read from its notice meanwhile.
    const from = client.lines.length;
    client.send({ type: "prompt", message: "/mcp login docs", id: "login" });
    const notified = (pattern: RegExp) => client.waitFor((l, i) => i >= from && l.type === "extension_ui_request" && l.method === "notify" && pattern.test(String(l.message)), 20_000, from);
    const page = String((await notified(/\/authorize\?/)).message);
    const url = page.split("\n").find((line) => line.includes("/authorize?"))!;
    await fetch(await approve(url));
    await notified(/^Signed in to MCP server "docs"; saved in /);
    await notified(/^Reconnected to MCP server "docs" \(connected · 1 tool\)\.$/);
    expect((await client.waitFor((l) => l.type === "response" && l.id === "login", 20_000, from)).success).toBe(true);
    await client.promptAndWait("who am i");
    expect(toolMessages(w.world.llm.requests.at(-1)!.body)[0]).toStartWith("hi from the protected server");
    expect(w.stored().tokens.access_token).toBe(w.mcp.log.toolCalls.at(-1)?.token);
  });
});
