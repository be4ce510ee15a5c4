/**
 * MCP tools under the tool API of upstream Pi 1.6.0, through the built binary against real
 * servers written with the official MCP SDK: a `deferred` server's tools are not declared, the
 * system prompt's `mcp_servers` section names the server, `tool_search` (active because of it)
 * loads a tool, which the next request declares and the model calls; `direct` and `codemode`
 * tools are declared from the first request; `hidden` ones never. Extensions see each tool's
 * exposure, namespace, annotations and output schema, and a tool calling an MCP tool gets the
 * whole result as `structuredContent`, an `isError` one as an error.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { startMcpHttpServer } from "../helpers/mcp/http-server.ts";

const { world } = extensionWorlds();
const STDIO_SERVER = join(import.meta.dir, "..", "helpers", "mcp", "stdio-server.ts");
type Json = Record<string, any>;

const stdio = (label: string, extra: Json = {}) => ({ command: process.execPath, args: [STDIO_SERVER, label], ...extra });
const mcpJson = (servers: Json) => JSON.stringify({ mcpServers: servers }, null, 2);
const declaredNames = (body: Json): string[] => (body.tools ?? []).map((t: Json) => t.function?.name ?? t.name);
const systemText = (body: Json): string => {
  const system = (body.messages as Json[]).find((m) => m.role === "system" || m.role === "developer");
  return typeof system?.content === "string" ? system.content : (system?.content ?? []).map((p: Json) => p.text ?? "").join("");
};
const toolMessages = (body: Json): string[] =>
  (body.messages as Json[]).filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : m.content.map((p: Json) => p.text ?? "").join("")));

const http = await startMcpHttpServer("remote");
afterAll(() => http.close());

test("-p: a deferred server's tool is loaded by tool_search, then declared and called; direct tools are declared at once, hidden ones never", async () => {
  const w = await world(
    [{ toolCalls: [{ name: "tool_search", arguments: { query: "mcp__docs__echo" } }] }, { toolCalls: [{ name: "mcp__docs__echo", arguments: { text: "found" } }] }, { text: "done" }],
    {
      agentFiles: {
        "mcp.json": mcpJson({
          docs: stdio("docs", { exposure: "deferred", description: "Looks things up in the team's documentation" }),
          remote: { url: http.url, exposure: "direct", toolExposure: { fail: "hidden", "gr*": "deferred" } },
        }),
      },
    },
  );
  const run = await w.run(["-p", "look it up"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe("done");

  const [first, second, third] = w.llm.requests.map((r) => r.body as Json);
  const firstNames = declaredNames(first!);
  expect(firstNames).toContain("tool_search");
  expect(firstNames.filter((n) => n.startsWith("mcp__")).sort()).toEqual(["mcp__remote__add", "mcp__remote__dot", "mcp__remote__echo"]);
  const system = systemText(first!);
  expect(system).toContain("<mcp_servers>");
  expect(system).toContain("- mcp__docs: Looks things up in the team's documentation");
  expect(system).toContain("- mcp__remote");
  // tool_search waited for the deferred server, then loaded the tool the model named.
  expect(toolMessages(second!)[0]).toContain("mcp__docs__echo");
  expect(declaredNames(second!)).toContain("mcp__docs__echo");
  expect(declaredNames(second!)).not.toContain("mcp__remote__fail");
  expect(toolMessages(third!).at(-1)).toBe("docs echo: found");
});

test("codemode (the default) is declared directly; a server without deferred tools adds no mcp_servers section", async () => {
  const w = await world(undefined, { agentFiles: { "mcp.json": mcpJson({ local: stdio("local") }) } });
  const run = await w.run(["-p", "hello"]);
  expect(run.code).toBe(0);
  const body = w.llm.requests[0]!.body as Json;
  expect(declaredNames(body).filter((n) => n.startsWith("mcp__")).sort()).toEqual(["add", "dot", "echo", "fail", "grow"].map((t) => `mcp__local__${t}`));
  expect(declaredNames(body)).not.toContain("tool_search");
  expect(systemText(body)).not.toContain("mcp_servers");
});

const EXTENSION = `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default function (pi) {
  pi.registerTool({
    name: "inspect", label: "Inspect", description: "Looks at the MCP tools", parameters: { type: "object", properties: {} },
    async execute(_id, _params, _signal, _onUpdate, ctx) {
      const tools = Object.fromEntries(pi.getAllTools().filter((t) => t.name.startsWith("mcp__")).map((t) => [t.name, { exposure: t.exposure, namespace: t.namespace, annotations: t.annotations ?? null }]));
      const outputSchema = ctx.tools.find((t) => t.name === "mcp__local__add")?.outputSchema ?? null;
      const add = await ctx.executeTool("mcp__local__add", { a: 2, b: 3 });
      const fail = await ctx.executeTool("mcp__local__fail", {});
      writeFileSync(join(process.cwd(), "seen.json"), JSON.stringify({ tools, outputSchema, add: { isError: add.isError, structured: add.result.structuredContent }, fail: { isError: fail.isError, structured: fail.result.structuredContent } }));
      return { content: [{ type: "text", text: "inspected" }], details: {} };
    },
  });
}
`;

test("extensions see an MCP tool's exposure, namespace, annotations and output schema; a calling tool gets the result as structuredContent", async () => {
  const w = await world([{ toolCalls: [{ name: "inspect", arguments: {} }] }, { text: "done" }], {
    agentFiles: { "mcp.json": mcpJson({ local: stdio("local", { description: "Local test tools", toolExposure: { dot: "deferred" } }) }) },
    files: { "ext/inspect.ts": EXTENSION },
  });
  const run = await w.run(["-p", "-e", join(w.cwd, "ext", "inspect.ts"), "inspect"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const seen = JSON.parse(readFileSync(join(w.cwd, "seen.json"), "utf8")) as Json;
  const namespace = { name: "mcp__local", aliases: ["local"], description: "Local test tools", instructions: "Test server local." };
  expect(seen.tools.mcp__local__echo).toMatchObject({ exposure: "direct", namespace, annotations: { readOnlyHint: true } });
  expect(seen.tools.mcp__local__dot).toMatchObject({ exposure: "deferred", namespace, annotations: null });
  // The output schema is ctx.tools' (getAllTools leaves it out, as upstream's does).
  const schema = seen.outputSchema;
  expect(schema).toMatchObject({ type: "object", required: ["content"], properties: { isError: { type: "boolean" }, structuredContent: { type: "object", properties: { sum: { type: "number" } } } } });
  expect(seen.add).toEqual({ isError: false, structured: { content: [{ type: "text", text: "5" }], structuredContent: { sum: 5 } } });
  expect(seen.fail).toEqual({ isError: true, structured: { content: [{ type: "text", text: "the disk is full" }], isError: true } });
});
