/**
 * AgentSession with a scripted in-process model: event order, parallel and sequential tools,
 * steering and follow-up queues, abort, and what reaches the session file.
 */
import { describe, expect, test } from "bun:test";
import { makeSession, MODEL, tool, types, until } from "../helpers/scripted-session.ts";
import type { AnyTool } from "../../src/tools/types.ts";

describe("a run", () => {
  test("a plain answer: upstream's event order, and the file gets every entry", async () => {
    const { session, events, store } = makeSession([{ text: "hi" }]);
    await session.prompt("hello");
    expect(types(events)).toEqual([
      "agent_start",
      "turn_start",
      // The system message declaring the prompt and tools, then the user's.
      "message_start",
      "message_end",
      "message_start",
      "message_end",
      "message_start",
      "message_update",
      "message_update",
      "message_update",
      "message_end",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    const lines = (await Bun.file(store.path!).text()).trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(["session", "model_change", "thinking_level_change", "message", "message", "message"]);
    expect(lines.slice(3).map((l) => l.message.role)).toEqual(["system", "user", "assistant"]);
  });

  test("parallel tools: announced in call order, ended as they finish, results in call order", async () => {
    // "a" finishes only after "b" has: run one after the other, "a" would give up waiting first.
    let bDone!: () => void;
    const bFinished = new Promise<void>((resolve) => (bDone = resolve));
    const waiter = tool("waiter", async () => {
      await Promise.race([bFinished, Bun.sleep(10_000)]);
      return "a";
    });
    const quick = tool("quick", async () => {
      bDone();
      return "b";
    });
    const { session, events, seen } = makeSession(
      [{ calls: [{ id: "a", name: "waiter", arguments: {} }, { id: "b", name: "quick", arguments: {} }] }, { text: "done" }],
      [waiter, quick],
    );
    await session.prompt("go");
    const toolEvents = events.filter((e) => e.type.startsWith("tool_execution") || (e.type === "message_end" && e.message.role === "toolResult"));
    expect(toolEvents.map((e) => `${e.type}:${"toolCallId" in e ? e.toolCallId : (e as { message: { toolCallId: string } }).message.toolCallId}`)).toEqual([
      "tool_execution_start:a",
      "tool_execution_start:b",
      "tool_execution_end:b",
      "tool_execution_end:a",
      "message_end:a",
      "message_end:b",
    ]);
    expect(seen[1]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
  });

  test("a sequential tool makes the whole batch run one call at a time", async () => {
    const order: string[] = [];
    const slow = tool("slow", async (args) => {
      order.push(`start ${args.ms}`);
      await Bun.sleep(Number(args.ms));
      order.push(`end ${args.ms}`);
      return "ok";
    }, { executionMode: "sequential" });
    const { session } = makeSession(
      [{ calls: [{ id: "a", name: "slow", arguments: { ms: 30 } }, { id: "b", name: "slow", arguments: { ms: 1 } }] }, { text: "done" }],
      [slow],
    );
    await session.prompt("go");
    expect(order).toEqual(["start 30", "end 30", "start 1", "end 1"]);
  });

  test("a tool that throws becomes an error result; the run goes on", async () => {
    const broken = tool("broken", async () => {
      throw new Error("disk on fire");
    });
    const { session, seen } = makeSession([{ calls: [{ id: "a", name: "broken", arguments: {} }] }, { text: "sorry" }], [broken]);
    await session.prompt("go");
    expect(seen[1]!.messages[2]).toMatchObject({ role: "toolResult", isError: true, content: [{ type: "text", text: "disk on fire" }] });
  });

  test("when every result asks to terminate, the model is not called again", async () => {
    const final = tool("final", async () => "bye", {});
    const terminating: AnyTool = { ...final, async execute() { return { content: [{ type: "text", text: "bye" }], terminate: true }; } };
    const { session, seen } = makeSession([{ calls: [{ id: "a", name: "final", arguments: {} }] }, { text: "never" }], [terminating]);
    await session.prompt("go");
    expect(seen).toHaveLength(1);
  });
});

describe("queues", () => {
  test("steering arrives after the turn's tools, before the next answer; follow-ups when it would stop", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { session, events, seen } = makeSession([
      { calls: [{ id: "a", name: "sleep", arguments: { ms: 1 } }], gate },
      { text: "after steering" },
      { text: "after follow-up" },
    ]);
    const run = session.prompt("start");
    session.steer("steer me");
    await session.prompt("later please", { streamingBehavior: "followUp" });
    expect(events.filter((e) => e.type === "queue_update").at(-1)).toEqual({ type: "queue_update", steering: ["steer me"], followUp: ["later please"] });
    release();
    await run;
    expect(seen.map((c) => c.messages.map((m) => m.role).join(","))).toEqual([
      "user",
      "user,assistant,toolResult,user",
      "user,assistant,toolResult,user,assistant,user",
    ]);
    const texts = seen[2]!.messages.filter((m) => m.role === "user").map((m) => (m.content as { text: string }[])[0]!.text);
    expect(texts).toEqual(["start", "steer me", "later please"]);
  });

  test("a prompt while busy without a behaviour is refused", async () => {
    let release!: () => void;
    const { session } = makeSession([{ text: "x", gate: new Promise<void>((r) => (release = r)) }]);
    const run = session.prompt("one");
    await expect(session.prompt("two")).rejects.toThrow("Agent is already processing");
    release();
    await run;
  });

  test("abort stops the stream, saves the partial answer as aborted, and gives back the queue in order", async () => {
    const { session, store, seen } = makeSession([{ text: "never", gate: new Promise(() => {}) }]);
    const run = session.prompt("one");
    await until(() => seen.length === 1);
    session.steer("first steer");
    session.followUp("then this");
    session.steer("second steer");
    const restored = await session.abort();
    await run;
    expect(restored).toEqual(["first steer", "second steer", "then this"]);
    expect(session.steering.length + session.followUps.length).toBe(0);
    const last = store.buildContext().messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });

  test("an abort right after the prompt stops that run: its model call is aborted from the start", async () => {
    const { session, store } = makeSession([{ text: "never" }]);
    const run = session.prompt("one");
    await session.abort();
    await run;
    expect(store.buildContext().messages.map((m) => (m as { stopReason?: string }).stopReason ?? m.role)).toEqual(["system", "user", "aborted"]);
  });

  test("'all' mode delivers every queued steering message at once", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { session, seen } = makeSession([{ text: "first", gate }, { text: "second" }], [], { mode: "all" });
    const run = session.prompt("go");
    session.steer("s1");
    session.steer("s2");
    release();
    await run;
    expect(seen).toHaveLength(2);
    expect(seen[1]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "user"]);
  });
});

