/**
 * Running one answer's tool calls: each call is announced, its arguments checked, then offered to
 * the `toolCall` hook (which may block it or edit the arguments in place); the tools that may run
 * do, and each result is offered to the `toolResult` hook before its end is reported.
 */
import type { ToolResultMessage } from "../session/format.ts";
import { boundToolResult, type OutputLimits } from "../tools/output-bound.ts";
import type { AnyTool, ToolContext, ToolResult } from "../tools/types.ts";
import { validateToolArguments } from "../tools/validate.ts";
import type { LoopEvent, NestedToolCalls } from "./events.ts";
import type { ToolCallHookEvent, ToolCallHookResult, ToolResultHookEvent, ToolResultHookResult } from "./hooks.ts";

export type ToolCallBlock = { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

/** What the tool calls of a run need from the loop's configuration. */
export interface ToolCallConfig {
  tools: readonly AnyTool[];
  toolContext: ToolContext;
  toolExecution: "parallel" | "sequential";
  /** The bound on results of tools that do not bound their own (none when absent, as for an extension's own agent). */
  outputLimits?: OutputLimits;
  /** May block a checked call; a throw blocks it too, with the thrown message. */
  toolCall?: (event: ToolCallHookEvent, signal?: AbortSignal) => Promise<ToolCallHookResult | undefined>;
  /** May patch a result (content, details, structuredContent, isError), errors included. */
  toolResult?: (event: ToolResultHookEvent, signal?: AbortSignal) => Promise<ToolResultHookResult | undefined>;
  /** The record of the calls a model-issued call made through `ctx.executeTool` (taken once, for its result message). */
  takeNestedCalls?: (toolCallId: string) => NestedToolCalls | undefined;
}

type Emit = (event: LoopEvent) => void;

interface Prepared {
  call: ToolCallBlock;
  tool?: AnyTool;
  args: Record<string, unknown>;
  /** Set when preflight failed or the call was blocked: the error text for the model. */
  error?: string;
  /** The call of the tool that made this one (`ctx.executeTool`); absent for the model's calls. */
  parentToolCallId?: string;
}

interface Outcome {
  result: ToolResult;
  isError: boolean;
  /** Milliseconds `execute` took (monotonic clock); absent when the tool did not run. */
  durationMs?: number;
}

const NONE: ReadonlyMap<object, string> = new Map();

function errorResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], details: {} };
}

