/**
 * Arguments for a tool the check calls, made from its JSON Schema: every required property gets
 * the simplest value of its type (a `default`, an enum's or const's first value, "pig-check",
 * 1, true, a one-item array, a nested object), optional ones are left out. The check's project
 * directory holds a file named `pig-check`, so a string taken as a path names a real file. Enough for a call the tool accepts;
 * a tool that refuses them still answers, which is what the check looks at.
 */
type Schema = Record<string, unknown>;

export function argsFor(schema: unknown): Record<string, unknown> {
  const value = valueFor(schema, 0);
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function valueFor(raw: unknown, depth: number): unknown {
  if (!raw || typeof raw !== "object" || depth > 8) return undefined;
  const schema = raw as Schema;
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) return valueFor(list.find((s) => (s as Schema)?.type !== "null") ?? list[0], depth + 1);
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== "null") as string | undefined) : (schema.type as string | undefined);
  switch (type) {
    case "string":
      return "pig-check";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "array": {
      // One item at least (unless none is allowed): a tool given something does its work.
      const min = typeof schema.minItems === "number" ? schema.minItems : 1;
      const max = typeof schema.maxItems === "number" ? schema.maxItems : Infinity;
      return Array.from({ length: Math.min(Math.max(min, 1), max) }, () => valueFor(schema.items, depth + 1) ?? "pig-check");
    }
    case "object":
    case undefined: {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const out: Record<string, unknown> = {};
      for (const name of required) out[name] = valueFor(properties[name], depth + 1) ?? "pig-check";
      return out;
    }
    default:
      return null;
  }
}
