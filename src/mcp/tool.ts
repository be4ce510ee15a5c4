/**
 * An MCP server's tool as a pig tool, named `mcp__<server>__<tool>` (naming.ts): its input schema
 * as the parameters (an object schema, as providers want), `server/tool` as its label, a call
 * that connects again when the server dropped, progress as partial results, and the result
 * mapped and bounded as upstream maps it (content.ts). An `isError` result is the call's
 * failure, as a pig tool reports one.
 */
import { processSpillFiles } from "../tools/spill-files.ts";
import type { AnyTool } from "../tools/types.ts";
import type { McpServerConnection } from "./connection.ts";
import { toToolOutput } from "./content.ts";
import type { McpTool } from "./protocol.ts";

/** The input schema as an object schema: servers may leave out `type`, some providers want `properties`. */
export function toolParameters(schema: Record<string, unknown>): Record<string, unknown> {
  return { ...schema, type: schema.type ?? "object", ...(schema.properties === undefined ? { properties: {} } : {}) };
}

export function mcpTool(name: string, connection: McpServerConnection, tool: McpTool): AnyTool {
  const server = connection.name;
  const title = tool.title ?? tool.annotations?.title;
  return {
    name,
    label: `${server}/${tool.name}`,
    description: tool.description?.trim() || title || `MCP tool ${tool.name} from server ${server}`,
    parameters: toolParameters(tool.inputSchema),
    // The result is bounded the way upstream bounds MCP results (20 KB, cut in the middle).
    boundsOwnOutput: true,
    async execute(_toolCallId, args, signal, onUpdate) {
      const client = await connection.getClient();
      const result = await client.callTool(tool.name, args, {
        signal,
        timeoutMs: connection.timeoutMs,
        onProgress: (progress) => {
          const total = progress.total === undefined ? "" : `/${progress.total}`;
          onUpdate({ content: [{ type: "text", text: progress.message ?? `Progress ${progress.progress}${total}` }], details: { server, tool: tool.name } });
        },
      });
      const output = toToolOutput(server, tool.name, result, processSpillFiles);
      if (output.isError) throw new Error(output.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n"));
      return { content: output.content, details: output.details };
    },
  };
}
