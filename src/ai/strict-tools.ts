/**
 * Strict (JSON-schema constrained) tool sampling: whether a model takes it, and what one tool is
 * sent as. The rules are upstream Pi 0.87.1's, per wire API:
 *
 * - `openai-completions`, `openai-responses`, `bedrock-converse-stream`: the model's
 *   `compat.supportsStrictMode` is true (being OpenAI-compatible, or on Bedrock, says nothing);
 * - `openai-codex-responses`: unless `compat.supportsStrictMode` is false;
 * - `anthropic-messages`: the model's `compat.supportsStrictTools` is true;
 * - `google-generative-ai`, `google-vertex`: Gemini 3 and later (by model id);
 * - `mistral-conversations`: always.
 *
 * A tool is strict when it asks for JSON-schema sampling, the model takes strict tools and its
 * schema has a strict form (strict-schema.ts); its parameters are then sent in that form. A tool
 * that requires it (`strict: "require"`) and cannot have it fails the request, naming the tool and
 * why. Pure.
 */
import { geminiMajorVersion } from "./gemini-version.ts";
import { NotStrictSchema, strictSchema } from "./strict-schema.ts";
import type { Api, JsonSchema, Model, ToolSpec } from "./types.ts";

/** Whether a model takes strict tools; `rule` says what decided it, for the error a requiring tool gets. */
export interface StrictToolSupport {
  supported: boolean;
  rule: string;
}

function flag(model: Model, name: string): unknown {
  return model.compat?.[name];
}

/**
 * The strict-tool rule of wire API `api` applied to `model`. The API is the caller's (the module
 * that builds the request), not `model.api`: an extension's model may be served by pig's modules.
 */
export function strictToolSupport(model: Model, api: Api): StrictToolSupport {
  const name = `${model.provider}/${model.id}`;
  switch (api) {
    case "openai-completions":
    case "openai-responses":
    case "bedrock-converse-stream":
      return { supported: flag(model, "supportsStrictMode") === true, rule: `${name} does not set compat.supportsStrictMode` };
    case "openai-codex-responses":
      return { supported: flag(model, "supportsStrictMode") !== false, rule: `${name} sets compat.supportsStrictMode to false` };
    case "anthropic-messages":
      return { supported: flag(model, "supportsStrictTools") === true, rule: `${name} does not set compat.supportsStrictTools` };
    case "google-generative-ai":
    case "google-vertex": {
      const major = geminiMajorVersion(model.id);
      return { supported: major !== undefined && major >= 3, rule: `${name} is not Gemini 3 or later` };
    }
    case "mistral-conversations":
      return { supported: true, rule: "" };
    default:
      return { supported: false, rule: `the ${api} API has no strict tools` };
  }
}

/** A tool as sent: its parameters (strict form when `strict`) and whether it is strict. */
export interface SentTool {
  parameters: JsonSchema;
  strict: boolean;
}

/** What `tool` is sent as to a model with `support`; throws (naming the tool) when it requires strict sampling and cannot have it. */
export function sentTool(tool: ToolSpec, support: StrictToolSupport): SentTool {
  const sampling = tool.constrainedSampling;
  const plain = { parameters: tool.parameters, strict: false };
  if (sampling?.type !== "json_schema") return plain;
  const required = sampling.strict === "require";
  if (!support.supported) {
    if (required) throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but strict tools are unsupported: ${support.rule}.`);
    return plain;
  }
  try {
    return { parameters: strictSchema(tool.parameters), strict: true };
  } catch (error) {
    if (!(error instanceof NotStrictSchema)) throw error;
    if (!required) return plain;
    throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but ${error.message}.`);
  }
}

/** Each of `tools` as sent to `model` through `api`. */
export function sentTools(model: Model, api: Api, tools: readonly ToolSpec[]): SentTool[] {
  const support = strictToolSupport(model, api);
  return tools.map((tool) => sentTool(tool, support));
}