describe("settling (Pi 0.87.1's agent_end.willRetry and agent_settled)", () => {
  test("agent_settled ends each prompt's run once, when the session is idle again", async () => {
    const { session, events } = makeSession([{ text: "one" }, { text: "two" }]);
    let idleWhenSettled: boolean | undefined;
    session.subscribe((e) => {
      if (e.type === "agent_settled") idleWhenSettled = !session.isStreaming;
    });
    await session.prompt("first");
    await session.prompt("second");
    expect(types(events).filter((t) => t === "agent_end" || t === "agent_settled")).toEqual(["agent_end", "agent_settled", "agent_end", "agent_settled"]);
    expect(idleWhenSettled).toBe(true);
    expect(events.filter((e) => e.type === "agent_end").map((e) => (e as { willRetry: boolean }).willRetry)).toEqual([false, false]);
  });

  test("willRetry: true while a retry follows, false on the last attempt; one agent_settled for the whole chain", async () => {
    const { session, events } = makeSession([{ error: "503 overloaded" }, { error: "503 overloaded" }], [], { maxRetries: 1 });
    await session.prompt("go");
    const ends = events.filter((e) => e.type === "agent_end" || e.type === "agent_settled" || e.type.startsWith("auto_retry"));
    expect(ends.map((e) => (e.type === "agent_end" ? `agent_end:${e.willRetry}` : e.type))).toEqual([
      "agent_end:true",
      "auto_retry_start",
      "agent_end:false",
      "auto_retry_end",
      "agent_settled",
    ]);
  });

  test("a failure that is not retried, or a run that was stopped, says willRetry false", async () => {
    const bad = makeSession([{ error: "400 invalid request" }], [], { maxRetries: 3 });
    await bad.session.prompt("go");
    expect(bad.events.find((e) => e.type === "agent_end")).toMatchObject({ willRetry: false });
    const stopped = makeSession([{ text: "never", gate: new Promise(() => {}) }], [], { maxRetries: 3 });
    const run = stopped.session.prompt("go");
    await until(() => stopped.seen.length === 1);
    await stopped.session.abort();
    await run;
    expect(stopped.events.find((e) => e.type === "agent_end")).toMatchObject({ willRetry: false });
    expect(types(stopped.events).at(-1)).toBe("agent_settled");
  });
});

describe("clearing the queues (RPC clear_queue, abort)", () => {
  test("clearQueue gives each queue's texts on its own and announces the empty queues", async () => {
    const { session, events } = makeSession([]);
    session.steer("s1");
    session.followUp("f1");
    session.steer("s2");
    expect(session.clearQueue()).toEqual({ steering: ["s1", "s2"], followUp: ["f1"] });
    expect(events.at(-1)).toEqual({ type: "queue_update", steering: [], followUp: [] });
    const told = events.length;
    expect(session.clearQueue()).toEqual({ steering: [], followUp: [] });
    expect(events).toHaveLength(told);
  });

  test("abort with keepQueued stops the run and leaves the queued messages for the next one", async () => {
    const { session, seen } = makeSession([{ text: "never", gate: new Promise(() => {}) }, { text: "next" }]);
    const run = session.prompt("one");
    await until(() => seen.length === 1);
    session.followUp("still queued");
    expect(await session.abort({ keepQueued: true })).toEqual([]);
    await run;
    expect(session.followUps.texts).toEqual(["still queued"]);
    await session.prompt("two");
    expect(seen[1]!.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content))).toEqual([
      expect.stringContaining("one"),
      expect.stringContaining("two"),
    ]);
  });
});

describe("model and thinking", () => {
  test("switching models keeps the level in force when no defaultThinkingLevel is set (Pi 0.87); nothing changes, nothing is written", () => {
    const { session, events, store } = makeSession([]);
    const before = store.tree.records.length;
    session.setModel({ ...MODEL, id: "thinker", reasoning: true });
    expect(session.thinkingLevel).toBe("off");
    expect(events.filter((e) => e.type === "thinking_level_changed")).toEqual([]);
    expect(store.tree.records.map((r) => r.type).slice(before)).toEqual(["model_change"]);
  });

  test("with defaultThinkingLevel set, a switch goes to it (clamped), records it once and says so", () => {
    const { session, events, store } = makeSession([], [], { defaultThinkingLevel: "high" });
    session.setModel({ ...MODEL, id: "thinker", reasoning: true });
    expect(session.thinkingLevel).toBe("high");
    expect(events).toContainEqual({ type: "thinking_level_changed", level: "high" });
    const types = store.tree.records.map((r) => r.type);
    expect(types.slice(-2)).toEqual(["model_change", "thinking_level_change"]);
    session.setThinkingLevel("high");
    expect(store.tree.records).toHaveLength(types.length);
  });
});
