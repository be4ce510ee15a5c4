/**
 * An MCP server's tool as a pig tool, named `mcp__<server>__<tool>` (naming.ts) and declared as
 * upstream Pi 1.6.0 declares MCP tools (tool-shape.ts): the exposure mcp.json gives it, the
 * server's namespace, the tool's annotation hints, and the `CallToolResult` as its output
 * schema. Its input schema is the parameters (an object schema, as providers want), `server/tool`
 * its label; a call connects again when the server dropped, reports progress as partial results,
 * and maps and bounds the result as upstream does (content.ts). An `isError` result is an error
 * result for the model; the whole result (without `_meta`) is the `structuredContent` a calling
 * tool gets either way.
 */
import { processSpillFiles } from "../tools/spill-files.ts";
import type { AnyTool, ToolNamespace } from "../tools/types.ts";
import type { McpExposure } from "./config.ts";
import type { McpServerConnection } from "./connection.ts";
import { toToolOutput } from "./content.ts";
import type { McpTool } from "./protocol.ts";
import { resultSchema, toolAnnotations, toolExposureOf } from "./tool-shape.ts";

/** The input schema as an object schema: servers may leave out `type`, some providers want `properties`. */
export function toolParameters(schema: Record<string, unknown>): Record<string, unknown> {
  return { ...schema, type: schema.type ?? "object", ...(schema.properties === undefined ? { properties: {} } : {}) };
}

export interface McpToolOptions {
  name: string;
  exposure: McpExposure;
  namespace: ToolNamespace;
}

export function mcpTool(options: McpToolOptions, connection: McpServerConnection, tool: McpTool): AnyTool {
  const server = connection.name;
  const title = tool.title ?? tool.annotations?.title;
  const annotations = toolAnnotations(tool);
  return {
    name: options.name,
    label: `${server}/${tool.name}`,
    description: tool.description?.trim() || title || `MCP tool ${tool.name} from server ${server}`,
    parameters: toolParameters(tool.inputSchema),
    outputSchema: resultSchema(tool.outputSchema),
    exposure: toolExposureOf(options.exposure),
    namespace: options.namespace,
    ...(annotations ? { annotations } : {}),
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
      const { _meta: _dropped, ...structuredContent } = result as typeof result & { _meta?: unknown };
      return { content: output.content, details: output.details, structuredContent, ...(output.isError ? { isError: true } : {}) };
    },
  };
}
