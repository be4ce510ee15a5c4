/**
 * Checks a tool call's arguments against the tool's JSON Schema before the tool runs, after the
 * light coercion models need (a number sent as "5", a boolean as "true"). Covers the schema subset
 * tool definitions use: type (incl. type lists), properties, required, additionalProperties,
 * items, enum, const, anyOf/oneOf, min/max items, length and value bounds. A null given for an
 * optional property that does not take null counts as not given (upstream's rule for strict tools).
 */
import type { JsonSchema } from "../ai/types.ts";
import { isPlainObject } from "../util/plain-object.ts";

export type ValidationOutcome = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

interface Problem {
  path: string;
  message: string;
}

type Json = unknown;


function asSchema(value: unknown): JsonSchema | undefined {
  return isPlainObject(value) ? value : undefined;
}

function schemaList(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  return [];
}

function describe(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

function hasType(value: Json, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return isPlainObject(value);
    case "array":
      return Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function numberFrom(value: Json): number | undefined {
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  return undefined;
}

/** Converts a scalar to one of the schema's types when the conversion is unambiguous. */
function convertScalar(value: Json, types: string[]): Json {
  if (types.length === 0 || types.some((t) => hasType(value, t))) return value;
  for (const type of types) {
    if (type === "number" || type === "integer") {
      const n = numberFrom(value);
      if (n !== undefined && (type === "number" || Number.isInteger(n))) return n;
    } else if (type === "boolean") {
      if (value === "true" || value === 1 || value === "1") return true;
      if (value === "false" || value === 0 || value === "0") return false;
    } else if (type === "string") {
      if (typeof value === "number" || typeof value === "boolean") return String(value);
    } else if (type === "null") {
      if (value === "null") return null;
    }
  }
  return value;
}

/** Returns a converted copy of `value`; never mutates it. */
function convert(schema: JsonSchema, value: Json): Json {
  const branches = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
  if (branches.length > 0) {
    if (branches.some((branch) => check(branch, value, "").length === 0)) return value;
    for (const branch of branches) {
      const converted = convert(branch, value);
      if (check(branch, converted, "").length === 0) return converted;
    }
    return value;
  }
  const types = typesOf(schema);
  if (isPlainObject(value) && (types.length === 0 || types.includes("object"))) {
    const properties = asSchema(schema.properties) ?? {};
    const extra = asSchema(schema.additionalProperties);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const itemSchema = asSchema(properties[key]) ?? extra;
      out[key] = itemSchema ? convert(itemSchema, item) : item;
    }
    return out;
  }
  if (Array.isArray(value) && (types.length === 0 || types.includes("array"))) {
    const items = asSchema(schema.items);
    return items ? value.map((item) => convert(items, item)) : [...value];
  }
  return convertScalar(value, types);
}

function join(path: string, key: string | number): string {
  return path === "" ? String(key) : `${path}.${key}`;
}

function typeMessage(types: string[], value: Json): string {
  const names = types.map((t) => (t === "integer" || t === "object" || t === "array" ? `an ${t}` : t === "null" ? "null" : `a ${t}`));
  return `must be ${names.join(" or ")} (got ${describe(value)})`;
}

function check(schema: JsonSchema, value: Json, path: string): Problem[] {
  const anyOf = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
  if (anyOf.length > 0 && !anyOf.some((branch) => check(branch, value, path).length === 0)) {
    return [{ path, message: "does not match any of the allowed shapes" }];
  }
  if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    return [{ path, message: `must be ${JSON.stringify(schema.const)}` }];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((v) => JSON.stringify(v) === JSON.stringify(value))) {
    return [{ path, message: `must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}` }];
  }
  const types = typesOf(schema);
  if (types.length > 0 && !types.some((t) => hasType(value, t))) return [{ path, message: typeMessage(types, value) }];

  const problems: Problem[] = [];
  if (isPlainObject(value)) checkObject(schema, value, path, problems);
  if (Array.isArray(value)) checkArray(schema, value, path, problems);
  if (typeof value === "string") checkString(schema, value, path, problems);
  if (typeof value === "number") checkNumber(schema, value, path, problems);
  return problems;
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>, path: string, out: Problem[]): void {
  const properties = asSchema(schema.properties) ?? {};
  const required = Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === "string") : [];
  for (const key of required) {
    if (value[key] === undefined) out.push({ path: join(path, key), message: "is required but missing" });
  }
  for (const [key, item] of Object.entries(value)) {
    const itemSchema = asSchema(properties[key]);
    if (itemSchema) {
      if (item !== undefined) out.push(...check(itemSchema, item, join(path, key)));
    } else if (schema.additionalProperties === false) {
      out.push({ path: join(path, key), message: "is not an allowed property" });
    } else {
      const extra = asSchema(schema.additionalProperties);
      if (extra) out.push(...check(extra, item, join(path, key)));
    }
  }
}

