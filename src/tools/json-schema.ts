/**
 * The JSON Schema a tool's valibot argument schema is sent to the model as. It covers what tool
 * arguments use — objects, arrays, strings, numbers, booleans, optional entries, descriptions —
 * and refuses anything else, so no constraint is silently left out of what the model is told.
 *
 * pig derives it itself rather than with @valibot/to-json-schema: every start-up declares the
 * tools (the converter would be loaded by every run, and print mode's start-up is kept small),
 * and the key order must stay the one pig has always sent — `type`, `required` (when any),
 * `properties`; then `items`, `description` — which the recorded requests compare byte for byte.
 */
import type * as v from "valibot";
import type { JsonSchema } from "../ai/types.ts";

/** The parts of a valibot schema the conversion reads (valibot's schema objects carry them). */
interface SchemaParts {
  type: string;
  entries?: Record<string, SchemaParts>;
  item?: SchemaParts;
  wrapped?: SchemaParts;
  pipe?: readonly { kind: string; type: string; description?: string }[];
}

const SCALARS = new Set(["string", "number", "boolean"]);

export function toolJsonSchema(schema: v.GenericSchema): JsonSchema {
  return convert(schema as unknown as SchemaParts, "arguments");
}

function convert(schema: SchemaParts, where: string): JsonSchema {
  const out: JsonSchema = {};
  if (SCALARS.has(schema.type)) {
    out.type = schema.type;
  } else if (schema.type === "object" && schema.entries) {
    const entries = Object.entries(schema.entries);
    const required = entries.filter(([, entry]) => entry.type !== "optional").map(([key]) => key);
    out.type = "object";
    if (required.length > 0) out.required = required;
    out.properties = Object.fromEntries(
      entries.map(([key, entry]) => [key, convert(entry.type === "optional" && entry.wrapped ? entry.wrapped : entry, `${where}.${key}`)]),
    );
  } else if (schema.type === "array" && schema.item) {
    out.type = "array";
    out.items = convert(schema.item, `${where}[]`);
  } else {
    throw new Error(`A tool's ${where}: a valibot ${schema.type} schema has no JSON Schema here`);
  }
  // The first element of a pipe is the schema itself; what follows are its actions.
  for (const action of schema.pipe?.slice(1) ?? []) {
    if (action.type === "description" && action.description !== undefined) out.description = action.description;
    else throw new Error(`A tool's ${where}: the valibot action ${action.type} has no JSON Schema here`);
  }
  return out;
}
