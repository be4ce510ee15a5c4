/**
 * A streamable-HTTP MCP server made with the official SDK, in the test's own process: one SDK
 * transport per session (the session id header), on a free port of 127.0.0.1.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpSessions } from "./sessions.ts";
import { addTestTools } from "./tools.ts";

export interface McpHttpServer {
  url: string;
  /** Headers of every request received. */
  requests: { method: string; headers: Record<string, string | string[] | undefined> }[];
  close(): Promise<void>;
}

export async function startMcpHttpServer(label = "http", options: { requireToken?: string } = {}): Promise<McpHttpServer> {
  const sessions = new McpSessions(() => {
    const server = new McpServer({ name: `test-${label}`, version: "1.0.0" });
    addTestTools(server, label);
    return server;
  });
  const requests: McpHttpServer["requests"] = [];
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? "", headers: req.headers });
    if (options.requireToken && req.headers.authorization !== `Bearer ${options.requireToken}`) {
      res.writeHead(401, { "www-authenticate": 'Bearer realm="test"' }).end();
      return;
    }
    await sessions.handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: async () => {
      await sessions.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
