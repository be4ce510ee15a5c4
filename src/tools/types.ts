/**
 * What a tool is, for the agent loop and for every source of tools (built-ins now, SDK and
 * extension tools later): a name, a JSON Schema for its arguments, and an `execute` that returns
 * content for the model plus details for the UI. A tool signals failure by throwing (the loop
 * turns the error's message into an error result) or by returning a result with `isError`.
 */
import type { ConstrainedSampling, JsonSchema, LlmImage, LlmText, Model } from "../ai/types.ts";
import type { SpillFiles } from "./spill-files.ts";

export type ToolContent = LlmText | LlmImage;

export interface ToolResult<TDetails = unknown> {
  content: ToolContent[];
  details?: TDetails;
  /**
   * A failure reported without throwing (Pi ≥ 1.x): the model gets `content` as an error result,
   * and `details` and `structuredContent` stay for the UI and the tools that called this one.
   */
  isError?: boolean;
  /** Machine-readable result matching the tool's `outputSchema`; never sent to the model. */
  structuredContent?: unknown;
  /** When every result of a batch sets this, the loop makes no further model call for it. */
  terminate?: boolean;
}

/**
 * How the model reaches a tool (upstream Pi 1.x): `direct` is declared while active and callable
 * by other tools while active; `model-only` is declared while active, never callable; `codemode`
 * and `deferred` are callable whenever registered and declared only once activated (`tool_search`
 * activates `deferred` and `codemode` ones); `hidden` is registered but unreachable.
 */
export type ToolExposure = "direct" | "model-only" | "codemode" | "deferred" | "hidden";

/** A group of related tools, such as one MCP server's (upstream's `ToolNamespace`). */
export interface ToolNamespace {
  name: string;
  aliases?: readonly string[];
  description?: string;
  instructions?: string;
}

/** Hints about what a tool does, with the meaning of MCP tool annotations; never verified. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
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
  /** How the model reaches the tool; `direct` when absent. */
  exposure?: ToolExposure;
  /** `false`: registering does not activate it (`--tools`, `defaultTools` or `setActiveTools` do). */
  defaultActive?: boolean;
  /** The group the tool belongs to (any source of tools may set it: extensions, MCP servers). */
  namespace?: ToolNamespace;
  annotations?: ToolAnnotations;
  /** JSON Schema of `structuredContent` in successful results. */
  outputSchema?: JsonSchema;
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
