/**
 * Pi's built-in tool factories (`createReadTool(cwd)`, `createReadToolDefinition(cwd)`, …) for
 * extensions that wrap or override a built-in. The runner is the pig binary, so these are
 * pig's own tools, bound to the given cwd. Pi's pluggable `operations` (remote file systems,
 * spawn hooks) are not supported: the tools always work on the local machine.
 *
 * What each factory hands back follows Pi 1.6.0: a `*ToolDefinition` carries the tool's prompt
 * snippet and guidelines, while the plain `create*Tool` gives a bare agent tool without them, except
 * `createBashTool`, which keeps its own. An extension that re-registers the bare read, edit or write
 * tool therefore drops their lines from the system prompt's `<tools>` and `<rules>`, as in Pi.
 */
import { agentDir } from "../../session/paths.ts";
import { createBashTool as pigBash } from "../../tools/bash.ts";
import { createEditTool as pigEdit } from "../../tools/edit.ts";
import { createFindTool as pigFind } from "../../tools/find.ts";
import { createGrepTool as pigGrep } from "../../tools/grep.ts";
import { createLsTool as pigLs } from "../../tools/ls.ts";
import { createReadTool as pigRead } from "../../tools/read.ts";
import type { AnyTool, ToolResult } from "../../tools/types.ts";
import { createWriteTool as pigWrite } from "../../tools/write.ts";

type Update = (partial: ToolResult) => void;

export interface CompatTool {
  name: string;
  label: string;
  description: string;
  parameters: unknown;
  promptSnippet?: string;
  promptGuidelines?: string[];
  executionMode?: "parallel" | "sequential";
  prepareArguments?: (args: Record<string, unknown>) => Record<string, unknown>;
  execute(toolCallId: string, params: Record<string, unknown>, signal?: AbortSignal, onUpdate?: Update, ctx?: { cwd?: string; model?: unknown }): Promise<ToolResult>;
}

function bind(make: () => unknown, cwd: string, withPrompt: boolean): CompatTool {
  const tool = make() as AnyTool;
  const promptSnippet = withPrompt ? tool.promptSnippet : undefined;
  const promptGuidelines = withPrompt ? tool.promptGuidelines : undefined;
  return {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    parameters: tool.parameters,
    ...(promptSnippet !== undefined ? { promptSnippet } : {}),
    ...(promptGuidelines !== undefined ? { promptGuidelines: [...promptGuidelines] } : {}),
    ...(tool.executionMode !== undefined ? { executionMode: tool.executionMode } : {}),
    ...(tool.prepareArguments !== undefined ? { prepareArguments: tool.prepareArguments } : {}),
    execute(toolCallId, params, signal, onUpdate, ctx) {
      const context = { cwd: cwd || ctx?.cwd || process.cwd(), agentDir: agentDir(), ...(ctx?.model ? { model: ctx.model as never } : {}) };
      return tool.execute(toolCallId, params, signal ?? new AbortController().signal, onUpdate ?? (() => {}), context);
    },
  };
}

const factories = {
  read: () => pigRead(),
  bash: () => pigBash(),
  edit: () => pigEdit(),
  write: () => pigWrite(),
  grep: () => pigGrep(),
  find: () => pigFind(),
  ls: () => pigLs(),
};

type ToolName = keyof typeof factories;

/** A `*ToolDefinition` factory: the tool with its prompt snippet and guidelines. */
const definition = (name: ToolName) => (cwd: string = process.cwd(), _options?: unknown) => bind(factories[name], cwd, true);
/** A bare agent-tool factory: no prompt snippet or guidelines (bash alone keeps them, as in Pi). */
const agentTool = (name: ToolName) => (cwd: string = process.cwd(), _options?: unknown) => bind(factories[name], cwd, name === "bash");

export const createReadTool = agentTool("read");
export const createBashTool = agentTool("bash");
export const createEditTool = agentTool("edit");
export const createWriteTool = agentTool("write");
export const createGrepTool = agentTool("grep");
export const createFindTool = agentTool("find");
export const createLsTool = agentTool("ls");
export const createReadToolDefinition = definition("read");
export const createBashToolDefinition = definition("bash");
export const createEditToolDefinition = definition("edit");
export const createWriteToolDefinition = definition("write");
export const createGrepToolDefinition = definition("grep");
export const createFindToolDefinition = definition("find");
export const createLsToolDefinition = definition("ls");

export function createCodingTools(cwd: string = process.cwd()): CompatTool[] {
  return [createReadTool(cwd), createBashTool(cwd), createEditTool(cwd), createWriteTool(cwd)];
}

export function createReadOnlyTools(cwd: string = process.cwd()): CompatTool[] {
  return [createReadTool(cwd), createGrepTool(cwd), createFindTool(cwd), createLsTool(cwd)];
}

/** Pi's local bash operations object: pig runs commands itself, so this only names the shape. */
export function createLocalBashOperations(): Record<string, unknown> {
  return {};
}
