/**
 * The MCP sessions of a test's streamable-HTTP server: one SDK transport per session (the
 * `mcp-session-id` header), made at `initialize` with a fresh `McpServer`, and kept until the
 * client ends it or the server closes — never closed while an answer is still on its way.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export class McpSessions {
  private readonly sessions = new Map<string, StreamableHTTPServerTransport>();

  constructor(private readonly makeServer: () => McpServer) {}

  /** Answers one request; `body` when a middleware already read it. */
  async handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? this.sessions.get(id) : undefined;
    if (!transport) {
      if (typeof id === "string") {
        res.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void this.sessions.set(sessionId, created),
      });
      created.onclose = () => {
        if (created.sessionId) this.sessions.delete(created.sessionId);
      };
      await this.makeServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  }

  async close(): Promise<void> {
    for (const transport of this.sessions.values()) await transport.close().catch(() => undefined);
  }
}
