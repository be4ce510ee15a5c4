/**
 * A tool's result on its way to the model (Pi 1.x): a returned `isError` makes an error result
 * with the details kept, structured content survives a hook that leaves the content alone and
 * goes with content a hook replaces, and every call that ran says how long it took.
 */
import { expect, test } from "bun:test";
import type { LoopEvent } from "../../src/agent/events.ts";
import { executeToolCalls, type ToolCallConfig } from "../../src/agent/tool-calls.ts";
import type { ToolResultMessage } from "../../src/session/format.ts";
import type { AnyTool } from "../../src/tools/types.ts";

const structured: AnyTool = {
  name: "structured",
  label: "structured",
  description: "",
  parameters: { type: "object", properties: {} },
  async execute() {
    return { content: [{ type: "text", text: "seven" }], details: { d: 1 }, structuredContent: { n: 7 } };
  },
};
const failing: AnyTool = {
  ...structured,
  name: "failing",
  async execute() {
    return { content: [{ type: "text", text: "it broke" }], details: { why: "kept" }, structuredContent: { partial: true }, isError: true };
  },
};

async function run(config: Partial<ToolCallConfig>, names: string[]) {
  const events: LoopEvent[] = [];
  const messages: ToolResultMessage[] = [];
  const full: ToolCallConfig = { tools: [structured, failing], toolContext: { cwd: "/", agentDir: "/" }, toolExecution: "parallel", ...config };
  const calls = names.map((name, i) => ({ type: "toolCall" as const, id: `c${i}`, name, arguments: {} }));
  await executeToolCalls(calls, full, (e) => events.push(e), async (m) => void messages.push(m), new AbortController().signal);
  const ends = events.filter((e): e is Extract<LoopEvent, { type: "tool_execution_end" }> => e.type === "tool_execution_end");
  return { ends, messages };
}

test("a returned isError is an error result that keeps its details and structured content; both say how long the tool ran", async () => {
  const { ends, messages } = await run({}, ["structured", "failing"]);
  expect(ends.map((e) => [e.toolName, e.isError, e.result.structuredContent, typeof e.durationMs])).toEqual([
    ["structured", false, { n: 7 }, "number"],
    ["failing", true, { partial: true }, "number"],
  ]);
  expect(messages.map((m) => [m.toolName, m.isError, m.details, typeof m.durationMs, "structuredContent" in m])).toEqual([
    ["structured", false, { d: 1 }, "number", false],
    ["failing", true, { why: "kept" }, "number", false],
  ]);
});

test("a hook that replaces the content drops the structured content unless it gives new; one that leaves the content keeps it", async () => {
  const replaced = await run({ toolResult: async () => ({ content: [{ type: "text", text: "new" }] }) }, ["structured"]);
  expect(replaced.ends[0]!.result.structuredContent).toBeUndefined();
  const both = await run({ toolResult: async () => ({ content: [{ type: "text", text: "new" }], structuredContent: { n: 8 } }) }, ["structured"]);
  expect(both.ends[0]!.result.structuredContent).toEqual({ n: 8 });
  const detailsOnly = await run({ toolResult: async () => ({ details: { d: 2 } }) }, ["structured"]);
  expect(detailsOnly.ends[0]!.result).toMatchObject({ details: { d: 2 }, structuredContent: { n: 7 } });
});

test("a call that never ran (blocked, unknown) has no durationMs", async () => {
  const { ends, messages } = await run({ toolCall: async () => ({ block: true, reason: "no" }) }, ["structured", "missing"]);
  expect(ends.map((e) => [e.isError, e.durationMs])).toEqual([
    [true, undefined],
    [true, undefined],
  ]);
  expect(messages.every((m) => m.durationMs === undefined)).toBe(true);
});
