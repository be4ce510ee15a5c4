/**
 * `/mcp` in the interactive mode (tmux, the built binary, real stdio MCP servers): a server that
 * failed at start is reported once; the list shows each server with its state and tool count;
 * picking one offers what can be done to it — its details show the failed server's stderr, and
 * disabling a server closes it, drops its tools and is saved in mcp.json.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();
const STDIO_SERVER = join(import.meta.dir, "..", "helpers", "mcp", "stdio-server.ts");
const stdio = (label: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [STDIO_SERVER, label], ...extra });

describeNeeding("tmux", tmuxAvailable(), "/mcp", () => {
  test("the list shows state and tools, a failed server's details show its stderr, and disabling is saved", async () => {
    const { world, tmux } = await start(undefined, {
      agentFiles: {
        "mcp.json": JSON.stringify({ mcpServers: { local: stdio("local"), broken: stdio("broken", { env: { MCP_TEST_FAIL: "cannot open the database" } }) } }, null, 2),
      },
    });
    await tmux.waitFor(/MCP servers need attention:[\s\S]*broken: failed/);

    tmux.type("/mcp");
    tmux.sendKeys("Enter");
    let screen = await tmux.waitFor("local — connected · 5 tools");
    expect(screen).toContain("MCP servers");
    expect(screen).toMatch(/broken — failed: the connection closed: the server exited \(code 3\)/);
    tmux.sendKeys("Down");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Details");
    tmux.sendKeys("Down");
    tmux.sendKeys("Down");
    tmux.sendKeys("Enter");
    // The start-up notice already shows "(stderr: …)": wait for the details' own lines.
    screen = await tmux.waitFor(`defined in ${join(world.agentDir, "mcp.json")} (user)`);
    expect(screen).toMatch(/(^|[^(])stderr: cannot open the database/m);

    tmux.type("/mcp");
    tmux.sendKeys("Enter");
    await tmux.waitFor("local — connected · 5 tools");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Disable");
    tmux.sendKeys("Down");
    tmux.sendKeys("Enter");
    await tmux.waitFor('Disabled MCP server "local".');
    expect(JSON.parse(readFileSync(join(world.agentDir, "mcp.json"), "utf8")).mcpServers.local.enabled).toBe(false);

    tmux.type("/mcp");
    tmux.sendKeys("Enter");
    await tmux.waitFor("local — disabled");
  });
});
