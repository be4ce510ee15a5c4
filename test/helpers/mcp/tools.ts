/**
 * The tools of the MCP servers the tests start, written with the official MCP SDK: a text
 * answer, a structured one, an error result, an image, and a tool that adds another (the SDK
 * then tells the client the list changed).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/** A 1×1 PNG. */
export const DOT_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

export function addTestTools(server: McpServer, label: string): void {
  server.registerTool(
    "echo",
    { description: `Echoes the text back (${label})`, inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: "text", text: `${label} echo: ${text}` }] }),
  );
  server.registerTool(
    "add",
    { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool("fail", { description: "Always fails" }, async () => ({ content: [{ type: "text", text: "the disk is full" }], isError: true }));
  server.registerTool("dot", { description: "Returns an image" }, async () => ({ content: [{ type: "text", text: "a dot" }, { type: "image", data: DOT_PNG, mimeType: "image/png" }] }));
  server.registerTool("grow", { description: "Adds the tool late_tool" }, async () => {
    server.registerTool("late_tool", { description: "A tool added while connected", inputSchema: { n: z.number() } }, async ({ n }) => ({ content: [{ type: "text", text: `late ${n * 2}` }] }));
    return { content: [{ type: "text", text: "grown" }] };
  });
}
