/**
 * What changed in the protocol between Pi 0.73.1 and 0.87.1, through the built binary: the wire
 * form of streaming updates (RPC and JSON mode), settled runs, the new commands and events.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { RpcClient, type Line } from "../helpers/rpc-client.ts";
import { gate, until } from "../helpers/waits.ts";

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function rpc(script: Script, options: WorldOptions = {}, args: string[] = []) {
  const w = await createWorld({ ...options, llm: { ...options.llm, script } });
  worlds.push(w);
  const client = new RpcClient({ cwd: w.cwd, env: w.env, args });
  clients.push(client);
  return { w, client };
}

const dataOf = (response: Line) => response.data as Record<string, unknown>;
const deltaOf = (line: Line) => line.assistantMessageEvent as Line;

const TOOL_TURN: Script = [{ toolCalls: [{ name: "bash", arguments: { command: "echo ran" } }] }, { text: "All done here.", chunkSize: 4 }];

/** The checks a delta-only stream must pass, whichever mode printed it. */
function expectDeltaOnly(lines: Line[]): void {
  const updates = lines.filter((l) => l.type === "message_update");
  expect(updates.length).toBeGreaterThan(3);
  for (const update of updates) {
    expect(Object.keys(update)).toEqual(["type", "usage", "assistantMessageEvent"]);
    expect(deltaOf(update)).not.toHaveProperty("partial");
    expect(update.usage).toMatchObject({ input: expect.any(Number), output: expect.any(Number), totalTokens: expect.any(Number) });
  }
  const call = (lines.find((l) => l.type === "tool_execution_start") as Line).toolCallId;
  expect(updates.map(deltaOf).find((d) => d.type === "toolcall_start")).toEqual({ type: "toolcall_start", contentIndex: 0, id: call, toolName: "bash" });
  // The answer, rebuilt from the deltas as a client does, is the final message's text.
  const text = updates
    .map(deltaOf)
    .filter((d) => d.type === "text_delta")
    .map((d) => d.delta)
    .join("");
  expect(text).toBe("All done here.");
  const ends = lines.filter((l) => l.type === "agent_end" || l.type === "agent_settled");
  expect(ends.map((l) => l.type)).toEqual(["agent_end", "agent_settled"]);
  expect(ends[0]).toMatchObject({ willRetry: false });
}

