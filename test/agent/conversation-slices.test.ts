import { describe, expect, test } from "bun:test";
import { Conversation } from "../../src/agent/conversation.ts";
import type { AgentMessage } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";

/** A store with `n` exchanges (a question and an answer each), in memory. */
function storeWith(n: number): SessionStore {
  const store = SessionStore.create({ cwd: "/work" });
  for (let i = 0; i < n; i++) {
    store.appendMessage({ role: "user", content: [{ type: "text", text: `question ${i}` }], timestamp: i } as AgentMessage);
    store.appendMessage({ role: "assistant", content: [{ type: "text", text: `answer ${i}` }], api: "x", provider: "p", model: "m", usage: {}, stopReason: "stop", timestamp: i } as unknown as AgentMessage);
  }
  return store;
}

/** Ends a task: what `buildInSlices` waits for between slices, counted; `stop` makes it the last. */
function tasks(): { next: () => Promise<boolean>; count: number; stop: boolean } {
  const t = { count: 0, stop: false, next: () => new Promise<boolean>((resolve) => setImmediate(() => (t.count++, resolve(!t.stop)))) };
  return t;
}

describe("the context read a slice at a time", () => {
  test("ends with the messages a read at once gives, over several tasks", async () => {
    const store = storeWith(150);
    const sliced = new Conversation(() => store);
    const t = tasks();
    await sliced.buildInSlices(t.next);
    expect(t.count).toBeGreaterThan(1);
    expect(sliced.messages).toEqual(store.buildContext().messages);
    expect(sliced.messages).toHaveLength(300);
  });

  test("asked for meanwhile, the context is read at once, and the slices stop", async () => {
    const store = storeWith(150);
    const conversation = new Conversation(() => store);
    const t = tasks();
    const building = conversation.buildInSlices(t.next);
    const now = conversation.messages;
    await building;
    expect(conversation.messages).toBe(now);
    expect(now).toHaveLength(300);
    expect(t.count).toBe(1);
  });

  test("told to stop (pig is leaving), the reading ends there and leaves the context unread", async () => {
    const store = storeWith(150);
    const conversation = new Conversation(() => store);
    const t = tasks();
    t.stop = true;
    await conversation.buildInSlices(t.next);
    expect(t.count).toBe(1);
    // Not built: the count still comes from the plan, and the messages are read when asked for.
    expect(conversation.count).toBe(300);
    expect(conversation.messages).toHaveLength(300);
  });

  test("a session that changes meanwhile is read again when next needed, with what was added", async () => {
    const store = storeWith(150);
    let current = store;
    const conversation = new Conversation(() => current);
    const building = conversation.buildInSlices(tasks().next);
    store.appendMessage({ role: "user", content: [{ type: "text", text: "one more" }], timestamp: 999 } as AgentMessage);
    await building;
    expect(conversation.messages).toHaveLength(301);
    // Another session (a /resume) while the first is read: its messages, not the first one's.
    const other = storeWith(100);
    const again = new Conversation(() => current);
    const switching = again.buildInSlices(tasks().next);
    current = other;
    await switching;
    expect(again.messages).toEqual(other.buildContext().messages);
  });
});
