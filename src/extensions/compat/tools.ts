/**
 * Pi's built-in tool factories (`createReadTool(cwd)`, `createReadToolDefinition(cwd)`, …) for
 * extensions that wrap or override a built-in. The runner is the pig binary, so these are
 * pig's own tools, bound to the given cwd. Pi's pluggable `operations` (remote file systems,
 * spawn hooks) are not supported: the tools always work on the local machine.
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

function bind(make: () => unknown, cwd: string): CompatTool {
  const tool = make() as AnyTool;
  return {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.promptSnippet !== undefined ? { promptSnippet: tool.promptSnippet } : {}),
    ...(tool.promptGuidelines !== undefined ? { promptGuidelines: tool.promptGuidelines } : {}),
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

const make = (name: keyof typeof factories) => (cwd: string = process.cwd(), _options?: unknown) => bind(factories[name], cwd);

export const createReadTool = make("read");
export const createBashTool = make("bash");
export const createEditTool = make("edit");
export const createWriteTool = make("write");
export const createGrepTool = make("grep");
export const createFindTool = make("find");
export const createLsTool = make("ls");
export const createReadToolDefinition = createReadTool;
export const createBashToolDefinition = createBashTool;
export const createEditToolDefinition = createEditTool;
export const createWriteToolDefinition = createWriteTool;
export const createGrepToolDefinition = createGrepTool;
export const createFindToolDefinition = createFindTool;
export const createLsToolDefinition = createLsTool;

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