describe("streaming on the wire (Pi 0.84+)", () => {
  test("RPC: message_update carries the delta and the usage, toolcall_start its call; the run settles once", async () => {
    const { client } = await rpc(TOOL_TURN);
    await client.promptAndWait("run it");
    await client.waitFor((l) => l.type === "agent_settled");
    expectDeltaOnly(client.lines);
    expect(client.lines.at(-1)).toEqual({ type: "agent_settled", aborted: false });
  });

  test("JSON mode prints the same wire form", async () => {
    const w = await createWorld({ llm: { script: TOOL_TURN } });
    worlds.push(w);
    const result = await w.run(["--mode", "json", "run it"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Line);
    expect(lines[0]).toMatchObject({ type: "session" });
    expectDeltaOnly(lines);
    expect(lines.at(-1)).toEqual({ type: "agent_settled", aborted: false });
  });

  test("a retried answer: willRetry on the failed run's end, one agent_settled after the retry", async () => {
    const { client } = await rpc([{ error: { status: 503, message: "busy" } }, { text: "second time lucky" }], {
      settings: { retry: { enabled: true, maxRetries: 2, baseDelayMs: 10 } },
    });
    await client.request({ type: "prompt", message: "go" });
    await client.waitFor((l) => l.type === "agent_settled");
    const told = client.lines.filter((l) => ["agent_end", "agent_settled", "auto_retry_start", "auto_retry_end"].includes(String(l.type)));
    expect(told.map((l) => (l.type === "agent_end" ? `agent_end:${l.willRetry}` : l.type))).toEqual([
      "agent_end:true",
      "auto_retry_start",
      // A good answer ends the retrying as soon as it is complete, before its run ends (as upstream).
      "auto_retry_end",
      "agent_end:false",
      "agent_settled",
    ]);
  });
});

describe("new commands", () => {
  test("clear_queue hands back the queued messages, which are then not sent", async () => {
    const held = gate();
    const { w, client } = await rpc([{ text: "the only answer" }, { text: "never" }], { llm: { beforeAnswer: (request) => (request.seq === 1 ? held.held : undefined) } });
    await client.request({ type: "prompt", message: "begin" });
    await until(() => w.llm.requests.length === 1, "the first request");
    await client.request({ type: "steer", message: "steer msg" });
    await client.request({ type: "follow_up", message: "follow msg" });
    expect(dataOf(await client.request({ type: "clear_queue" }))).toEqual({ steering: ["steer msg"], followUp: ["follow msg"] });
    expect(client.lines.findLast((l) => l.type === "queue_update")).toEqual({ type: "queue_update", steering: [], followUp: [] });
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ pendingMessageCount: 0 });
    held.release();
    await client.waitFor((l) => l.type === "agent_settled");
    expect(w.llm.requests).toHaveLength(1);
  });

  test("abort keeps the queued messages: they go with the next prompt", async () => {
    const held = gate();
    const { w, client } = await rpc([{ text: "cut short" }, { text: "next answer" }, { text: "follow-up answer" }], {
      llm: { beforeAnswer: (request) => (request.seq === 1 ? held.held : undefined) },
    });
    await client.request({ type: "prompt", message: "begin" });
    await until(() => w.llm.requests.length === 1, "the first request");
    await client.request({ type: "follow_up", message: "kept for later" });
    expect(await client.request({ type: "abort" })).toMatchObject({ success: true });
    held.release();
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ isStreaming: false, pendingMessageCount: 1 });
    const from = client.lines.length;
    await client.request({ type: "prompt", message: "again" });
    await client.waitFor((l) => l.type === "agent_settled", 15_000, from);
    expect(JSON.stringify(w.llm.requests.at(-1)!.body)).toContain("kept for later");
  });

  test("get_available_thinking_levels and the max level, sent as the model's mapped effort", async () => {
    const { w, client } = await rpc([{ text: "thought hard" }], { reasonerLevels: { max: "max" } }, ["--model", "fake/fake-reasoner"]);
    expect(dataOf(await client.request({ type: "get_available_thinking_levels" }))).toEqual({ levels: ["off", "minimal", "low", "medium", "high", "max"] });
    expect(await client.request({ type: "set_thinking_level", level: "max" })).toMatchObject({ success: true });
    expect(client.lines.findLast((l) => l.type === "thinking_level_changed")).toEqual({ type: "thinking_level_changed", level: "max" });
    await client.promptAndWait("think");
    expect((w.llm.requests[0]!.body as Line).reasoning_effort).toBe("max");
    expect(await client.request({ type: "set_model", provider: "fake", modelId: "fake-model" })).toMatchObject({ success: true });
    expect(dataOf(await client.request({ type: "get_available_thinking_levels" }))).toEqual({ levels: ["off"] });
  });

  test("get_entries and get_tree show the session as stored, with a cursor", async () => {
    const { client } = await rpc([{ text: "one" }, { text: "two" }]);
    await client.promptAndWait("first");
    await client.promptAndWait("second");
    const all = dataOf(await client.request({ type: "get_entries" })) as { entries: Line[]; leafId: string };
    expect(all.entries.map((e) => e.type)).toEqual(["model_change", "thinking_level_change", "message", "message", "message", "message", "message"]);
    expect(all.entries.slice(2).map((e) => (e.message as { role: string }).role)).toEqual(["system", "user", "assistant", "user", "assistant"]);
    expect(all.leafId).toBe(all.entries.at(-1)!.id as string);
    const state = dataOf(await client.request({ type: "get_state" }));
    const stored = readFileSync(String(state.sessionFile), "utf8").trimEnd().split("\n").slice(1).map((l) => JSON.parse(l));
    expect(all.entries).toEqual(stored);
    const later = dataOf(await client.request({ type: "get_entries", since: all.entries[4]!.id })) as { entries: Line[] };
    expect(later.entries).toEqual(all.entries.slice(5));
    expect(await client.request({ type: "get_entries", since: "nosuchid" })).toMatchObject({ success: false, error: "Entry not found: nosuchid" });
    const tree = dataOf(await client.request({ type: "get_tree" })) as { tree: { entry: Line; children: unknown[] }[]; leafId: string };
    expect(tree.leafId).toBe(all.leafId);
    const chain: string[] = [];
    for (let node = tree.tree[0]; node; node = node.children[0] as typeof node) chain.push(node.entry.id as string);
    expect(chain).toEqual(all.entries.map((e) => e.id as string));
  });

  test("bash streams its output under the command's id; excludeFromContext keeps it from the model", async () => {
    const { w, client } = await rpc([{ text: "ok" }]);
    const response = await client.request({ type: "bash", id: "b1", command: "printf 'one\\n'; sleep 0.2; printf 'two\\n'", excludeFromContext: true });
    expect(dataOf(response)).toMatchObject({ output: "one\ntwo\n", exitCode: 0 });
    const updates = client.lines.filter((l) => l.type === "bash_execution_update");
    expect(updates.every((u) => u.id === "b1")).toBe(true);
    expect(updates.map((u) => u.delta).join("")).toBe("one\ntwo\n");
    expect(client.lines.indexOf(updates.at(-1)!)).toBeLessThan(client.lines.indexOf(response));
    const messages = (dataOf(await client.request({ type: "get_messages" })).messages as Line[]).filter((m) => m.role === "bashExecution");
    expect(messages).toMatchObject([{ command: expect.stringContaining("printf"), excludeFromContext: true }]);
    await client.promptAndWait("what ran?");
    expect(JSON.stringify(w.llm.requests[0]!.body)).not.toContain("one\\ntwo");
  });
});

