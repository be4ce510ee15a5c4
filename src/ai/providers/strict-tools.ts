/**
 * How the OpenAI-style APIs (Chat Completions, Responses, Azure) declare a tool to a server that
 * takes strict schemas (`compat.supportsStrictMode`), as upstream Pi 0.87 does: a tool that asks
 * for JSON-schema constrained sampling (pig's built-in tools do, with `prefer`) is sent
 * `strict: true` with its schema in the strict subset (ai/strict-schema.ts) when the schema has
 * one; every other tool `strict: false` with its schema as it is. A tool that *requires* strict
 * sampling where it cannot have it is an error naming the tool. Pure.
 */
import { NotStrictSchema, strictSchema } from "../strict-schema.ts";
import type { JsonSchema, ToolSpec } from "../types.ts";

export function strictToolParameters(tool: ToolSpec, supportsStrictMode: boolean): { parameters: JsonSchema; strict: boolean } {
  const wanted = tool.constrainedSampling?.type === "json_schema" ? tool.constrainedSampling : undefined;
  if (!wanted) return { parameters: tool.parameters, strict: false };
  if (!supportsStrictMode) {
    if (wanted.strict === "require") throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but this model's strict tools are off (compat.supportsStrictMode)`);
    return { parameters: tool.parameters, strict: false };
  }
  try {
    return { parameters: strictSchema(tool.parameters), strict: true };
  } catch (error) {
    if (!(error instanceof NotStrictSchema) || wanted.strict === "require") {
      throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but ${(error as Error).message}`);
    }
    return { parameters: tool.parameters, strict: false };
  }
}
