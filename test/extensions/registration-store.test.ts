import { describe, expect, test } from "bun:test";
import { RegistrationStore } from "../../src/extensions/host/registry.ts";
import type { RegisterParams } from "../../src/extensions/protocol.ts";

function registration(extension: string, events: string[]): RegisterParams {
  return { extension, tools: [], commands: [], shortcuts: [], flags: [], providers: [], renderers: [], events, virtualModels: [], mcpServers: [] };
}

describe("RegistrationStore.subscribers", () => {
  test("lists an event's subscribers in load order, whatever order they registered in", () => {
    const store = new RegistrationStore(["a", "b", "c"]);
    store.apply("c", 1, registration("c", ["tool_call"]));
    store.apply("a", 1, registration("a", ["tool_call", "session_start"]));
    expect(store.subscribers("tool_call")).toEqual(["a", "c"]);
    expect(store.subscribers("session_start")).toEqual(["a"]);
    expect(store.subscribers("turn_end")).toEqual([]);
  });

  test("a registration, a new generation and a removal each change the lists asked for before", () => {
    const store = new RegistrationStore(["a", "b"]);
    store.apply("a", 1, registration("a", ["tool_call"]));
    expect(store.subscribers("tool_call")).toEqual(["a"]);
    expect(store.subscribers("context")).toEqual([]);

    store.apply("b", 1, registration("b", ["tool_call", "context"]));
    expect(store.subscribers("tool_call")).toEqual(["a", "b"]);
    expect(store.subscribers("context")).toEqual(["b"]);

    // A restarted process registers afresh: its old subscriptions go.
    store.apply("b", 2, registration("b", ["context"]));
    expect(store.subscribers("tool_call")).toEqual(["a"]);
    expect(store.subscribers("context")).toEqual(["b"]);

    store.remove("b");
    expect(store.subscribers("context")).toEqual([]);
    expect(store.subscribers("tool_call")).toEqual(["a"]);

    store.declare("b", [], []);
    store.apply("b", 1, registration("b", ["context"]));
    expect(store.subscribers("context")).toEqual(["b"]);
  });

  test("asked again without a change, the answer is the same list", () => {
    const store = new RegistrationStore(["a"]);
    store.apply("a", 1, registration("a", ["tool_call"]));
    const first = store.subscribers("tool_call");
    expect(store.subscribers("tool_call")).toBe(first);
    store.apply("a", 1, registration("a", ["turn_end"]));
    expect(store.subscribers("tool_call")).not.toBe(first);
    expect(store.subscribers("tool_call")).toEqual(["a"]);
  });
});