describe("bash output (Pi 1.x)", () => {
  test("a colour code the shell writes in two pieces leaves no fragment, streamed or in the response", async () => {
    const { client } = await rpc([{ text: "ok" }]);
    // The code is cut after "\x1b[3"; the pieces reach pig apart (the sleep), as a slow program's do.
    const response = await client.request({ type: "bash", id: "c1", command: "printf '\\033[3'; sleep 0.3; printf '1mred\\033[0m plain\\n'" });
    expect(dataOf(response)).toMatchObject({ output: "red plain\n", exitCode: 0 });
    const updates = client.lines.filter((l) => l.type === "bash_execution_update" && l.id === "c1");
    expect(updates.map((u) => u.delta).join("")).toBe("red plain\n");
  });
});

describe("--name (Pi 0.78)", () => {
  test("names the session before anything runs, in RPC and print mode", async () => {
    const { client } = await rpc([{ text: "named" }], {}, ["--name", "  Nightly check  "]);
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ sessionName: "Nightly check" });
    // Named before the client listened: no session_info_changed line for it, as upstream.
    expect(client.lines.filter((l) => l.type === "session_info_changed")).toEqual([]);
    const w = await createWorld({ llm: { script: [{ text: "named too" }] } });
    worlds.push(w);
    const result = await w.run(["-n", "Print run", "-p", "hi"]);
    expect(result).toMatchObject({ code: 0, stdout: "named too\n" });
    const sessions = await Array.fromAsync(new Bun.Glob("sessions/**/*.jsonl").scan({ cwd: w.agentDir, absolute: true }));
    expect(sessions).toHaveLength(1);
    const entries = readFileSync(sessions[0]!, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Line);
    expect(entries.filter((e) => e.type === "session_info")).toMatchObject([{ name: "Print run" }]);
    expect((await w.run(["--name", " ", "-p", "hi"])).code).toBe(2);
  });
});
