/**
 * Calls a running tool makes to other tools (`ctx.executeTool`, upstream Pi 1.x). The loop does
 * not know them: each goes through the same checks and hooks as the model's calls, against the
 * tools another tool may call, with events that carry `parentToolCallId` and an id of
 * `<parent id>/<n>`. They add no messages; the model-issued call they belong to gets a bounded
 * record of them (`nestedCalls`) on its result message.
 */
import type { NestedToolCallRecord, NestedToolCalls } from "../session/message-format.ts";
import type { AnyTool, ToolResult } from "../tools/types.ts";
import type { LoopEvent } from "./events.ts";
import { executeNestedToolCall, type NestedOutcome, type ToolCallConfig } from "./tool-calls.ts";

/** Upstream's bounds on the record: arguments over a size are left out, calls beyond a count dropped. */
export const NESTED_CALL_LIMITS = { maxCalls: 256, maxArgumentBytesPerCall: 8 * 1024, maxArgumentBytesTotal: 32 * 1024, maxErrorChars: 500 };

export interface NestedCallHost {
  /** The tool calls' configuration of the run in progress; none between runs. */
  config(): ToolCallConfig | undefined;
  /** The run's signal, which a nested call follows as well as its own. */
  signal(): AbortSignal | undefined;
  callable(): readonly AnyTool[];
  emit(event: LoopEvent): void;
}

/** A nested call's outcome with the id pig gave the call (`<parent id>/<n>`). */
export type NestedCallOutcome = NestedOutcome & { toolCallId: string };

export interface NestedCallOptions {
  signal?: AbortSignal;
  onUpdate?: (partial: ToolResult) => void;
}

/** The record of the calls one model-issued call made, its nested calls' calls included. */
class NestedCallRecorder {
  readonly calls: NestedToolCallRecord[] = [];
  private complete = true;
  private argumentBytes = 0;

  start(id: string, name: string, args: Record<string, unknown>): NestedToolCallRecord | undefined {
    if (this.calls.length >= NESTED_CALL_LIMITS.maxCalls) {
      this.complete = false;
      return undefined;
    }
    const json = JSON.stringify(args);
    const bytes = Buffer.byteLength(json);
    const record: NestedToolCallRecord = { id, name, status: "unfinished" };
    if (bytes > NESTED_CALL_LIMITS.maxArgumentBytesPerCall || this.argumentBytes + bytes > NESTED_CALL_LIMITS.maxArgumentBytesTotal) {
      record.argumentsBytes = bytes;
      this.complete = false;
    } else {
      record.arguments = JSON.parse(json) as Record<string, unknown>;
      this.argumentBytes += bytes;
    }
    this.calls.push(record);
    return record;
  }

  snapshot(): NestedToolCalls | undefined {
    if (this.calls.length === 0 && this.complete) return undefined;
    const calls = this.calls.map((call) => ({ ...call }));
    return { calls, complete: this.complete && calls.every((call) => call.status !== "unfinished") };
  }
}

function textOf(result: ToolResult): string {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

export class NestedToolCallRunner {
  /**
   * By call id: the recorder of the model-issued call it belongs to, the next child number, and
   * whether the call holds the queue of sequential calls (its own nested calls then run freely).
   */
  private readonly scopes = new Map<string, { recorder: NestedCallRecorder; next: number; holdsQueue: boolean }>();
  /** Nested calls that must not run alongside others (sequential execution, a sequential tool) wait here. */
  private queueTail: Promise<void> = Promise.resolve();

  constructor(private readonly host: NestedCallHost) {}

  async execute(parentToolCallId: string, name: string, args: unknown, options: NestedCallOptions = {}): Promise<NestedCallOutcome> {
    const config = this.host.config();
    const runSignal = this.host.signal();
    let scope = this.scopes.get(parentToolCallId);
    if (!scope) this.scopes.set(parentToolCallId, (scope = { recorder: new NestedCallRecorder(), next: 1, holdsQueue: false }));
    const id = `${parentToolCallId}/${scope.next++}`;
    if (!config || !runSignal) {
      return { toolCallId: id, result: { content: [{ type: "text", text: "No tool call is running: executeTool works only while a tool runs" }], details: {} }, isError: true };
    }
    const callArgs = args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    const record = scope.recorder.start(id, name, callArgs);
    // The record times the whole call (checks and hooks included), as upstream's does.
    const started = performance.now();
    const tools = this.host.callable();
    const exclusive = !scope.holdsQueue && (config.toolExecution === "sequential" || tools.find((tool) => tool.name === name)?.executionMode === "sequential");
    // Calls this call makes belong to the same model-issued call.
    this.scopes.set(id, { recorder: scope.recorder, next: 1, holdsQueue: scope.holdsQueue || exclusive });
    const signal = options.signal ? AbortSignal.any([runSignal, options.signal]) : runSignal;
    const emit = (event: LoopEvent): void => {
      if (event.type === "tool_execution_update" && event.toolCallId === id) options.onUpdate?.(event.partialResult);
      this.host.emit(event);
    };
    let release: (() => void) | undefined;
    if (exclusive) {
      const previous = this.queueTail;
      this.queueTail = new Promise((resolve) => (release = resolve));
      await previous;
    }
    let outcome: NestedOutcome;
    try {
      outcome = await executeNestedToolCall({ type: "toolCall", id, name, arguments: callArgs }, parentToolCallId, tools, config, emit, signal);
    } finally {
      this.scopes.delete(id);
      release?.();
    }
    if (record) {
      record.status = outcome.isError ? "error" : "ok";
      record.durationMs = Math.round(performance.now() - started);
      if (outcome.isError) record.error = textOf(outcome.result).slice(0, NESTED_CALL_LIMITS.maxErrorChars);
    }
    return { ...outcome, toolCallId: id };
  }

  /** The record for a model-issued call's result message, taken once. */
  take(toolCallId: string): NestedToolCalls | undefined {
    const scope = this.scopes.get(toolCallId);
    this.scopes.delete(toolCallId);
    return scope?.recorder.snapshot();
  }

  /** A run is over: records nobody took go. */
  clear(): void {
    this.scopes.clear();
  }
}