/** What the model is told about a call whose arguments did not arrive whole (the start of them is shown). */
function invalidArgumentsMessage(name: string, text: string): string {
  const shown = text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length - 2000} more characters)` : text;
  return `The arguments of this ${name} call are not valid JSON (cut off or malformed), so the tool was not run. Arguments received:\n${shown}`;
}

function prepare(call: ToolCallBlock, tools: readonly AnyTool[], invalidText: string | undefined): Prepared {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { call, args: call.arguments, error: `Tool ${call.name} not found` };
  if (invalidText !== undefined) return { call, tool, args: call.arguments, error: invalidArgumentsMessage(call.name, invalidText) };
  let args = call.arguments;
  try {
    if (tool.prepareArguments) args = tool.prepareArguments(args);
  } catch (error) {
    return { call, tool, args, error: (error as Error).message };
  }
  const checked = validateToolArguments(tool, args);
  if (!checked.ok) return { call, tool, args, error: checked.message };
  return { call, tool, args: checked.args };
}

/** Asks the `toolCall` hook about a call that passed its checks; a blocked call gets its error text. */
async function gate(p: Prepared, config: ToolCallConfig, signal: AbortSignal): Promise<void> {
  if (p.error !== undefined || !config.toolCall) return;
  try {
    // The run's signal: an abort ends a hook that is still deciding, and the call is blocked.
    const parent = p.parentToolCallId !== undefined ? { parentToolCallId: p.parentToolCallId } : {};
    const verdict = await config.toolCall({ toolCallId: p.call.id, toolName: p.call.name, ...parent, input: p.args }, signal);
    if (verdict?.block) p.error = verdict.reason ?? "Tool execution was blocked";
  } catch (error) {
    // As upstream: a hook that fails blocks the call rather than letting it run unchecked.
    p.error = error instanceof Error ? error.message : `Extension failed, blocking execution: ${String(error)}`;
  }
}

async function patched(p: Prepared, outcome: Outcome, config: ToolCallConfig, signal: AbortSignal): Promise<Outcome> {
  if (!config.toolResult) return outcome;
  const { structuredContent } = outcome.result;
  const patch = await config.toolResult({
    toolCallId: p.call.id,
    toolName: p.call.name,
    ...(p.parentToolCallId !== undefined ? { parentToolCallId: p.parentToolCallId } : {}),
    input: p.args,
    content: outcome.result.content,
    details: outcome.result.details,
    ...(structuredContent !== undefined ? { structuredContent } : {}),
    isError: outcome.isError,
  }, signal);
  if (!patch) return outcome;
  // As upstream: structured content not replaced along with the content may no longer match it.
  const structured = patch.structuredContent ?? (patch.content !== undefined ? undefined : structuredContent);
  const { structuredContent: _old, ...rest } = outcome.result;
  return {
    ...outcome,
    result: {
      ...rest,
      ...(patch.content !== undefined ? { content: patch.content } : {}),
      ...(patch.details !== undefined ? { details: patch.details } : {}),
      ...(structured !== undefined ? { structuredContent: structured } : {}),
    },
    isError: patch.isError ?? outcome.isError,
  };
}

async function run(p: Prepared, config: ToolCallConfig, emit: Emit, signal: AbortSignal): Promise<Outcome> {
  const parent = p.parentToolCallId !== undefined ? { parentToolCallId: p.parentToolCallId } : {};
  const base = { toolCallId: p.call.id, toolName: p.call.name, args: p.call.arguments, ...parent };
  let outcome: Outcome;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const result = await p.tool!.execute(
      p.call.id,
      p.args,
      signal,
      (partialResult) => emit({ type: "tool_execution_update", ...base, partialResult }),
      config.toolContext,
    );
    // Only a returned `isError: true` marks the result an error (upstream: other values never do).
    outcome = { result, isError: result.isError === true, durationMs: elapsed() };
  } catch (error) {
    outcome = { result: errorResult(error instanceof Error ? error.message : String(error)), isError: true, durationMs: elapsed() };
  }
  if (config.outputLimits && !p.tool!.boundsOwnOutput) {
    outcome = { ...outcome, result: boundToolResult(outcome.result, config.outputLimits, config.toolContext.spillFiles) };
  }
  outcome = await patched(p, outcome, config, signal);
  emit({ type: "tool_execution_end", toolCallId: base.toolCallId, toolName: base.toolName, result: outcome.result, isError: outcome.isError, ...durationOf(outcome), ...parent });
  return outcome;
}

function durationOf(outcome: Outcome): { durationMs?: number } {
  return outcome.durationMs !== undefined ? { durationMs: outcome.durationMs } : {};
}

function resultMessage(p: Prepared, outcome: Outcome, config: ToolCallConfig): ToolResultMessage {
  const nested = config.takeNestedCalls?.(p.call.id);
  return {
    role: "toolResult",
    toolCallId: p.call.id,
    toolName: p.call.name,
    content: outcome.result.content,
    ...(outcome.result.details !== undefined ? { details: outcome.result.details } : {}),
    isError: outcome.isError,
    ...durationOf(outcome),
    timestamp: Date.now(),
    // Last, where upstream adds it to the finished message.
    ...(nested ? { nestedCalls: nested } : {}),
  } as ToolResultMessage;
}

/** What a call another tool made (`ctx.executeTool`) comes back as; it never throws for a tool's failure. */
export interface NestedOutcome {
  result: ToolResult;
  isError: boolean;
  durationMs?: number;
}

/**
 * One call a running tool makes: announced, checked against `tools` (the callable ones), gated
 * and run through the hooks like the model's calls, its events carrying `parentToolCallId`. It
 * adds no message: the result goes back to the calling tool only.
 */
export async function executeNestedToolCall(
  call: ToolCallBlock,
  parentToolCallId: string,
  tools: readonly AnyTool[],
  config: ToolCallConfig,
  emit: Emit,
  signal: AbortSignal,
): Promise<NestedOutcome> {
  const p: Prepared = { ...prepare(call, tools, undefined), parentToolCallId };
  emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments, parentToolCallId });
  if (signal.aborted && p.error === undefined) p.error = "Tool execution was aborted";
  await gate(p, config, signal);
  if (p.error === undefined) return run(p, config, emit, signal);
  const result = errorResult(p.error);
  emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError: true, parentToolCallId });
  return { result, isError: true };
}

/**
 * Runs a batch of tool calls. Parallel (the default): every call is announced, checked and gated
 * in order, the ones allowed run at once (ends reported as they finish), and the result messages
 * follow in call order. Sequential (configured, or any tool in the batch asks for it): one call
 * at a time, each followed by its result message. `add` records and announces a result message.
 * A call in `invalidArguments` (its argument text, keyed by the call) is answered with an error.
 */
export async function executeToolCalls(
  calls: readonly ToolCallBlock[],
  config: ToolCallConfig,
  emit: Emit,
  add: (message: ToolResultMessage) => Promise<void>,
  signal: AbortSignal,
  invalidArguments: ReadonlyMap<object, string> = NONE,
): Promise<{ results: ToolResultMessage[]; terminate: boolean }> {
  const prepared = calls.map((call) => prepare(call, config.tools, invalidArguments.get(call)));
  const sequential = config.toolExecution === "sequential" || prepared.some((p) => p.tool?.executionMode === "sequential");
  const announce = (p: Prepared) => emit({ type: "tool_execution_start", toolCallId: p.call.id, toolName: p.call.name, args: p.call.arguments });
  const rejected = (p: Prepared): Outcome => {
    const outcome = { result: errorResult(p.error!), isError: true };
    emit({ type: "tool_execution_end", toolCallId: p.call.id, toolName: p.call.name, result: outcome.result, isError: true });
    return outcome;
  };
  const outcomes: Outcome[] = [];
  const results: ToolResultMessage[] = [];
  const deliver = async (p: Prepared, outcome: Outcome) => {
    outcomes.push(outcome);
    const message = resultMessage(p, outcome, config);
    await add(message);
    results.push(message);
  };
  if (sequential) {
    for (const p of prepared) {
      announce(p);
      await gate(p, config, signal);
      await deliver(p, p.error !== undefined ? rejected(p) : await run(p, config, emit, signal));
    }
  } else {
    const early: (Outcome | undefined)[] = [];
    for (const p of prepared) {
      announce(p);
      await gate(p, config, signal);
      early.push(p.error !== undefined ? rejected(p) : undefined);
    }
    const settled = await Promise.all(prepared.map((p, i) => early[i] ?? run(p, config, emit, signal)));
    for (const [i, p] of prepared.entries()) await deliver(p, settled[i]!);
  }
  const terminate = outcomes.length > 0 && outcomes.every((o) => !o.isError && o.result.terminate === true);
  return { results, terminate };
}
