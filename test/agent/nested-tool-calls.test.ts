/**
 * The calls a running tool makes (`ctx.executeTool`): ids under the caller's, the bounded record
 * the caller's result keeps, sequential tools one at a time, and an error outside a run.
 */
import { expect, test } from "bun:test";
import type { LoopEvent } from "../../src/agent/events.ts";
import { NESTED_CALL_LIMITS, NestedToolCallRunner } from "../../src/agent/nested-tool-calls.ts";
import type { ToolCallConfig } from "../../src/agent/tool-calls.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { tool } from "../helpers/scripted-session.ts";

function runner(tools: AnyTool[], running = true) {
  const events: LoopEvent[] = [];
  const config: ToolCallConfig = { tools, toolContext: { cwd: "/", agentDir: "/" }, toolExecution: "parallel" };
  const signal = new AbortController().signal;
  const nested = new NestedToolCallRunner({
    config: () => (running ? config : undefined),
    signal: () => (running ? signal : undefined),
    callable: () => tools,
    emit: (event) => events.push(event),
  });
  return { nested, events };
}

test("nested calls get ids under their caller's, and the caller's record lists them, its nested calls' calls included", async () => {
  const echo = tool("echo", async (args) => String(args.ms));
  let innerId = "";
  // A tool that, while it runs, calls another: that call belongs to the same model-issued call.
  const outer: AnyTool = {
    ...tool("outer", async () => ""),
    async execute(toolCallId) {
      innerId = (await nested.execute(toolCallId, "echo", { ms: 2 })).toolCallId;
      return { content: [{ type: "text", text: "outer done" }] };
    },
  };
  const { nested, events } = runner([echo, outer]);
  const first = await nested.execute("call_1", "outer", {});
  const missing = await nested.execute("call_1", "nope", {});
  expect([first.toolCallId, innerId, missing.toolCallId]).toEqual(["call_1/1", "call_1/1/1", "call_1/2"]);
  expect(missing).toMatchObject({ isError: true, result: { content: [{ type: "text", text: "Tool nope not found" }] } });
  expect(events.filter((e) => e.type === "tool_execution_start").map((e) => [e.toolCallId, (e as { parentToolCallId?: string }).parentToolCallId])).toEqual([
    ["call_1/1", "call_1"],
    ["call_1/1/1", "call_1/1"],
    ["call_1/2", "call_1"],
  ]);
  const record = nested.take("call_1")!;
  expect(record.complete).toBe(true);
  expect(record.calls.every((c) => typeof c.durationMs === "number")).toBe(true);
  expect(record.calls.map((c) => [c.id, c.status])).toEqual([
    ["call_1/1", "ok"],
    ["call_1/1/1", "ok"],
    ["call_1/2", "error"],
  ]);
  expect(nested.take("call_1")).toBeUndefined();
});

test("the record keeps upstream's bounds: large arguments are left out by size, calls beyond the count dropped", async () => {
  const echo = tool("echo", async () => "ok");
  const { nested } = runner([echo]);
  await nested.execute("c", "echo", { text: "x".repeat(NESTED_CALL_LIMITS.maxArgumentBytesPerCall) });
  for (let i = 0; i < NESTED_CALL_LIMITS.maxCalls; i++) await nested.execute("c", "echo", {});
  const record = nested.take("c")!;
  expect(record.complete).toBe(false);
  expect(record.calls).toHaveLength(NESTED_CALL_LIMITS.maxCalls);
  expect(record.calls[0]!.arguments).toBeUndefined();
  expect(record.calls[0]!.argumentsBytes).toBeGreaterThan(NESTED_CALL_LIMITS.maxArgumentBytesPerCall);
});

test("calls to a sequential tool run one at a time; outside a run a call is an error result", async () => {
  let running = 0;
  let most = 0;
  const slow = tool(
    "slow",
    async () => {
      most = Math.max(most, ++running);
      await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return "done";
    },
    { executionMode: "sequential" },
  );
  const { nested } = runner([slow]);
  const outcomes = await Promise.all([nested.execute("a", "slow", {}), nested.execute("b", "slow", {}), nested.execute("a", "slow", {})]);
  expect(outcomes.map((o) => o.isError)).toEqual([false, false, false]);
  expect(most).toBe(1);

  const idle = runner([slow], false).nested;
  expect(await idle.execute("x", "slow", {})).toMatchObject({ isError: true, toolCallId: "x/1" });
});
