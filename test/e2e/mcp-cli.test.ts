/**
 * `pig mcp list` through the built binary, against real stdio servers made with the official
 * MCP SDK: each server's state, transport and tools, a failed server's error and stderr, the
 * config errors, exit 1 when anything needs attention; `--json`; the project's file only with
 * trust.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();
const STDIO_SERVER = join(import.meta.dir, "..", "helpers", "mcp", "stdio-server.ts");
const stdio = (label: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [STDIO_SERVER, label], ...extra });
const mcpJson = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers }, null, 2);

test("lists each server's state and tools, the failures and the config errors, and exits 1 when one needs attention", async () => {
  const w = await world(undefined, {
    agentFiles: {
      "mcp.json": mcpJson({ local: stdio("local"), broken: stdio("broken", { env: { MCP_TEST_FAIL: "no database" } }), off: stdio("off", { enabled: false }), "bad name": { command: "x" } }),
    },
  });
  const file = join(w.agentDir, "mcp.json");
  const run = await w.run(["mcp", "list"]);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe(
    [
      `local: connected, 5 tools (user: ${file})`,
      `  ${process.execPath} ${STDIO_SERVER} local`,
      "  tools: echo, add, fail, dot, grow",
      `broken: failed (user: ${file})`,
      `  ${process.execPath} ${STDIO_SERVER} broken`,
      "  the connection closed: the server exited (code 3)",
      "  stderr: no database",
      `off: disabled (user: ${file})`,
      `  ${process.execPath} ${STDIO_SERVER} off`,
      `config error: ${file}: invalid server name "bad name" (use letters, digits, "_" and "-")`,
      "",
    ].join("\n"),
  );

  const json = await w.run(["mcp", "list", "--json"]);
  const parsed = JSON.parse(json.stdout);
  expect(parsed.servers.map((s: { name: string; state: string }) => `${s.name}=${s.state}`)).toEqual(["local=connected", "broken=failed", "off=disabled"]);
  expect(parsed.errors).toHaveLength(1);
});

test("exits 0 when every enabled server connects; the project's file counts only with trust", async () => {
  const w = await world(undefined, { agentFiles: { "mcp.json": mcpJson({ local: stdio("local") }) }, files: { ".pig/mcp.json": mcpJson({ proj: stdio("proj") }) } });
  const untrusted = await w.run(["mcp", "list"]);
  expect(untrusted.code).toBe(0);
  expect(untrusted.stdout).toStartWith(`local: connected, 5 tools`);
  expect(untrusted.stdout).not.toContain("proj");
  expect(untrusted.stderr).toContain("the project's .pig/mcp.json is left out: the project is not trusted (--trust includes it)");
  const trusted = await w.run(["mcp", "list", "--trust"]);
  expect(trusted.code).toBe(0);
  expect(trusted.stdout).toContain(`proj: connected, 5 tools (project: ${join(w.cwd, ".pig", "mcp.json")})`);
  const none = await world();
  const empty = await none.run(["mcp", "list"]);
  expect(empty.stdout).toBe(`No MCP servers configured. Add them to ${none.agentDir}/mcp.json or .pig/mcp.json.\n`);
  expect((await none.run(["mcp", "lst"])).stderr).toContain("pig: mcp: unknown subcommand lst (those there are: list, login, logout)");
});
