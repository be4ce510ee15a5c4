/**
 * What an MCP tool declares besides its name and arguments, as upstream Pi 1.6.0 declares it:
 * the server's namespace, the boolean hints of the tool's annotations, the exposure its
 * mcp.json entry gives, and an output schema that is the `CallToolResult` a calling tool gets
 * as `structuredContent` (with the tool's own output schema in it). Pure.
 */
import type { JsonSchema } from "../ai/types.ts";
import type { ToolAnnotations, ToolExposure, ToolNamespace } from "../tools/types.ts";
import type { McpExposure } from "./config.ts";
import { mcpNamespace } from "./naming.ts";
import type { McpTool } from "./protocol.ts";

/**
 * The tool exposure of an MCP exposure. pig has no codemode tool, so `codemode` (upstream's
 * default) is declared to the model as `direct` is (docs/decisions.md D68); the others map as named.
 */
export function toolExposureOf(exposure: McpExposure): ToolExposure {
  return exposure === "codemode" ? "direct" : exposure;
}

/** The server's namespace: `mcp__<server>`, found by the server's own name too. */
export function serverNamespace(server: string, description: string | undefined, instructions: string | undefined): ToolNamespace {
  const text = description?.trim();
  return { name: mcpNamespace(server), aliases: [server], ...(text ? { description: text } : {}), ...(instructions ? { instructions } : {}) };
}

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** The boolean hints of the tool's annotations; undefined when it gives none. */
export function toolAnnotations(tool: McpTool): ToolAnnotations | undefined {
  const annotations: ToolAnnotations = {};
  for (const hint of HINTS) {
    const value = tool.annotations?.[hint];
    if (typeof value === "boolean") annotations[hint] = value;
  }
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/** One content block of a result, with the fields callers read most. */
const CONTENT_BLOCK_SCHEMA = {
  type: "object",
  properties: { type: { enum: ["text", "image", "audio", "resource_link", "resource"] }, text: { type: "string" }, data: { type: "string" }, mimeType: { type: "string" } },
  required: ["type"],
  additionalProperties: true,
};

/** Keywords whose values are data (a `$ref` key in them is no reference). */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map names to schemas. */
const MAP_KEYWORDS = new Set(["properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"]);

/** `schema` moved below `pointer`: its local references are rewritten so they resolve as before. */
export function relocateSchema(schema: unknown, pointer: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => relocateSchema(item, pointer));
  if (typeof schema !== "object" || schema === null) return schema;
  const moved: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string" && (value === "#" || value.startsWith("#/"))) moved[key] = `${pointer}${value.slice(1)}`;
    else if (DATA_KEYWORDS.has(key)) moved[key] = value;
    else if (MAP_KEYWORDS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
      moved[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, relocateSchema(sub, pointer)]));
    } else moved[key] = relocateSchema(value, pointer);
  }
  return moved;
}

/** The output schema of every MCP tool: the call's result (without `_meta`), the tool's own schema as `structuredContent`. */
export function resultSchema(structuredContentSchema: Record<string, unknown> | undefined): JsonSchema {
  return {
    type: "object",
    properties: {
      content: { type: "array", items: CONTENT_BLOCK_SCHEMA },
      // Servers may send structured content without declaring a schema; it may be any JSON value.
      structuredContent: structuredContentSchema ? relocateSchema(structuredContentSchema, "#/properties/structuredContent") : {},
      isError: { type: "boolean" },
    },
    required: ["content"],
    // Fields newer protocol versions add.
    additionalProperties: true,
  };
}
