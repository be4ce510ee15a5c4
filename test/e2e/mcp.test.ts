/**
 * MCP through the built binary, against real servers written with the official MCP SDK: a stdio
 * server pig starts and a streamable-HTTP server in this process. The model's request declares
 * the servers' tools under their `mcp__<server>__` names; a call reaches the server and its
 * result the model (an `isError` result as an error); a server that fails to start is reported
 * once while the others work; a disabled server is not started; a tool the server adds while
 * connected is declared to the next prompt; `/mcp` reports and acts in RPC mode.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { extensionWorlds, onlySessionEntries } from "../helpers/extension-worlds.ts";
import { startMcpHttpServer } from "../helpers/mcp/http-server.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { afterAll } from "bun:test";

const { world, track } = extensionWorlds();
const STDIO_SERVER = join(import.meta.dir, "..", "helpers", "mcp", "stdio-server.ts");
type Json = Record<string, any>;

const stdio = (label: string, extra: Json = {}) => ({ command: process.execPath, args: [STDIO_SERVER, label], ...extra });
const mcpJson = (servers: Json) => JSON.stringify({ mcpServers: servers }, null, 2);

const http = await startMcpHttpServer("remote");
afterAll(() => http.close());

const declaredNames = (body: Json): string[] => (body.tools ?? []).map((t: Json) => t.function?.name ?? t.name);
const toolMessages = (body: Json): string[] =>
  (body.messages as Json[]).filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : m.content.map((p: Json) => p.text ?? "").join("")));

test("-p: the tools of a stdio and an HTTP server are declared to the model under their names, and calls reach the servers", async () => {
  const w = await world(
    [
      { toolCalls: [{ name: "mcp__local__echo", arguments: { text: "hi" } }, { name: "mcp__remote__add", arguments: { a: 2, b: 5 } }] },
      { text: "done" },
    ],
    { agentFiles: { "mcp.json": mcpJson({ local: stdio("local"), remote: { url: http.url } }) } },
  );
  const run = await w.run(["-p", "use the tools"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe("done");
  const first = w.llm.requests[0]!.body as Json;
  const names = declaredNames(first);
  for (const tool of ["echo", "add", "fail", "dot", "grow"]) {
    expect(names).toContain(`mcp__local__${tool}`);
    expect(names).toContain(`mcp__remote__${tool}`);
  }
  const echo = first.tools.find((t: Json) => (t.function?.name ?? t.name) === "mcp__local__echo");
  expect(echo.function.description).toBe("Echoes the text back (local)");
  expect(echo.function.parameters.properties.text.type).toBe("string");
  expect(toolMessages(w.llm.requests[1]!.body as Json)).toEqual(["local echo: hi", "7"]);
});

test("-p: the stdio server is stopped when pig exits", async () => {
  const w = await world();
  const pidFile = join(w.cwd, "server.pid");
  writeFileSync(join(w.agentDir, "mcp.json"), mcpJson({ local: stdio("local", { env: { MCP_TEST_PID_FILE: pidFile } }) }));
  const run = await w.run(["-p", "hello"]);
  expect(run.code).toBe(0);
  const pid = Number(readFileSync(pidFile, "utf8"));
  expect(pid).toBeGreaterThan(0);
  // pig waits for its servers to stop before it exits: the process is gone by now.
  expect(() => process.kill(pid, 0)).toThrow();
});

test("--tools keeps the MCP tools unless it names some, as upstream's does; --exclude-tools takes mcp__ patterns", async () => {
  const w = await world(undefined, { agentFiles: { "mcp.json": mcpJson({ local: stdio("local"), remote: { url: http.url } }) } });
  const mcpNames = () => declaredNames(w.llm.requests.at(-1)!.body as Json).filter((n) => n !== "read");
  const plain = await w.run(["-p", "--tools", "read", "hello"]);
  expect(plain.stderr).toBe("");
  expect(mcpNames()).toHaveLength(10);
  await w.run(["-p", "--tools", "read,mcp__remote__*", "hello"]);
  expect(mcpNames().sort()).toEqual(["add", "dot", "echo", "fail", "grow"].map((t) => `mcp__remote__${t}`));
  await w.run(["-p", "--exclude-tools", "mcp__local__*,mcp__remote__grow", "hello"]);
  expect(declaredNames(w.llm.requests.at(-1)!.body as Json).filter((n) => n.startsWith("mcp__")).sort()).toEqual(["add", "dot", "echo", "fail"].map((t) => `mcp__remote__${t}`));
});

test("--no-mcp: no server is started for the run", async () => {
  const w = await world(undefined, { agentFiles: { "mcp.json": mcpJson({ local: stdio("local") }) } });
  const run = await w.run(["-p", "--no-mcp", "hello"]);
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe("ok");
  expect(declaredNames(w.llm.requests[0]!.body as Json).some((n) => n.startsWith("mcp__"))).toBe(false);
});

test("-p: an isError result reaches the model as the tool's error, and the session records it so", async () => {
  const w = await world([{ toolCalls: [{ name: "mcp__local__fail", arguments: {} }] }, { text: "noted" }], {
    agentFiles: { "mcp.json": mcpJson({ local: stdio("local") }) },
  });
  const run = await w.run(["-p", "try it"]);
  expect(run.code).toBe(0);
  expect(toolMessages(w.llm.requests[1]!.body as Json)).toEqual(["the disk is full"]);
  const result = onlySessionEntries(join(w.agentDir, "sessions")).find((e) => e.type === "message" && e.message.role === "toolResult")!.message;
  expect(result.isError).toBe(true);
  expect(result.content).toEqual([{ type: "text", text: "the disk is full" }]);
});

test("-p: a server that fails to start is reported once with its stderr, a disabled one is not started, the others work", async () => {
  const w = await world([{ toolCalls: [{ name: "mcp__good__echo", arguments: { text: "still here" } }] }, { text: "ok" }], {
    agentFiles: {
      "mcp.json": mcpJson({
        good: stdio("good"),
        broken: stdio("broken", { env: { MCP_TEST_FAIL: "cannot open the database" } }),
        off: stdio("off", { enabled: false }),
        "bad name!": { command: "x" },
      }),
    },
  });
  const run = await w.run(["-p", "go"]);
  expect(run.code).toBe(0);
  expect(toolMessages(w.llm.requests[1]!.body as Json)).toEqual(["good echo: still here"]);
  const names = declaredNames(w.llm.requests[0]!.body as Json);
  expect(names.filter((n) => n.startsWith("mcp__")).every((n) => n.startsWith("mcp__good__"))).toBe(true);
  expect(run.stderr.match(/MCP servers need attention/g)).toHaveLength(1);
  expect(run.stderr).toContain(`config: ${join(w.agentDir, "mcp.json")}: invalid server name "bad name!"`);
  expect(run.stderr).toContain("broken: failed: the connection closed: the server exited (code 3) (stderr: cannot open the database)");
  expect(run.stderr).not.toContain("off:");
});

test("-p: what a failing server wrote reaches the terminal through the sanitiser: escape sequences are shown, not obeyed", async () => {
  const w = await world(undefined, { agentFiles: { "mcp.json": mcpJson({ evil: stdio("evil", { env: { MCP_TEST_FAIL: "\u001b]0;pwned\u0007\u001b[2J gone" } }) }) } });
  const run = await w.run(["-p", "hello"]);
  expect(run.code).toBe(0);
  // The stderr line is there, its control characters made visible.
  expect(run.stderr).toContain("evil: failed: the connection closed: the server exited (code 3) (stderr: ␛]0;pwned␇␛[2J gone)");
  expect(run.stderr).not.toContain("\u001b");
  expect(run.stderr).not.toContain("\u0007");
});

test("a project's mcp.json is read only when the project is trusted; its entry without a command switches a user's server off there", async () => {
  const w = await world(undefined, {
    agentFiles: { "mcp.json": mcpJson({ local: stdio("local") }) },
    files: { ".pig/mcp.json": mcpJson({ local: { enabled: false }, proj: stdio("proj") }) },
  });
  const untrusted = await w.run(["-p", "hello"]);
  expect(untrusted.code).toBe(0);
  expect(untrusted.stderr).toContain(".pig/mcp.json");
  const before = declaredNames(w.llm.requests.at(-1)!.body as Json).filter((n) => n.startsWith("mcp__"));
  expect(before).toContain("mcp__local__echo");
  expect(before.some((n) => n.startsWith("mcp__proj__"))).toBe(false);

  const trusted = await w.run(["-p", "--trust", "hello"]);
  expect(trusted.code).toBe(0);
  const after = declaredNames(w.llm.requests.at(-1)!.body as Json).filter((n) => n.startsWith("mcp__"));
  expect(after).toContain("mcp__proj__echo");
  expect(after.some((n) => n.startsWith("mcp__local__"))).toBe(false);
});

async function mcpStatus(client: RpcClient, args = ""): Promise<string> {
  const from = client.lines.length;
  const response = await client.request({ type: "prompt", message: `/mcp${args ? ` ${args}` : ""}` });
  expect(response.success).toBe(true);
  const line = await client.waitFor((l, i) => i >= from && l.type === "extension_ui_request" && l.method === "notify", 20_000, from);
  return String(line.message);
}

test("rpc: /mcp lists the servers, a tool the server adds is declared to the next prompt, and disable/enable are saved in mcp.json", async () => {
  const w = await world(
    [
      { toolCalls: [{ name: "mcp__local__grow", arguments: {} }] },
      { text: "grown" },
      { toolCalls: [{ name: "mcp__local__late_tool", arguments: { n: 7 } }] },
      { text: "late done" },
    ],
    { agentFiles: { "mcp.json": mcpJson({ local: stdio("local") }) } },
  );
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env }));
  const commands = await client.request({ type: "get_commands" });
  expect((commands.data as Json).commands.find((c: Json) => c.name === "mcp")).toMatchObject({ source: "extension", sourceInfo: { path: "builtin:mcp" } });
  expect(await mcpStatus(client)).toBe(`local: connected · 5 tools (user: ${join(w.agentDir, "mcp.json")})`);

  await client.promptAndWait("grow");
  // The server announced its new tool; pig lists the tools again.
  for (;;) {
    const status = await mcpStatus(client);
    if (status.includes("6 tools")) break;
  }
  await client.promptAndWait("use it");
  expect(declaredNames(w.llm.requests[2]!.body as Json)).toContain("mcp__local__late_tool");
  expect(toolMessages(w.llm.requests[3]!.body as Json)).toContain("late 14");

  expect(await mcpStatus(client, "disable local")).toBe('Disabled MCP server "local".');
  expect(JSON.parse(readFileSync(join(w.agentDir, "mcp.json"), "utf8")).mcpServers.local.enabled).toBe(false);
  expect(await mcpStatus(client)).toBe(`local: disabled (user: ${join(w.agentDir, "mcp.json")})`);
  expect(await mcpStatus(client, "enable local")).toBe('Enabled MCP server "local" (connected · 5 tools).');
  expect(JSON.parse(readFileSync(join(w.agentDir, "mcp.json"), "utf8")).mcpServers.local.enabled).toBeUndefined();
  expect(await mcpStatus(client, "reconnect nosuch")).toBe('No MCP server named "nosuch".');
});

test("an extension that registers its own /mcp replaces the built-in support: no mcp.json server is started", async () => {
  const w = await world(undefined, {
    agentFiles: { "mcp.json": mcpJson({ local: stdio("local") }) },
    files: { "ext/adapter.ts": `export default function (pi) { pi.registerCommand("mcp", { description: "adapter", handler: async (_a, ctx) => ctx.ui.notify("adapter's mcp", "info") }); }` },
  });
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", join(w.cwd, "ext", "adapter.ts")] }));
  expect(await mcpStatus(client)).toBe("adapter's mcp");
  await client.promptAndWait("hello");
  expect(declaredNames(w.llm.requests[0]!.body as Json).some((n) => n.startsWith("mcp__"))).toBe(false);
});

test("rpc: without any mcp.json, /mcp is listed as upstream's built-in command and says that no server is configured", async () => {
  const w = await world();
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env }));
  const commands = await client.request({ type: "get_commands" });
  expect((commands.data as Json).commands.find((c: Json) => c.name === "mcp")).toMatchObject({ source: "extension", sourceInfo: { path: "builtin:mcp" } });
  expect(await mcpStatus(client)).toStartWith("No MCP servers configured.");
  // Loaded by that first use: an action on an unknown server is answered, not refused.
  expect(await mcpStatus(client, "reconnect nope")).toBe('No MCP server named "nope".');
});
