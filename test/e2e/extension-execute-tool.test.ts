/**
 * `ctx.tools` and `ctx.executeTool()` (upstream Pi 1.x) through the built binary: a TypeScript
 * extension's tool runs other tools through pig's own path — argument checks, the `tool_call`
 * and `tool_result` handlers, the callable set (deferred tools included, unknown ones refused) —
 * and every nested call's events carry `parentToolCallId` and an id of `<parent>/<n>`. The
 * nested calls add no messages: the model sees the calling tool's result only, and the session
 * records them as `nestedCalls` on it.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extensionWorlds, onlySessionEntries, readJsonLines } from "../helpers/extension-worlds.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const { world, track } = extensionWorlds();

type Json = Record<string, any>;

const EXTENSION = `
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const obj = (properties, required = []) => ({ type: "object", properties, required });
const log = (record) => appendFileSync(join(process.cwd(), "seen.jsonl"), JSON.stringify(record) + "\\n");
const text = (result) => result.content.map((c) => c.text ?? "").join("");
export default function (pi) {
  pi.registerTool({
    name: "helper", label: "Helper", description: "Doubles x", parameters: obj({ x: { type: "number" } }, ["x"]),
    async execute(_id, params, _signal, onUpdate) {
      onUpdate?.({ content: [{ type: "text", text: "halfway" }], details: {} });
      return { content: [{ type: "text", text: "helped " + params.x }], details: {}, structuredContent: { doubled: params.x * 2 } };
    },
  });
  pi.registerTool({
    name: "secret_deferred", label: "Deferred", description: "Callable though not declared", parameters: obj({}), exposure: "deferred",
    async execute() { return { content: [{ type: "text", text: "deferred ran" }], details: {} }; },
  });
  pi.registerTool({
    name: "guarded", label: "Guarded", description: "Blocked for nested calls", parameters: obj({}),
    async execute() { return { content: [{ type: "text", text: "guarded ran" }], details: {} }; },
  });
  pi.registerTool({
    name: "orchestrate", label: "Orchestrate", description: "Runs other tools", parameters: obj({}),
    async execute(toolCallId, _params, _signal, _onUpdate, ctx) {
      const updates = [];
      writeFileSync(join(process.cwd(), "callable.json"), JSON.stringify(ctx.tools.map((t) => t.name)));
      const outcomes = [
        await ctx.executeTool("helper", { x: 2 }, { onUpdate: (partial) => updates.push(text(partial)) }),
        await ctx.executeTool("helper", { x: "not a number" }),
        await ctx.executeTool("secret_deferred", {}),
        await ctx.executeTool("nope", {}),
        await ctx.executeTool("guarded", {}),
      ];
      const summary = outcomes.map((o) => ({ id: o.toolCall.id, name: o.toolCall.name, isError: o.isError, text: text(o.result), structuredContent: o.result.structuredContent ?? null, timed: typeof o.durationMs === "number" }));
      writeFileSync(join(process.cwd(), "outcomes.json"), JSON.stringify({ parent: toolCallId, summary, updates }));
      return { content: [{ type: "text", text: "orchestrated " + outcomes.filter((o) => !o.isError).length }], details: {} };
    },
  });
  pi.on("tool_call", (event) => {
    log({ on: "tool_call", name: event.toolName, parent: event.parentToolCallId ?? null });
    if (event.toolName === "guarded" && event.parentToolCallId) return { block: true, reason: "not from a tool" };
  });
  pi.on("tool_result", (event) => log({ on: "tool_result", name: event.toolName, parent: event.parentToolCallId ?? null, isError: event.isError }));
  for (const name of ["tool_execution_start", "tool_execution_update", "tool_execution_end"]) {
    pi.on(name, (event) => log({ on: name, id: event.toolCallId, name: event.toolName, parent: event.parentToolCallId ?? null }));
  }
}
`;

test("a tool runs other tools through pig's checks and hooks; nested events carry parentToolCallId; the model sees only the caller's result and the session records the calls", async () => {
  const w = await world([{ toolCalls: [{ name: "orchestrate", arguments: {} }] }, { text: "done" }], { files: { "ext/orchestrate.ts": EXTENSION } });
  const run = await w.run(["--mode", "json", "-p", "-e", join(w.cwd, "ext", "orchestrate.ts"), "orchestrate"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const { parent, summary, updates } = JSON.parse(readFileSync(join(w.cwd, "outcomes.json"), "utf8")) as { parent: string; summary: Json[]; updates: string[] };

  // ctx.tools: the active direct tools and the deferred one; not this process's view of anything hidden.
  const callable = JSON.parse(readFileSync(join(w.cwd, "callable.json"), "utf8")) as string[];
  expect(callable).toEqual(expect.arrayContaining(["helper", "secret_deferred", "guarded", "orchestrate", "read", "bash"]));

  expect(summary).toEqual([
    { id: `${parent}/1`, name: "helper", isError: false, text: "helped 2", structuredContent: { doubled: 4 }, timed: true },
    { id: `${parent}/2`, name: "helper", isError: true, text: expect.stringContaining("x"), structuredContent: null, timed: false },
    { id: `${parent}/3`, name: "secret_deferred", isError: false, text: "deferred ran", structuredContent: null, timed: true },
    { id: `${parent}/4`, name: "nope", isError: true, text: "Tool nope not found", structuredContent: null, timed: false },
    { id: `${parent}/5`, name: "guarded", isError: true, text: "not from a tool", structuredContent: null, timed: false },
  ]);
  expect(updates).toEqual(["halfway"]);

  // The hooks heard every nested call that got that far, with its parent.
  const seen = readJsonLines(join(w.cwd, "seen.jsonl"));
  expect(seen.filter((s) => s.on === "tool_call").map((s) => [s.name, s.parent])).toEqual([
    ["orchestrate", null],
    ["helper", parent],
    ["secret_deferred", parent],
    ["guarded", parent],
  ]);
  expect(seen.filter((s) => s.on === "tool_result").map((s) => [s.name, s.parent, s.isError])).toEqual([
    ["helper", parent, false],
    ["secret_deferred", parent, false],
    ["orchestrate", null, false],
  ]);
  expect(seen.filter((s) => s.on === "tool_execution_start").map((s) => [s.id, s.parent])).toEqual([
    [parent, null],
    ...[1, 2, 3, 4, 5].map((n) => [`${parent}/${n}`, parent]),
  ]);
  expect(seen.filter((s) => s.on === "tool_execution_update").map((s) => [s.id, s.parent])).toEqual([[`${parent}/1`, parent]]);

  // json mode shows the nested events too.
  const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as Json);
  const nestedEnds = events.filter((e) => e.type === "tool_execution_end" && e.parentToolCallId === parent);
  expect(nestedEnds.map((e) => [e.toolCallId, e.toolName, e.isError])).toEqual([
    [`${parent}/1`, "helper", false],
    [`${parent}/2`, "helper", true],
    [`${parent}/3`, "secret_deferred", false],
    [`${parent}/4`, "nope", true],
    [`${parent}/5`, "guarded", true],
  ]);

  // The model: one tool result, the caller's.
  const second = w.llm.requests[1]!.body as { messages: Json[] };
  const toolMessages = second.messages.filter((m) => m.role === "tool");
  expect(toolMessages).toHaveLength(1);
  expect(JSON.stringify(toolMessages[0])).toContain("orchestrated 2");

  // The session: no message for a nested call; the caller's result records them.
  const results = onlySessionEntries(join(w.agentDir, "sessions")).filter((e) => e.type === "message" && e.message.role === "toolResult").map((e) => e.message);
  expect(results.map((m) => m.toolName)).toEqual(["orchestrate"]);
  const nested = results[0]!.nestedCalls as { calls: Json[]; complete: boolean };
  expect(nested.complete).toBe(true);
  expect(nested.calls.map((c) => [c.id, c.name, c.status, c.arguments])).toEqual([
    [`${parent}/1`, "helper", "ok", { x: 2 }],
    [`${parent}/2`, "helper", "error", { x: "not a number" }],
    [`${parent}/3`, "secret_deferred", "ok", {}],
    [`${parent}/4`, "nope", "error", {}],
    [`${parent}/5`, "guarded", "error", {}],
  ]);
  expect(nested.calls[4]!.error).toBe("not from a tool");
});

test("RPC clients see a nested call's start, update and end with its parent, and its durationMs", async () => {
  const w = await world([{ toolCalls: [{ name: "orchestrate", arguments: {} }] }, { text: "done" }], { files: { "ext/orchestrate.ts": EXTENSION } });
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", join(w.cwd, "ext", "orchestrate.ts")] }));
  await client.promptAndWait("orchestrate");
  const end = await client.waitFor((l) => l.type === "tool_execution_end" && l.toolName === "secret_deferred");
  const parent = end.parentToolCallId as string;
  expect(end).toMatchObject({ toolCallId: `${parent}/3`, isError: false, result: { content: [{ type: "text", text: "deferred ran" }] } });
  expect(typeof end.durationMs).toBe("number");
  await client.waitFor((l) => l.type === "tool_execution_update" && l.toolCallId === `${parent}/1` && l.parentToolCallId === parent);
  const outer = await client.waitFor((l) => l.type === "tool_execution_end" && l.toolName === "orchestrate");
  expect(outer.toolCallId).toBe(parent);
  expect(outer.parentToolCallId).toBeUndefined();
});