function checkArray(schema: JsonSchema, value: unknown[], path: string, out: Problem[]): void {
  if (typeof schema.minItems === "number" && value.length < schema.minItems) {
    out.push({ path, message: `must have at least ${schema.minItems} item(s)` });
  }
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
    out.push({ path, message: `must have at most ${schema.maxItems} item(s)` });
  }
  const items = asSchema(schema.items);
  if (items) value.forEach((item, i) => out.push(...check(items, item, join(path, i))));
}

function checkString(schema: JsonSchema, value: string, path: string, out: Problem[]): void {
  if (typeof schema.minLength === "number" && value.length < schema.minLength) {
    out.push({ path, message: `must be at least ${schema.minLength} character(s) long` });
  }
  if (typeof schema.maxLength === "number" && value.length > schema.maxLength) {
    out.push({ path, message: `must be at most ${schema.maxLength} character(s) long` });
  }
  if (typeof schema.pattern === "string") {
    try {
      if (!new RegExp(schema.pattern, "u").test(value)) out.push({ path, message: `must match pattern ${schema.pattern}` });
    } catch {
      // A pattern JavaScript cannot compile is the schema author's problem, not the model's.
    }
  }
}

function checkNumber(schema: JsonSchema, value: number, path: string, out: Problem[]): void {
  if (typeof schema.minimum === "number" && value < schema.minimum) out.push({ path, message: `must be >= ${schema.minimum}` });
  if (typeof schema.maximum === "number" && value > schema.maximum) out.push({ path, message: `must be <= ${schema.maximum}` });
  if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) {
    out.push({ path, message: `must be > ${schema.exclusiveMinimum}` });
  }
  if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) {
    out.push({ path, message: `must be < ${schema.exclusiveMaximum}` });
  }
}

/**
 * Drops a `null` given for an optional property whose schema does not take null, at any depth, as
 * upstream does: a model held to a tool's strict schema (where each optional property became
 * "this or null", ai/strict-schema.ts) sends null for "not given". Returns a copy; a required
 * property's null stays, and fails the check.
 */
function dropOptionalNulls(schema: JsonSchema, value: Json): Json {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (Array.isArray(items)) {
      return value.map((item, i) => {
        const itemSchema = asSchema(items[i]);
        return itemSchema ? dropOptionalNulls(itemSchema, item) : item;
      });
    }
    const itemSchema = asSchema(items);
    return itemSchema ? value.map((item) => dropOptionalNulls(itemSchema, item)) : value;
  }
  const properties = asSchema(schema.properties);
  if (!isPlainObject(value) || !properties) return value;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const itemSchema = asSchema(properties[key]);
    if (!itemSchema) {
      out[key] = item;
      continue;
    }
    const takesNull = typeof itemSchema.$ref === "string" || check(itemSchema, null, "").length === 0;
    if (item === null && !required.has(key) && !takesNull) continue;
    out[key] = dropOptionalNulls(itemSchema, item);
  }
  return out;
}

/**
 * Coerces and checks `args` for `tool`, after dropping the nulls that stand for optional
 * properties not given. On failure the message lists every problem by dotted path
 * (`root` for the arguments object itself) and repeats the arguments as received.
 */
export function validateToolArguments(tool: { name: string; parameters: JsonSchema }, args: unknown): ValidationOutcome {
  const converted = convert(tool.parameters, dropOptionalNulls(tool.parameters, args));
  const problems = check(tool.parameters, converted, "");
  if (problems.length === 0 && isPlainObject(converted)) return { ok: true, args: converted };
  if (problems.length === 0) problems.push({ path: "", message: typeMessage(["object"], converted) });
  const lines = problems.map((p) => `  - ${p.path === "" ? "root" : p.path}: ${p.message}`);
  return {
    ok: false,
    message: `Validation failed for tool "${tool.name}":\n${lines.join("\n")}\n\nReceived arguments:\n${JSON.stringify(args, null, 2)}`,
  };
}
