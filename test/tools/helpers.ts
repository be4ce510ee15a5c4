/** Shared bits for the tool tests: a context in a temp dir and a one-call runner. */
import { tempDir } from "../helpers/tmp.ts";
import type { ToolContext, ToolDefinition, ToolResult } from "../../src/tools/types.ts";

export function makeContext(cwd = tempDir("pig-tools-"), extra: Partial<ToolContext> = {}): ToolContext {
  return { cwd, agentDir: tempDir("pig-agent-"), ...extra };
}

export interface RunOptions<D> {
  signal?: AbortSignal;
  updates?: ToolResult<D>[];
}

export function run<A, D>(tool: ToolDefinition<A, D>, args: A, context: ToolContext, options: RunOptions<D> = {}): Promise<ToolResult<D>> {
  const signal = options.signal ?? new AbortController().signal;
  return tool.execute("call-1", args, signal, (partial) => options.updates?.push(partial), context);
}

export function textOf(result: ToolResult<unknown>): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

/** The error message a failing call rejects with. */
export async function errorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the call to fail");
}
