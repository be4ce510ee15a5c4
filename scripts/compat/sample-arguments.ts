// Arguments for a scripted model's call of a tool it only knows by its JSON schema: the smallest
// value of each required property, so that the same call reaches pig and Pi. Pure.

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** A value the schema accepts: its default, its first enum or const value, or the simplest of its type. */
export function sampleValue(schema: unknown): unknown {
  if (!isSchema(schema)) return "x";
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return sampleValue(options[0]);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return "x";
    case "number":
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      return Array.from({ length: min }, () => sampleValue(schema.items));
    }
    default:
      return sampleArguments(schema);
  }
}

/** The required properties of an object schema, each with a sample value. */
export function sampleArguments(schema: unknown): Record<string, unknown> {
  if (!isSchema(schema) || !isSchema(schema.properties)) return {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
  const out: Record<string, unknown> = {};
  for (const name of required) out[name] = sampleValue(schema.properties[name]);
  return out;
}
