/**
 * `defineBuiltinTool`: a built-in tool declared once. Its valibot schema gives both the argument type
 * the tool's code sees and the JSON Schema the model is sent; its presentation says how the
 * terminal and the export show its calls. The definition makes the tool for a session's options
 * (`create`), and the registry of built-ins (index.ts) lists definitions.
 */
import * as v from "valibot";
import type { ConstrainedSampling, JsonSchema } from "../ai/types.ts";
import { builtOnce } from "../util/built-once.ts";
import { toolJsonSchema } from "./json-schema.ts";
import type { ToolPresentation } from "./presentation.ts";
import type { ToolContext, ToolDefinition, ToolResult, ToolUpdate } from "./types.ts";

/** A tool's arguments: one object whose entries are the named arguments. */
export type ArgumentsSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

export interface ToolSpec<N extends string, S extends ArgumentsSchema, D, O> {
  name: N;
  description: string;
  /**
   * Builds the arguments' schema; descriptions (`v.description`) go to the model with the JSON
   * Schema. Called once, the first time the tool's parameters are read or a call is checked: a
   * run builds the schemas of the tools it offers, not of every built-in.
   */
  arguments: () => S;
  presentation: ToolPresentation;
  constrainedSampling?: ConstrainedSampling;
  promptSnippet?: string;
  promptGuidelines?: string[];
  executionMode?: "parallel" | "sequential";
  prepareArguments?: (args: Record<string, unknown>) => Record<string, unknown>;
  execute(
    toolCallId: string,
    args: v.InferOutput<S>,
    signal: AbortSignal,
    onUpdate: ToolUpdate<D>,
    context: ToolContext,
    options: O,
  ): Promise<ToolResult<D>>;
}

export interface BuiltinTool<N extends string = string, O = unknown, D = unknown> {
  readonly name: N;
  readonly presentation: ToolPresentation;
  /** The JSON Schema the model is sent for the arguments. */
  readonly parameters: JsonSchema;
  /** The tool as a session runs it, with that session's options. */
  create(options: O): ToolDefinition<Record<string, unknown>, D>;
}

export function defineBuiltinTool<const N extends string, S extends ArgumentsSchema, D, O = unknown>(spec: ToolSpec<N, S, D, O>): BuiltinTool<N, O, D> {
  const schema = builtOnce(spec.arguments);
  const parameters = builtOnce(() => toolJsonSchema(schema()));
  return {
    name: spec.name,
    presentation: spec.presentation,
    get parameters() {
      return parameters();
    },
    create(options: O) {
      const tool: ToolDefinition<Record<string, unknown>, D> = {
        name: spec.name,
        label: spec.name,
        description: spec.description,
        get parameters() {
          return parameters();
        },
        boundsOwnOutput: true,
        ...(spec.constrainedSampling ? { constrainedSampling: spec.constrainedSampling } : {}),
        ...(spec.promptSnippet ? { promptSnippet: spec.promptSnippet } : {}),
        ...(spec.promptGuidelines ? { promptGuidelines: spec.promptGuidelines } : {}),
        ...(spec.executionMode ? { executionMode: spec.executionMode } : {}),
        ...(spec.prepareArguments ? { prepareArguments: spec.prepareArguments } : {}),
        // The loop has checked the arguments against `parameters` (with the coercions models
        // need); parsing them with the schema they were derived from gives the tool its type.
        execute: (toolCallId, args, signal, onUpdate, context) =>
          spec.execute(toolCallId, v.parse(schema(), args), signal, onUpdate, context, options),
      };
      return tool;
    },
  };
}
