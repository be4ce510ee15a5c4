/**
 * An extension's custom message (`sendMessage`) as the session delivers it, upstream's way:
 * appended and announced when idle, the prompt of a run with `triggerTurn`, steering or a
 * follow-up while a run goes on (not shown in the queue), or waiting for the next prompt.
 */
import { describe, expect, test } from "bun:test";
import { NO_HOOKS, type AgentHooks } from "../../src/agent/hooks.ts";
import type { CustomMessage } from "../../src/session/message-format.ts";
import { ExtensionSessionPort } from "../../src/runtime/extension-port.ts";
import { makeSession, types, until } from "../helpers/scripted-session.ts";

function custom(text: string, display = true): CustomMessage {
  return { role: "custom", customType: "note", content: text, display, details: { n: 1 }, timestamp: Date.now() };
}

/** Whether the model was sent `text` somewhere in request `context`. */
const sent = (context: unknown, text: string) => JSON.stringify(context).includes(text);

function gate() {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("sendCustomMessage", () => {
  test("idle: added to the context and the file as a custom_message, with message_start and message_end, no run", async () => {
    const { session, events, store } = makeSession([]);
    const message = custom("remember this");
    await session.sendCustomMessage(message);
    expect(types(events)).toEqual(["message_start", "message_end"]);
    expect(events[0]).toEqual({ type: "message_start", message });
    expect(session.messages.at(-1)).toBe(message);
    const entry = store.tree.records.at(-1)!;
    expect(entry.type).toBe("custom_message");
    expect(store.getEntry(entry.id)).toMatchObject({ type: "custom_message", customType: "note", content: "remember this", display: true, details: { n: 1 } });
  });

  test("idle with triggerTurn: a run with the message as its prompt, without the input hook; before_agent_start is told it is a custom message (upstream 1.x)", async () => {
    const asked: string[] = [];
    const hooks: AgentHooks = {
      ...NO_HOOKS,
      input: async () => {
        asked.push("input");
        return { action: "continue" };
      },
      beforeAgentStart: async (event) => {
        asked.push(`before_agent_start:${event.messageType}:${event.messageType === "custom" ? event.message.customType : ""}`);
        return undefined;
      },
    };
    const { session, events, seen } = makeSession([{ text: "answered" }], [], { more: { hooks } });
    await session.sendCustomMessage(custom("do the thing"), { triggerTurn: true });
    expect(types(events)).toContain("agent_start");
    expect(seen).toHaveLength(1);
    expect(sent(seen[0]!.messages.at(-1), "do the thing")).toBe(true);
    expect(asked).toEqual([`before_agent_start:custom:${custom("do the thing").customType}`]);
    expect(session.messages.map((m) => m.role).slice(-2)).toEqual(["custom", "assistant"]);
  });

  test("while running, steer (the default): delivered before the next model call, not shown in the queue", async () => {
    const held = gate();
    const { session, events, seen } = makeSession([{ gate: held.promise, calls: [{ id: "c1", name: "sleep", arguments: { ms: 0 } }] }, { text: "done" }]);
    const run = session.prompt("start");
    await until(() => seen.length === 1);
    await session.sendCustomMessage(custom("steered note"));
    expect(events.filter((e) => e.type === "queue_update")).toEqual([]);
    expect(session.steering.texts).toEqual([]);
    expect(session.steering.length).toBe(1);
    held.open();
    await run;
    expect(seen).toHaveLength(2);
    expect(sent(seen[1]!.messages, "steered note")).toBe(true);
    expect(events.filter((e) => e.type === "queue_update")).toEqual([]);
  });

  test("while running, followUp: delivered when the agent would stop, as a new turn", async () => {
    const held = gate();
    const { session, seen } = makeSession([{ gate: held.promise, text: "first" }, { text: "second" }]);
    const run = session.prompt("start");
    await until(() => seen.length === 1);
    await session.sendCustomMessage(custom("follow-up note"), { deliverAs: "followUp" });
    expect(session.followUps.length).toBe(1);
    held.open();
    await run;
    expect(seen).toHaveLength(2);
    expect(sent(seen[1]!.messages.at(-1), "follow-up note")).toBe(true);
  });

  test("nextTurn: kept for the next prompt, right after its user message", async () => {
    const { session, events, seen } = makeSession([{ text: "ok" }]);
    await session.sendCustomMessage(custom("for later"), { deliverAs: "nextTurn", triggerTurn: true });
    expect(events).toEqual([]);
    expect(session.messages.some((m) => m.role === "custom")).toBe(false);
    await session.prompt("now");
    const roles = seen[0]!.messages.map((m) => m.role);
    const texts = seen[0]!.messages.map((m) => JSON.stringify(m));
    const user = texts.findIndex((t) => t.includes('"now"'));
    expect(user).toBeGreaterThanOrEqual(0);
    expect(texts[user + 1]).toContain("for later");
    expect(roles.length).toBe(user + 2);
  });

  test("a custom message taken off the queues by an abort is not given back as text", async () => {
    const held = gate();
    const { session, seen } = makeSession([{ gate: held.promise, text: "first" }]);
    const run = session.prompt("start");
    await until(() => seen.length === 1);
    await session.sendCustomMessage(custom("queued note"), { deliverAs: "followUp" });
    session.followUp("typed");
    expect(await session.abort()).toEqual(["typed"]);
    await run.catch(() => undefined);
  });
});

describe("the extension port's sendMessage", () => {
  function bound(replies: Parameters<typeof makeSession>[0] = []) {
    const made = makeSession(replies);
    const port = new ExtensionSessionPort("/work", { shutdown: () => {}, reload: async () => {} });
    port.bind(made.session);
    return { ...made, port };
  }

  test("idle: the message is placed before the call is answered", async () => {
    const { session, port } = bound();
    await port.sendMessage({ message: { customType: "note", content: [{ type: "text", text: "hello" }], display: false } });
    expect(session.messages.at(-1)).toMatchObject({ role: "custom", customType: "note", display: false, content: [{ type: "text", text: "hello" }] });
  });

  test("triggerTurn is answered at once; the run it starts goes on", async () => {
    const { session, port, seen } = bound([{ text: "sure" }]);
    await port.sendMessage({ message: { customType: "note", content: "go", display: true }, options: { triggerTurn: true } });
    await session.waitForIdle();
    expect(seen).toHaveLength(1);
    expect(session.messages.at(-1)).toMatchObject({ role: "assistant" });
  });

  test("content that is no message content is refused", async () => {
    const { port } = bound();
    await expect(port.sendMessage({ message: { customType: "note", content: 42, display: true } })).rejects.toThrow("sendMessage: the message is not valid");
  });
});
