// `/mcp`'s menu for an OAuth-protected server, with the real server list and a real server made
// with the official MCP SDK: "Sign in" comes first while the server needs it, signing in
// reconnects it, and "Sign out" deletes the sign-in and leaves the server needing it again.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CredentialVars } from "../../src/ai/credential-vars.ts";
import { HEADLESS_UI, type ExtensionUI } from "../../src/extensions/ui.ts";
import { McpAuthorizers } from "../../src/mcp/oauth/index.ts";
import { McpServers } from "../../src/mcp/servers.ts";
import { mcpCommand } from "../../src/runtime/mcp-command.ts";
import { approve } from "../helpers/mcp/browser-io.ts";
import { startOAuthMcpServer, type OAuthMcpServer } from "../helpers/mcp/oauth-mcp-server.ts";
import { tempDir } from "../helpers/tmp.ts";

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function setUp(): Promise<{ mcp: OAuthMcpServer; servers: McpServers; authorizers: McpAuthorizers }> {
  const mcp = await startOAuthMcpServer();
  stops.push(() => mcp.close());
  const agentDir = tempDir();
  writeFileSync(join(agentDir, "mcp.json"), JSON.stringify({ mcpServers: { docs: { url: mcp.url } } }));
  let servers: McpServers | undefined;
  const authorizers = new McpAuthorizers({ agentDir, env: {}, oauthOf: (name) => servers?.find(name)?.config.oauth });
  servers = new McpServers({
    agentDir,
    cwd: agentDir,
    trusted: true,
    launch: { cwd: agentDir, env: {}, credentials: () => new CredentialVars(), authorizerFor: (name, url) => authorizers.for(name, url) },
    info: { name: "pig", version: "test" },
    tools: { register: () => {}, unregister: () => {}, activate: () => {} },
    report: () => {},
  });
  const started = servers;
  stops.push(() => started.close());
  started.start();
  await started.settled();
  return { mcp, servers: started, authorizers };
}

/** A UI that picks `picks` in turn, lets the "browser" follow a shown page, and records the rest. */
function menuUI(picks: string[]) {
  const menus: { title: string; options: readonly string[] }[] = [];
  const notices: string[] = [];
  const ui: ExtensionUI = {
    ...HEADLESS_UI,
    hasUI: true,
    async select(title, options) {
      menus.push({ title, options });
      const wanted = picks.shift();
      return options.find((option) => option === wanted || option.startsWith(`${wanted} —`));
    },
    input: (_title, _placeholder, opts) => new Promise((resolve) => opts?.signal?.addEventListener("abort", () => resolve(undefined))),
    notify(message) {
      notices.push(message);
      const url = message.split("\n").find((line) => line.includes("/authorize?"));
      if (url) void approve(url).then((target) => fetch(target));
    },
  };
  return { ui, menus, notices };
}

test("/mcp's menu signs in to a server that needs it, then signs out of it", async () => {
  const { servers, authorizers, mcp } = await setUp();
  const command = mcpCommand(servers, true, { servers, authorizers, env: {}, interactive: false });
  expect(servers.rows()[0]?.state).toBe("needs sign-in");

  const signIn = menuUI(["docs", "Sign in"]);
  await command.handler("", { ui: signIn.ui, hasUI: true });
  expect(signIn.menus[1]).toEqual({ title: "docs: needs sign-in", options: ["Sign in", "Reconnect", "Disable", "Details"] });
  expect(signIn.notices.at(-2)).toStartWith('Signed in to MCP server "docs"; saved in ');
  expect(signIn.notices.at(-1)).toBe('Reconnected to MCP server "docs" (connected · 1 tool).');
  expect(mcp.log.codeExchanges).toBe(1);

  const signOut = menuUI(["docs", "Sign out"]);
  await command.handler("", { ui: signOut.ui, hasUI: true });
  expect(signOut.menus[1]).toEqual({ title: "docs: connected · 1 tool", options: ["Reconnect", "Disable", "Sign out", "Details"] });
  expect(signOut.notices[0]).toStartWith('Signed out of MCP server "docs": its tokens and registered client are deleted from ');
  expect(signOut.notices[1]).toBe('MCP server "docs": needs sign-in');
  expect(await command.getArgumentCompletions!("logout ")).toBeNull();
  expect(await command.getArgumentCompletions!("login d")).toEqual([{ value: "login docs", label: "docs", description: "needs sign-in" }]);
});
