/**
 * Tool schemas for constrained sampling (Pi ≥ 0.87 `constrainedSampling: {type: "json_schema"}`):
 * the strict subset providers accept when they are asked to make arguments match the schema
 * exactly. Every object lists all its properties as required, an optional property also admits
 * `null`, and no object admits properties it does not name. Schemas outside that subset
 * (references, `oneOf`, unions of objects, tuples, open `additionalProperties`, …) cannot be made
 * strict; a tool that only prefers strict sampling is then sent as it is. Pure.
 */
import type { JsonSchema, ToolSpec } from "./types.ts";

/** A schema the strict subset cannot express. */
export class NotStrictable extends Error {
  override name = "NotStrictable";
}

const UNSUPPORTED_KEYS = [
  "$ref",
  "$defs",
  "definitions",
  "allOf",
  "oneOf",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "propertyNames",
  "contains",
  "prefixItems",
  "not",
  "if",
  "then",
  "else",
] as const;

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typesOf(node: Node): unknown[] {
  return typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : [];
}

function isStructured(node: unknown): boolean {
  if (!isNode(node)) return false;
  const types = typesOf(node);
  return types.includes("object") || types.includes("array") || node.properties !== undefined || node.items !== undefined;
}

function admitsNull(node: unknown): boolean {
  if (!isNode(node)) return false;
  if (typesOf(node).includes("null")) return true;
  if (node.const === null || (Array.isArray(node.enum) && node.enum.includes(null))) return true;
  return Array.isArray(node.anyOf) && node.anyOf.some(admitsNull);
}

/** Makes `node` (a copy the caller owns) strict in place. */
function tighten(node: unknown): void {
  if (!isNode(node)) throw new NotStrictable("boolean schemas are unsupported");
  for (const key of UNSUPPORTED_KEYS) if (node[key] !== undefined) throw new NotStrictable(`${key} schemas are unsupported`);
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) throw new NotStrictable("anyOf must contain at least one schema");
    for (const variant of node.anyOf) {
      if (isStructured(variant)) throw new NotStrictable("object and array unions are unsupported");
      tighten(variant);
    }
  }
  if (node.items !== undefined) {
    if (Array.isArray(node.items)) throw new NotStrictable("tuple schemas are unsupported");
    tighten(node.items);
  }
  const isObject = node.type === "object";
  if (node.properties !== undefined && !isObject) throw new NotStrictable("properties require type object");
  if (!isObject) return;
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
    throw new NotStrictable("schema-valued or true additionalProperties is unsupported");
  }
  if (node.properties !== undefined && !isNode(node.properties)) throw new NotStrictable("object properties must be a schema map");
  if (node.required !== undefined && (!Array.isArray(node.required) || node.required.some((key) => typeof key !== "string"))) {
    throw new NotStrictable("object required must be a string array");
  }
  const properties = (node.properties ?? {}) as Node;
  const names = Object.keys(properties);
  const required = new Set((node.required ?? []) as string[]);
  if ([...required].some((key) => !names.includes(key))) throw new NotStrictable("required contains an unknown property");
  for (const [name, property] of Object.entries(properties)) {
    tighten(property);
    if (!required.has(name) && !admitsNull(property)) properties[name] = { anyOf: [property, { type: "null" }] };
  }
  node.required = names;
  node.additionalProperties = false;
}

/** The strict form of a tool's parameter schema; throws `NotStrictable` when there is none. */
export function strictSchema(schema: JsonSchema): JsonSchema {
  const copy: unknown = structuredClone(schema);
  if (!isNode(copy) || copy.type !== "object") throw new NotStrictable("root schema must have type object");
  tighten(copy);
  return copy;
}

/**
 * The parameters to send for `tool` and whether they are strict, for an API that supports strict
 * tools: strict when the tool asks for JSON-schema sampling and its schema allows it. A tool that
 * requires it (`strict: "require"`) and cannot have it is an error naming the tool.
 */
export function strictToolParameters(tool: ToolSpec): { parameters: JsonSchema; strict: boolean } {
  const sampling = tool.constrainedSampling;
  if (sampling?.type !== "json_schema") return { parameters: tool.parameters, strict: false };
  try {
    return { parameters: strictSchema(tool.parameters), strict: true };
  } catch (error) {
    if (!(error instanceof NotStrictable)) throw error;
    if (sampling.strict === "require") throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but ${error.message}.`);
    return { parameters: tool.parameters, strict: false };
  }
}
