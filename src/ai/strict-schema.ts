/**
 * A tool's JSON Schema in the subset that OpenAI's strict (constrained) sampling takes: every
 * object lists all its properties as required and forbids others, and a property that was
 * optional may be `null` instead. Schemas outside the subset (references, `oneOf`, unions of
 * objects, tuples, open objects…) cannot be made strict; strict-tools.ts then sends the tool as
 * it is, unless it requires strict sampling. The same rules as upstream Pi 0.87's, so both send the
 * same schema. Pure; the input is not changed.
 */
import type { JsonSchema } from "./types.ts";

export class NotStrictSchema extends Error {
  override name = "NotStrictSchema";
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
];

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typesOf(node: Node): unknown[] {
  return typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : [];
}

/** An object or array schema: a union of these has no strict form. */
function isStructured(value: unknown): boolean {
  if (!isNode(value)) return false;
  const types = typesOf(value);
  return types.includes("object") || types.includes("array") || value.properties !== undefined || value.items !== undefined;
}

function allowsNull(value: unknown): boolean {
  if (!isNode(value)) return false;
  if (typesOf(value).includes("null") || value.const === null) return true;
  if (Array.isArray(value.enum) && value.enum.includes(null)) return true;
  return Array.isArray(value.anyOf) && value.anyOf.some(allowsNull);
}

/** Rewrites `node` in place (it is a private copy). */
function makeNodeStrict(node: unknown): void {
  if (!isNode(node)) throw new NotStrictSchema("boolean schemas are unsupported");
  for (const key of UNSUPPORTED_KEYS) if (node[key] !== undefined) throw new NotStrictSchema(`${key} schemas are unsupported`);
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) throw new NotStrictSchema("anyOf must contain at least one schema");
    for (const variant of node.anyOf) {
      if (isStructured(variant)) throw new NotStrictSchema("object and array unions are unsupported");
      makeNodeStrict(variant);
    }
  }
  if (node.items !== undefined) {
    if (Array.isArray(node.items)) throw new NotStrictSchema("tuple schemas are unsupported");
    makeNodeStrict(node.items);
  }
  const isObject = node.type === "object";
  if (node.properties !== undefined && !isObject) throw new NotStrictSchema("properties require type object");
  if (!isObject) return;
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
    throw new NotStrictSchema("schema-valued or true additionalProperties is unsupported");
  }
  if (node.properties !== undefined && !isNode(node.properties)) throw new NotStrictSchema("object properties must be a schema map");
  if (node.required !== undefined && (!Array.isArray(node.required) || node.required.some((key) => typeof key !== "string"))) {
    throw new NotStrictSchema("object required must be a string array");
  }
  const properties = (node.properties ?? {}) as Node;
  const names = Object.keys(properties);
  const required = new Set((node.required as string[] | undefined) ?? []);
  if ([...required].some((key) => !names.includes(key))) throw new NotStrictSchema("required contains an unknown property");
  for (const [key, property] of Object.entries(properties)) {
    makeNodeStrict(property);
    if (!required.has(key) && !allowsNull(property)) properties[key] = { anyOf: [property, { type: "null" }] };
  }
  node.required = names;
  node.additionalProperties = false;
}

/** The strict form of a tool's parameters; throws `NotStrictSchema` (saying why) when there is none. */
export function strictSchema(schema: JsonSchema): JsonSchema {
  const copy: unknown = structuredClone(schema);
  if (!isNode(copy)) throw new NotStrictSchema("root schema must have type object");
  makeNodeStrict(copy);
  // Checked after the walk, as upstream does, so a schema wrong in both ways gets upstream's reason.
  if (copy.type !== "object") throw new NotStrictSchema("root schema must have type object");
  return copy;
}
