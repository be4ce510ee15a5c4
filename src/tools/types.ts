/**
 * What a tool is, for the agent loop and for every source of tools (built-ins now, SDK and
 * extension tools later): a name, a JSON Schema for its arguments, and an `execute` that returns
 * content for the model plus details for the UI. A tool signals failure by throwing; the loop
 * turns the error's message into an error result.
 */
import type { ConstrainedSampling, JsonSchema, LlmImage, LlmText, Model } from "../ai/types.ts";
import type { SpillFiles } from "./spill-files.ts";

export type ToolContent = LlmText | LlmImage;

export interface ToolResult<TDetails = unknown> {
  content: ToolContent[];
  details?: TDetails;
  /** When every result of a batch sets this, the loop makes no further model call for it. */
  terminate?: boolean;
}

export type ToolUpdate<TDetails = unknown> = (partial: ToolResult<TDetails>) => void;

/** What a running tool may know about the session it runs in. */
export interface ToolContext {
  /** The session's working directory: relative paths resolve against it. */
  cwd: string;
  /** The agent directory (`~/.pig/agent`). */
  agentDir: string;
  /** The model the answer came from (e.g. `read` checks whether it takes images). */
  model?: Model;
  /** Where long output is kept for the session (bash); the process's own set when absent. */
  spillFiles?: SpillFiles;
}

export interface ToolDefinition<TArgs = Record<string, unknown>, TDetails = unknown> {
  name: string;
  /** Shown in UIs; upstream uses the name. */
  label: string;
  /** Sent to the model. */
  description: string;
  parameters: JsonSchema;
  /** Ask APIs that can for sampling constrained to the schema (upstream declares its file tools so). */
  constrainedSampling?: ConstrainedSampling;
  /** One line for the system prompt's tool list; a tool without one is not listed there. */
  promptSnippet?: string;
  /** Bullets the system prompt adds to its guidelines while this tool is active. */
  promptGuidelines?: string[];
  /** `sequential` forces the whole batch it is part of to run one call at a time. */
  executionMode?: "parallel" | "sequential";
  /**
   * The tool keeps its results within the output limits itself, with notices of its own that say
   * how to see more (the built-ins, whose descriptions promise Pi's limits); every other tool's
   * results are bounded by the loop (output-bound.ts, setting `toolOutput`).
   */
  boundsOwnOutput?: boolean;
  /** Adjusts raw arguments before validation (e.g. accepting an older argument shape). */
  prepareArguments?: (args: Record<string, unknown>) => Record<string, unknown>;
  execute(
    toolCallId: string,
    args: TArgs,
    signal: AbortSignal,
    onUpdate: ToolUpdate<TDetails>,
    context: ToolContext,
  ): Promise<ToolResult<TDetails>>;
}

/** Any tool, whatever its argument and detail types (`execute` is a method, so this holds them all). */
export type AnyTool = ToolDefinition<Record<string, unknown>, unknown>;
