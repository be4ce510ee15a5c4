/**
 * mcp.json as upstream Pi 1.6.0 reads it: the user's file, then a trusted project's, whose
 * override entries touch only enabled/exposure/toolExposure; errors name the file, the server and
 * the field, and the other servers are still read; enabling and disabling is saved in place.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadMcpConfig, saveServerEnabled, validateServerEntry } from "../../src/mcp/config.ts";
import { mcpNamespace, mcpToolName } from "../../src/mcp/naming.ts";
import { tempDir } from "../helpers/tmp.ts";

function dirs(user?: unknown, project?: unknown) {
  const agentDir = tempDir("mcp-agent-");
  const cwd = tempDir("mcp-cwd-");
  if (user !== undefined) writeFileSync(join(agentDir, "mcp.json"), typeof user === "string" ? user : JSON.stringify(user, null, 4));
  if (project !== undefined) {
    mkdirSync(join(cwd, ".pig"));
    writeFileSync(join(cwd, ".pig", "mcp.json"), JSON.stringify(project));
  }
  return { agentDir, cwd };
}

describe("validateServerEntry", () => {
  test("command means stdio, url means streamable HTTP, type must agree", () => {
    expect(validateServerEntry("a", { command: "srv", args: ["x"] })).toMatchObject({ transport: "stdio", command: "srv" });
    expect(validateServerEntry("b", { url: "https://x.test/mcp" })).toMatchObject({ transport: "http", url: "https://x.test/mcp" });
    expect(validateServerEntry("c", { type: "streamable-http", url: "http://127.0.0.1/mcp" })).toMatchObject({ transport: "http" });
    expect(validateServerEntry("d", { type: "http", command: "srv" })).toBe('server "d": needs either "command" (stdio) or "url" (streamable HTTP)');
  });

  test("each mistake names the server and the field", () => {
    expect(validateServerEntry("a", { command: "srv", args: "x" })).toBe('server "a": args must be a list of strings');
    expect(validateServerEntry("a", { command: "srv", env: { K: 1 } })).toBe('server "a": env.K must map names to strings');
    expect(validateServerEntry("a", { command: "srv", timeout: -1 })).toBe('server "a": timeout must be a positive number of seconds');
    expect(validateServerEntry("a", { command: "srv", exposure: "visible" })).toBe('server "a": exposure must be one of "codemode", "deferred", "direct", "hidden"');
    expect(validateServerEntry("a", { url: "ftp://x" })).toBe('server "a": url must be an http or https URL');
    expect(validateServerEntry("a", { type: "sse", url: "https://x/sse" })).toContain("legacy SSE transport is not supported");
    expect(validateServerEntry("a b", { command: "srv" })).toBe('invalid server name "a b" (use letters, digits, "_" and "-")');
    expect(validateServerEntry("a", [])).toBe('server "a": must be an object');
  });

  test("the old exposure name is read as its current one", () => {
    expect(validateServerEntry("a", { command: "srv", exposure: "codemode-deferred", toolExposure: { "get_*": "codemode-deferred" } })).toMatchObject({ exposure: "codemode", toolExposure: { "get_*": "codemode" } });
  });
});

describe("loadMcpConfig", () => {
  test("a trusted project's entry replaces the user's; an override only changes enabled and exposure, keeping the rest", () => {
    const { agentDir, cwd } = dirs(
      { mcpServers: { a: { command: "user-a", env: { TOKEN: "secret" } }, b: { command: "user-b" } } },
      { mcpServers: { a: { enabled: false }, b: { command: "project-b" }, c: { url: "https://c.test/mcp" } } },
    );
    const loaded = loadMcpConfig(agentDir, cwd, true);
    expect(loaded.errors).toEqual([]);
    const byName = Object.fromEntries(loaded.servers.map((s) => [s.name, s]));
    expect(byName.a!.config).toMatchObject({ command: "user-a", env: { TOKEN: "secret" }, enabled: false });
    expect(byName.a!.override).toBe(join(cwd, ".pig", "mcp.json"));
    expect(byName.b!.config).toMatchObject({ command: "project-b" });
    expect(byName.b!.scope).toBe("project");
    expect(byName.c!.config.transport).toBe("http");
    expect(loadMcpConfig(agentDir, cwd, false).servers.map((s) => s.name)).toEqual(["a", "b"]);
  });

  test("bad entries are errors naming the file; the others are read", () => {
    const { agentDir, cwd } = dirs(
      { mcpServers: { good: { command: "ok" }, bad: { command: 3 }, "my-srv": { command: "x" }, my_srv: { command: "y" } } },
      { mcpServers: { ghost: { enabled: false }, good: { enabled: true, args: ["x"] }, keyed: { url: "https://k.test", auth: { provider: "anthropic" } } } },
    );
    const loaded = loadMcpConfig(agentDir, cwd, true);
    const user = join(agentDir, "mcp.json");
    const project = join(cwd, ".pig", "mcp.json");
    expect(loaded.servers.map((s) => s.name)).toEqual(["good", "my-srv"]);
    expect(loaded.errors).toEqual([
      `${user}: server "bad": command must be a string`,
      `${user}: server "my_srv" conflicts with "my-srv" (names that differ only in "-" and "_" are the same server)`,
      `${project}: server "ghost" needs "command" or "url", or a server of the user's mcp.json to override`,
      `${project}: server "good": an override can only set enabled, exposure, toolExposure (not args)`,
      `${project}: server "keyed": auth is only allowed in the user's mcp.json`,
    ]);
  });

  test("a file that is not JSON, or not an object of servers, is one error", () => {
    expect(loadMcpConfig(...Object.values(dirs("{ nope")) as [string, string], false).errors[0]).toMatch(/mcp\.json: not valid JSON/);
    expect(loadMcpConfig(...Object.values(dirs({ mcpServers: [] })) as [string, string], false).errors[0]).toMatch(/mcp\.json: "mcpServers" must be an object/);
  });

  test("enabling and disabling is saved in the file, keeping its other content and indentation", () => {
    const { agentDir } = dirs({ other: 1, mcpServers: { a: { command: "srv" } } });
    const path = join(agentDir, "mcp.json");
    saveServerEnabled(path, "a", false);
    expect(readFileSync(path, "utf8")).toBe(`{\n    "other": 1,\n    "mcpServers": {\n        "a": {\n            "command": "srv",\n            "enabled": false\n        }\n    }\n}\n`);
    saveServerEnabled(path, "a", true);
    expect(JSON.parse(readFileSync(path, "utf8")).mcpServers.a).toEqual({ command: "srv" });
  });
});

describe("naming", () => {
  test("tool names are mcp__<server>__<tool> with other characters made _, and a hash when too long or taken", () => {
    expect(mcpToolName("git-hub", "get.issue")).toBe("mcp__git_hub__get_issue");
    const long = mcpToolName("server", "x".repeat(80));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
    expect(mcpToolName("s", "a-b", (n) => n === "mcp__s__a_b")).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(mcpNamespace("dev-radius")).toBe(mcpNamespace("dev_radius"));
  });
});
