/**
 * Signing in to an OAuth-protected MCP server through the built binary: `pig mcp login` against a
 * real server made with the official MCP SDK (the test is the browser: it follows the page pig
 * prints and lands on pig's loopback callback), the sign-in stored privately, and `pig mcp logout`.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approve } from "../helpers/mcp/browser-io.ts";
import { startOAuthMcpServer, type OAuthMcpServer, type OAuthMcpServerOptions } from "../helpers/mcp/oauth-mcp-server.ts";
import { PigProcess } from "../helpers/login-process.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";

const servers: OAuthMcpServer[] = [];
const worlds: PigWorld[] = [];
const running: PigProcess[] = [];
afterEach(async () => {
  for (const pig of running.splice(0)) pig.proc.kill("SIGKILL");
  await Promise.all([...servers.splice(0).map((server) => server.close()), ...worlds.splice(0).map((world) => world.close())]);
});

async function setUp(options: OAuthMcpServerOptions = {}) {
  const mcp = await startOAuthMcpServer(options);
  servers.push(mcp);
  const world = await createWorld();
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

describe("pig mcp login", () => {
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
});
