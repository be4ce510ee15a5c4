/**
 * The tool registry: every tool with where it came from, the active ones, and the limits
 * `--tools` / `--no-tools` keep over tools that arrive later; the next prompt declares the
 * tools active then.
 */
import { describe, expect, test } from "bun:test";
import { ToolRegistry, type ToolsChange } from "../../src/agent/tool-registry.ts";
import { makeSession, tool } from "../helpers/scripted-session.ts";

const read = tool("read", async () => "r");
const bash = tool("bash", async () => "b");
const extra = tool("extra", async () => "e");

describe("ToolRegistry", () => {
  test("exposure and defaultActive decide what registering activates; hidden tools cannot be activated; callable tools are the active direct ones and every codemode or deferred one", () => {
    const registry = new ToolRegistry([{ tool: read, source: { kind: "builtin" } }], [read]);
    const ext = { kind: "extension" as const, path: "/ext/a.ts" };
    registry.register({ ...tool("later", async () => "l"), defaultActive: false }, ext);
    registry.register({ ...tool("deferred", async () => "d"), exposure: "deferred" }, ext);
    registry.register({ ...tool("script", async () => "s"), exposure: "codemode" }, ext);
    registry.register({ ...tool("hidden", async () => "h"), exposure: "hidden" }, ext);
    registry.register({ ...tool("orchestrator", async () => "o"), exposure: "model-only" }, ext);
    expect(registry.activeToolNames).toEqual(["read", "orchestrator"]);
    expect(registry.callable().map((t) => t.name)).toEqual(["read", "deferred", "script"]);
    registry.setActive(["read", "later", "deferred", "hidden"]);
    expect(registry.activeToolNames).toEqual(["read", "later", "deferred"]);
    // Re-registering as hidden withdraws a tool; becoming declarable again activates it like a new one.
    registry.register({ ...tool("later", async () => "l"), exposure: "hidden" }, ext);
    expect(registry.activeToolNames).toEqual(["read", "deferred"]);
    registry.register(tool("later", async () => "l"), ext);
    expect(registry.activeToolNames).toEqual(["read", "deferred", "later"]);
  });

  test("a tool inactive by default is activated by naming it (--tools, the defaultTools setting)", () => {
    const allow = new ToolRegistry([], [], { allowlist: ["later"] });
    allow.register({ ...tool("later", async () => "l"), defaultActive: false }, { kind: "sdk" });
    expect(allow.activeToolNames).toEqual(["later"]);
    const named = new ToolRegistry([], [], { named: ["later"] });
    named.register({ ...tool("later", async () => "l"), defaultActive: false }, { kind: "sdk" });
    named.register({ ...tool("other", async () => "o"), defaultActive: false }, { kind: "sdk" });
    expect(named.activeToolNames).toEqual(["later"]);
  });

  test("a registered tool is known with its source and becomes active; every change is told", () => {
    const registry = new ToolRegistry([{ tool: read, source: { kind: "builtin" } }], [read]);
    const changes: ToolsChange[] = [];
    registry.onChange((change) => changes.push(change));
    registry.register(extra, { kind: "extension", path: "/ext/a.ts" });
    expect(registry.activeToolNames).toEqual(["read", "extra"]);
    expect(registry.get("extra")!.source).toEqual({ kind: "extension", path: "/ext/a.ts" });
    expect(registry.unregister("extra")).toBe(true);
    expect(registry.unregister("extra")).toBe(false);
    expect(registry.activeToolNames).toEqual(["read"]);
    expect(changes.map((c) => c.kind)).toEqual(["registered", "unregistered"]);
  });

  test("--tools leaves MCP tools alone unless an entry names some; entries and exclusions may be mcp__ patterns", () => {
    const echo = tool("mcp__local__echo", async () => "e");
    const add = tool("mcp__remote__add", async () => "a");
    const plain = new ToolRegistry([{ tool: read, source: { kind: "builtin" } }], [read], { allowlist: ["read"] });
    plain.register(echo, { kind: "mcp", server: "local" });
    expect(plain.activeToolNames).toEqual(["read", "mcp__local__echo"]);
    const only = new ToolRegistry([{ tool: read, source: { kind: "builtin" } }], [read], { allowlist: ["read", "mcp__remote__*"] });
    only.register(echo, { kind: "mcp", server: "local" });
    only.register(add, { kind: "mcp", server: "remote" });
    expect(only.activeToolNames).toEqual(["read", "mcp__remote__add"]);
    const without = new ToolRegistry([], [], { exclude: ["mcp__local__*"] });
    without.register(echo, { kind: "mcp", server: "local" });
    without.register(add, { kind: "mcp", server: "remote" });
    expect(without.activeToolNames).toEqual(["mcp__remote__add"]);
  });

  test("setActive takes exactly the names given, ignoring unknown ones", () => {
    const registry = new ToolRegistry([read, bash, extra].map((t) => ({ tool: t, source: { kind: "builtin" as const } })), [read]);
    registry.setActive(["extra", "nope", "bash", "extra"]);
    expect(registry.activeToolNames).toEqual(["extra", "bash"]);
    expect(registry.all().map((r) => r.tool.name)).toEqual(["read", "bash", "extra"]);
  });

  test("an allowlist keeps every other name inactive, registered or set; --no-tools activates nothing on registering", () => {
    const allow = new ToolRegistry([{ tool: read, source: { kind: "builtin" } }], [read], { allowlist: ["read"] });
    allow.register(extra, { kind: "sdk" });
    allow.setActive(["read", "extra"]);
    expect(allow.activeToolNames).toEqual(["read"]);
    const none = new ToolRegistry([], [], { noTools: true });
    none.register(extra, { kind: "extension", path: "/x.ts" });
    expect(none.activeToolNames).toEqual([]);
    // Chosen by name, it can still be used.
    none.setActive(["extra"]);
    expect(none.activeToolNames).toEqual(["extra"]);
  });

  test("a tool replacing one of the same name keeps its place", () => {
    const registry = new ToolRegistry([{ tool: read, source: { kind: "builtin" } }], [read]);
    const mine = tool("read", async () => "mine");
    registry.register(mine, { kind: "extension", path: "/e.ts" });
    expect(registry.active).toEqual([mine]);
  });
});

describe("the agent and its registry", () => {
  test("a tool registered between prompts is declared on the next prompt and can be called", async () => {
    const calls = [{ id: "c1", name: "extra", arguments: {} }];
    const { session, seen } = makeSession([{ text: "first" }, { calls }, { text: "done" }], [read]);
    await session.prompt("one");
    expect(seen[0]!.tools!.map((t) => t.name)).toEqual(["read"]);
    session.toolRegistry.register(extra, { kind: "extension", path: "/ext.ts" });
    await session.prompt("two");
    expect(seen[1]!.tools!.map((t) => t.name)).toEqual(["read", "extra"]);
    const result = session.messages.find((m) => m.role === "toolResult") as { content: { text: string }[]; isError: boolean };
    expect(result.isError).toBe(false);
    expect(result.content[0]!.text).toBe("e");
  });

  test("a deactivated tool is no longer declared, and every change of the tools is a session change", async () => {
    const { session, seen } = makeSession([{ text: "a" }], [read, bash]);
    const reasons: string[] = [];
    session.onSessionChange((change) => reasons.push(change.reason));
    session.toolRegistry.setActive(["bash"]);
    await session.prompt("go");
    expect(seen[0]!.tools!.map((t) => t.name)).toEqual(["bash"]);
    expect(reasons).toEqual(["tools"]);
  });
});
