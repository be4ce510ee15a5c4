/**
 * pig's MCP client against real servers made with the official SDK: a stdio child process and a
 * streamable-HTTP server. Version negotiation, paged listing, calls with text, structured and
 * error results, the server's list_changed notification, a server that exits at start with its
 * stderr kept, and the authorizer's part in a 401.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { McpClient } from "../../src/mcp/client.ts";
import { HttpTransport, McpNeedsSignIn } from "../../src/mcp/http-transport.ts";
import { StdioTransport } from "../../src/mcp/stdio-transport.ts";
import { startMcpHttpServer, type McpHttpServer } from "../helpers/mcp/http-server.ts";

const STDIO_SERVER = join(import.meta.dir, "..", "helpers", "mcp", "stdio-server.ts");
const info = { name: "pig-test", version: "0.0.0" };
const servers: McpHttpServer[] = [];
const clients: McpClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

function stdioClient(env: Record<string, string> = {}): { client: McpClient; transport: StdioTransport } {
  const transport = new StdioTransport({ command: process.execPath, args: [STDIO_SERVER, "local"], cwd: process.cwd(), env: { PATH: process.env.PATH ?? "", ...env } });
  const client = new McpClient(transport, info, 20_000);
  clients.push(client);
  return { client, transport };
}

async function httpClient(options: { requireToken?: string; authorizer?: ConstructorParameters<typeof HttpTransport>[0]["authorizer"] } = {}) {
  const server = await startMcpHttpServer("remote", options.requireToken ? { requireToken: options.requireToken } : {});
  servers.push(server);
  const client = new McpClient(new HttpTransport({ url: server.url, headers: { "x-test": "1" }, ...(options.authorizer ? { authorizer: options.authorizer } : {}) }), info, 20_000);
  clients.push(client);
  return { client, server };
}

function waitForNotification(client: McpClient, method: string): Promise<void> {
  return new Promise((resolve) => {
    const off = client.onNotification(method, () => {
      off();
      resolve();
    });
  });
}

for (const kind of ["stdio", "http"] as const) {
  test(`${kind}: initialize agrees on a version, the tools are listed and called, and a tool added later is announced`, async () => {
    const client = kind === "stdio" ? stdioClient().client : (await httpClient()).client;
    const init = await client.connect();
    expect(init.protocolVersion).toBe("2025-11-25");
    expect(init.serverInfo.name).toBe(kind === "stdio" ? "test-local" : "test-remote");
    const tools = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["add", "dot", "echo", "fail", "grow"]);
    expect(tools.find((t) => t.name === "echo")?.annotations?.readOnlyHint).toBe(true);

    const echo = await client.callTool("echo", { text: "hi" });
    expect(echo.content).toEqual([{ type: "text", text: `${kind === "stdio" ? "local" : "remote"} echo: hi` }]);
    const add = await client.callTool("add", { a: 2, b: 3 });
    expect(add.structuredContent).toEqual({ sum: 5 });
    const fail = await client.callTool("fail", {});
    expect(fail.isError).toBe(true);

    const announced = waitForNotification(client, "notifications/tools/list_changed");
    await client.callTool("grow", {});
    await announced;
    expect((await client.listTools()).map((t) => t.name)).toContain("late_tool");
    await client.ping();
  });
}

test("stdio: a server that exits before answering fails the connection, and its stderr is kept", async () => {
  const { client, transport } = stdioClient({ MCP_TEST_FAIL: "cannot open the database" });
  await expect(client.connect()).rejects.toThrow(/closed: the server exited \(code 3\)/);
  expect(transport.stderrTail).toBe("cannot open the database");
});

test("stdio: a program that does not exist fails with its name", async () => {
  const transport = new StdioTransport({ command: "/nonexistent/mcp-server", args: [], cwd: process.cwd(), env: {} });
  const client = new McpClient(transport, info);
  await expect(client.connect()).rejects.toThrow(/cannot start \/nonexistent\/mcp-server/);
});

test("http: a 401 asks the authorizer, whose new headers are sent once more; without it the server needs a sign-in", async () => {
  const asked: number[] = [];
  let token = "stale";
  const { client } = await httpClient({
    requireToken: "fresh",
    authorizer: {
      headers: async () => ({ authorization: `Bearer ${token}` }),
      unauthorized: async (response) => {
        asked.push(response.status);
        token = "fresh";
        return true;
      },
    },
  });
  await client.connect();
  expect(asked).toEqual([401]);
  expect((await client.listTools()).length).toBe(5);

  const refused = await httpClient({ requireToken: "fresh", authorizer: { headers: async () => ({}), unauthorized: async () => false } });
  await expect(refused.client.connect()).rejects.toBeInstanceOf(McpNeedsSignIn);
});

test("http: the configured headers, the session id and the protocol version go with the requests after initialize", async () => {
  const { client, server } = await httpClient();
  await client.connect();
  await client.listTools();
  const posts = server.requests.filter((r) => r.method === "POST");
  expect(posts[0]!.headers["x-test"]).toBe("1");
  expect(posts[0]!.headers["mcp-session-id"]).toBeUndefined();
  const last = posts.at(-1)!;
  expect(typeof last.headers["mcp-session-id"]).toBe("string");
  expect(last.headers["mcp-protocol-version"]).toBe("2025-11-25");
});
