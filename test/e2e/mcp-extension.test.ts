/**
 * MCP servers from extensions, through the built binary: `pi.registerMcpServer` while loading
 * (no mcp.json at all) connects the server and offers its tools; `pi.getMcpServers()` lists it
 * at `session_start`; a server registered later, from a command, connects then and extensions
 * that listen hear `mcp_servers_change`; an invalid config throws at the call, as upstream.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const { world, track } = extensionWorlds();
const STDIO_SERVER = join(import.meta.dir, "..", "helpers", "mcp", "stdio-server.ts");
type Json = Record<string, any>;
const declaredNames = (body: Json): string[] => (body.tools ?? []).map((t: Json) => t.function?.name ?? t.name);
const toolMessages = (body: Json): string[] => (body.messages as Json[]).filter((m) => m.role === "tool").map((m) => String(m.content));

const EXTENSION = `
const server = (label) => ({ command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(STDIO_SERVER)}, label] });
export default function (pi) {
  pi.registerMcpServer("from-ext", { ...server("ext"), description: "registered while loading" });
  let refused = "";
  try { pi.registerMcpServer("bad name", server("x")); } catch (error) { refused = error.message; }
  try { pi.registerMcpServer("nothing", { description: "no transport" }); } catch (error) { refused += " | " + error.message; }
  pi.on("session_start", (_e, ctx) => {
    ctx.ui.setStatus("mcp", "registered: " + pi.getMcpServers().map((s) => s.name + "@" + s.config.args[1]).join(","));
  });
  pi.on("mcp_servers_change", (event, ctx) => {
    ctx.ui.notify("servers now: " + event.servers.map((s) => s.name).join(","), "info");
  });
  pi.registerCommand("refused", { handler: async (_a, ctx) => ctx.ui.notify(refused, "info") });
  pi.registerCommand("add-late", { handler: async () => pi.registerMcpServer("late", server("late")) });
  pi.registerCommand("drop-late", { handler: async () => pi.unregisterMcpServer("late") });
}
`;

test("-p: a server an extension registers while loading connects without any mcp.json, and its tools are offered and called", async () => {
  const w = await world([{ toolCalls: [{ name: "mcp__from_ext__echo", arguments: { text: "via extension" } }] }, { text: "done" }], { files: { "ext/mcp.ts": EXTENSION } });
  const run = await w.run(["-p", "-e", join(w.cwd, "ext", "mcp.ts"), "go"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(declaredNames(w.llm.requests[0]!.body as Json)).toContain("mcp__from_ext__echo");
  expect(toolMessages(w.llm.requests[1]!.body as Json)).toEqual(["ext echo: via extension"]);
});

test("rpc: getMcpServers at session_start, invalid configs refused at the call, a server registered later connects and is announced", async () => {
  const w = await world([{ toolCalls: [{ name: "mcp__late__echo", arguments: { text: "late one" } }] }, { text: "ok" }], { files: { "ext/mcp.ts": EXTENSION } });
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", join(w.cwd, "ext", "mcp.ts")] }));
  await client.waitFor((l) => l.type === "extension_ui_request" && l.method === "setStatus" && l.statusText === "registered: from-ext@ext", 20_000);

  const notified = async (message: string): Promise<string> => {
    const from = client.lines.length;
    expect((await client.request({ type: "prompt", message })).success).toBe(true);
    return String((await client.waitFor((l) => l.type === "extension_ui_request" && l.method === "notify", 20_000, from)).message);
  };
  expect(await notified("/refused")).toBe(
    'Invalid MCP server registered by extension "' + join(w.cwd, "ext", "mcp.ts") + '": invalid server name "bad name" (use letters, digits, "_" and "-") | Invalid MCP server registered by extension "' + join(w.cwd, "ext", "mcp.ts") + '": server "nothing": needs either "command" (stdio) or "url" (streamable HTTP)',
  );
  expect(await notified("/mcp")).toBe(`from-ext: connected · 5 tools (extension: ${join(w.cwd, "ext", "mcp.ts")})`);

  expect(await notified("/add-late")).toBe("servers now: from-ext,late");
  // The late server connects in the background; /mcp tells when it is there.
  for (;;) {
    const status = await notified("/mcp");
    if (status.includes("late: connected · 5 tools")) break;
  }
  await client.promptAndWait("use the late server");
  expect(declaredNames(w.llm.requests[0]!.body as Json)).toContain("mcp__late__echo");
  expect(toolMessages(w.llm.requests[1]!.body as Json)).toEqual(["late echo: late one"]);

  expect(await notified("/drop-late")).toBe("servers now: from-ext");
  for (;;) {
    const status = await notified("/mcp");
    if (!status.includes("late:")) break;
  }
});
