/**
 * The MCP wire, as valibot schemas: JSON-RPC 2.0 messages and the results of the methods pig
 * calls (initialize, tools/list, tools/call). Servers are checked at this boundary; fields a
 * newer protocol adds are kept (loose objects), so a result passes on what the server sent.
 */
import * as v from "valibot";

/** The version pig asks for first; a server that does not speak it answers with its own. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
/** Versions pig accepts from a server (upstream Pi 1.6.0's list). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [LATEST_PROTOCOL_VERSION, "2025-06-18", "2025-03-26", "2024-11-05"];

export const JsonRpcIdSchema = v.union([v.string(), v.number()]);
export type JsonRpcId = v.InferOutput<typeof JsonRpcIdSchema>;

const Params = v.optional(v.record(v.string(), v.unknown()));

export const JsonRpcRequestSchema = v.object({ jsonrpc: v.literal("2.0"), id: JsonRpcIdSchema, method: v.string(), params: Params });
export const JsonRpcNotificationSchema = v.object({ jsonrpc: v.literal("2.0"), method: v.string(), params: Params });
export const JsonRpcErrorSchema = v.object({ code: v.number(), message: v.string(), data: v.optional(v.unknown()) });
export const JsonRpcResultSchema = v.object({ jsonrpc: v.literal("2.0"), id: JsonRpcIdSchema, result: v.unknown() });
export const JsonRpcErrorResponseSchema = v.object({ jsonrpc: v.literal("2.0"), id: v.nullable(JsonRpcIdSchema), error: JsonRpcErrorSchema });

export type JsonRpcRequest = v.InferOutput<typeof JsonRpcRequestSchema>;
export type JsonRpcNotification = v.InferOutput<typeof JsonRpcNotificationSchema>;
export type JsonRpcResponse = v.InferOutput<typeof JsonRpcResultSchema> | v.InferOutput<typeof JsonRpcErrorResponseSchema>;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** What a server sent, told apart; `invalid` when it is no JSON-RPC message at all. */
export type IncomingMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  | { kind: "invalid"; reason: string };

export function classifyMessage(value: unknown): IncomingMessage {
  const request = v.safeParse(JsonRpcRequestSchema, value);
  if (request.success) return { kind: "request", message: request.output };
  const result = v.safeParse(JsonRpcResultSchema, value);
  if (result.success && "result" in (value as object)) return { kind: "response", message: result.output };
  const error = v.safeParse(JsonRpcErrorResponseSchema, value);
  if (error.success) return { kind: "response", message: error.output };
  const notification = v.safeParse(JsonRpcNotificationSchema, value);
  if (notification.success) return { kind: "notification", message: notification.output };
  return { kind: "invalid", reason: `not a JSON-RPC 2.0 message: ${JSON.stringify(value)?.slice(0, 200)}` };
}

/** JSON-RPC error codes pig sends or reads. */
export const RPC_ERRORS = { methodNotFound: -32601, invalidParams: -32602, internal: -32603, requestTimeout: -32001 } as const;

export const InitializeResultSchema = v.looseObject({
  protocolVersion: v.string(),
  capabilities: v.looseObject({ tools: v.optional(v.looseObject({ listChanged: v.optional(v.boolean()) })) }),
  serverInfo: v.looseObject({ name: v.string(), version: v.string() }),
  instructions: v.optional(v.string()),
});
export type InitializeResult = v.InferOutput<typeof InitializeResultSchema>;

const JsonObjectSchema = v.record(v.string(), v.unknown());

export const ToolAnnotationsSchema = v.looseObject({
  title: v.optional(v.string()),
  readOnlyHint: v.optional(v.boolean()),
  destructiveHint: v.optional(v.boolean()),
  idempotentHint: v.optional(v.boolean()),
  openWorldHint: v.optional(v.boolean()),
});

export const McpToolSchema = v.looseObject({
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  inputSchema: JsonObjectSchema,
  outputSchema: v.optional(JsonObjectSchema),
  annotations: v.optional(ToolAnnotationsSchema),
});
export type McpTool = v.InferOutput<typeof McpToolSchema>;

export const ListToolsResultSchema = v.looseObject({
  tools: v.array(McpToolSchema),
  // Some servers end the pages with null or "" instead of leaving the cursor out.
  nextCursor: v.optional(v.nullable(v.string())),
});

const TextBlock = v.looseObject({ type: v.literal("text"), text: v.string() });
const ImageBlock = v.looseObject({ type: v.literal("image"), data: v.string(), mimeType: v.string() });
const AudioBlock = v.looseObject({ type: v.literal("audio"), data: v.string(), mimeType: v.string() });
const ResourceLinkBlock = v.looseObject({
  type: v.literal("resource_link"),
  uri: v.string(),
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  mimeType: v.optional(v.string()),
});
const EmbeddedResourceBlock = v.looseObject({
  type: v.literal("resource"),
  resource: v.looseObject({ uri: v.string(), mimeType: v.optional(v.string()), text: v.optional(v.string()), blob: v.optional(v.string()) }),
});
/** A block of a kind this protocol version does not know: kept, and named in a placeholder. */
const OtherBlock = v.looseObject({ type: v.string() });

export const ContentBlockSchema = v.union([TextBlock, ImageBlock, AudioBlock, ResourceLinkBlock, EmbeddedResourceBlock, OtherBlock]);
export type ContentBlock = v.InferOutput<typeof ContentBlockSchema>;

export const CallToolResultSchema = v.looseObject({
  // Required by the spec, but servers that answer with structuredContent alone leave it out.
  content: v.optional(v.array(ContentBlockSchema), []),
  structuredContent: v.optional(v.unknown()),
  isError: v.optional(v.boolean()),
});
export type CallToolResult = v.InferOutput<typeof CallToolResultSchema>;

export const ProgressParamsSchema = v.looseObject({
  progressToken: JsonRpcIdSchema,
  progress: v.number(),
  total: v.optional(v.number()),
  message: v.optional(v.string()),
});
