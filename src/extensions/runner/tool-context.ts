/**
 * The `ctx` a tool's `execute` gets (upstream Pi 1.x's `ExtensionToolContext`): the extension
 * context plus `tools`, the tools it may call, and `executeTool`, which asks pig to run one for
 * this call (`tools.call`), through pig's checks and hooks, with events that name this call as
 * the parent.
 */
import type { AgentToolResult, CallableTool, ExecuteToolOptions, ExtensionToolContext, ToolCallOutcome, ToolInfo } from "../api/types.ts";
import type { ToolsCallResult } from "../protocol.ts";
import { createContext } from "./context.ts";
import { describe } from "./peer.ts";
import type { ExtensionRecord } from "./record.ts";
import type { Runtime } from "./runtime.ts";

/** Upstream's rule: the active `direct` tools and every `codemode` or `deferred` one. */
export function isCallable(tool: ToolInfo, active: readonly string[]): boolean {
  const exposure = tool.exposure ?? "direct";
  return exposure === "codemode" || exposure === "deferred" || (exposure === "direct" && active.includes(tool.name));
}

export function createToolContext(runtime: Runtime, record: ExtensionRecord, toolCallId: string, signal: AbortSignal): ExtensionToolContext {
  const ctx = createContext(runtime, record, { signal });
  const executeTool = async (name: string, args: unknown, options: ExecuteToolOptions = {}): Promise<ToolCallOutcome> => {
    const callArgs = (args !== null && typeof args === "object" && !Array.isArray(args) ? args : {}) as Record<string, unknown>;
    try {
      const reply = await runtime.peer.request<ToolsCallResult>(
        "tools.call",
        { toolCallId, name, args: callArgs },
        {
          signal: options.signal ?? signal,
          ...(options.onUpdate ? { onProgress: (value: unknown) => options.onUpdate!(value as Parameters<NonNullable<ExecuteToolOptions["onUpdate"]>>[0]) } : {}),
        },
      );
      return {
        toolCall: { type: "toolCall", id: reply.toolCallId, name, arguments: callArgs },
        result: reply.result as AgentToolResult,
        isError: reply.isError,
        ...(reply.durationMs !== undefined ? { durationMs: reply.durationMs } : {}),
      };
    } catch (error) {
      // As upstream, a failure comes back as an error result, never as a rejection.
      return {
        toolCall: { type: "toolCall", id: `${toolCallId}/?`, name, arguments: callArgs },
        result: { content: [{ type: "text", text: describe(error) }], details: {} },
        isError: true,
      };
    }
  };
  const asCallable = (tool: ToolInfo): CallableTool => ({
    name: tool.name,
    label: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.executionMode ? { executionMode: tool.executionMode } : {}),
    execute: async (_id, params, callSignal, onUpdate) =>
      (await executeTool(tool.name, params, { ...(callSignal ? { signal: callSignal } : {}), ...(onUpdate ? { onUpdate } : {}) })).result,
  });
  // A getter (Object.assign would copy one value): the list follows the state as it changes.
  Object.defineProperty(ctx, "tools", {
    enumerable: true,
    get: (): readonly CallableTool[] => {
      const { allTools, activeTools } = runtime.state.value;
      return allTools.filter((tool) => isCallable(tool, activeTools)).map(asCallable);
    },
  });
  return Object.assign(ctx as ExtensionToolContext, { executeTool });
}
