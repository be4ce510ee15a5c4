/**
 * pig's extension host and the TypeScript runner together, with upstream's examples: the two
 * halves of pig-ext/1 agree on registrations, events, tool calls, commands and replication.
 */
import { promptOptionsOf } from "../../../src/resources/system-prompt-options.ts";
import { afterEach, describe, expect, test } from "bun:test";
import type { ExtensionSource } from "../../../src/extensions/discovery.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { storeSnapshot } from "../../../src/runtime/extension-port.ts";
import { SessionStore } from "../../../src/session/store.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { ctx, FakePort, noUpdate, startTestHost, type TestHost, toolNamed, waitFor } from "../helpers/host-fixture.ts";
import { fixture } from "./harness.ts";

function tsSource(path: string): ExtensionSource {
  return { id: path, entry: path, runtime: "typescript", command: [], ownProcess: false, env: [], activation: ["onStartup"], tools: [], commands: [], name: path.split("/").pop()!, origin: "cli" };
}

let t: TestHost | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("host and runner with upstream examples", () => {
  test("tools, blocking tool_call, commands and a session rebuilt from the replicated log", async () => {
    const todo = fixture("pi-examples", "todo.ts");
    const gate = fixture("pi-examples", "permission-gate.ts");
    const names = fixture("pi-examples", "session-name.ts");
    const hello = fixture("pi-examples", "hello.ts");
    t = await startTestHost([todo, gate, names, hello].map(tsSource));
    const host = t.host;
    expect(host.loadErrors).toEqual([]);
    // A todo list already in the session: the example rebuilds it from getBranch() on session_start.
    const result = JSON.stringify({
      type: "message",
      id: "m1",
      parentId: null,
      timestamp: "t",
      message: { role: "toolResult", toolCallId: "x", toolName: "todo", content: [], details: { action: "add", todos: [{ id: 1, text: "old", done: false }], nextId: 2 }, isError: false, timestamp: 0 },
    });
    t.port.append(result, "m1");
    host.notify("session_start", { reason: "startup" });
    // The notification goes out before the tool call on the same socket, and its handler reads
    // the session synchronously, so the rebuilt list is there when the call arrives.
    const listed = await toolNamed(host, "todo").execute("c1", { action: "list" }, new AbortController().signal, noUpdate, ctx);
    expect((listed.details as { todos: unknown[] }).todos).toEqual([{ id: 1, text: "old", done: false }]);

    const hi = await toolNamed(host, "hello").execute("c2", { name: "host" }, new AbortController().signal, noUpdate, ctx);
    expect(hi.content).toEqual([{ type: "text", text: "Hello, host!" }]);

    const blocked = await host.hooks().toolCall({ toolCallId: "c3", toolName: "bash", input: { command: "sudo reboot" } } as never);
    expect(blocked).toEqual({ block: true, reason: "Dangerous command blocked (no UI for confirmation)" });

    const command = host.commands().find((c) => c.name === "session-name");
    await command!.run("From host");
    await waitFor(() => t!.port.calls.find(([name]) => name === "setName"), "setName");
    expect(t.port.calls.find(([name]) => name === "setName")?.[1]).toEqual(["From host"]);
  });
});

describe("before_agent_start with several handlers in one extension", () => {
  test("every handler's message reaches the prompt, in order", async () => {
    t = await startTestHost([tsSource(fixture("ts", "two-messages.ts"))]);
    expect(t.host.loadErrors).toEqual([]);
    const result = await t.host.hooks().beforeAgentStart({ messageType: "user", prompt: "hi", systemPrompt: "base", systemPromptOptions: promptOptionsOf({ cwd: "/w", tools: [], selected: [] }) });
    expect(result?.messages?.map((m) => [m.customType, m.content, m.display])).toEqual([
      ["first", "one", true],
      ["second", "two", false],
    ]);
  });
});

describe("the first session read from the file, host and runner together", () => {
  class StorePort extends FakePort {
    constructor(private readonly store: SessionStore) {
      super();
      store.onEntryAdded((record) => this.append(store.serializeRecord(record), record.id));
    }
    override snapshot() {
      return storeSnapshot(this.store, false);
    }
    fileSnapshot() {
      return storeSnapshot(this.store, true);
    }
  }

  test("lines on disk from the file, unwritten ones as text, later ones streamed: each entry once", async () => {
    const dir = tempDir("pig-with-host-");
    const path = join(dir, "s.jsonl");
    const line = (id: string, parentId: string | null, text: string) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: "t", message: { role: "user", content: text, timestamp: 0 } });
    writeFileSync(path, [JSON.stringify({ type: "session", version: 3, id: "disk-1", timestamp: "t", cwd: dir }), line("a", null, "one"), line("b", "a", "two")].map((l) => `${l}\n`).join(""));
    // Read-only: what is appended stays in memory, as an entry not flushed yet does.
    const store = SessionStore.open(path);
    store.appendCustomEntry("unsaved", { n: 1 });
    const port = new StorePort(store);
    t = await startTestHost([tsSource(fixture("ts", "session-reader.ts"))], { port });
    expect(t.host.loadErrors).toEqual([]);
    const count = async (): Promise<Record<string, unknown>> => {
      const before = port.calls.filter(([name]) => name === "appendEntry").length;
      await t!.host.commands().find((c) => c.name === "count")!.run("");
      const call = await waitFor(() => port.calls.filter(([name]) => name === "appendEntry")[before], "count entry");
      return (call[1] as [string, Record<string, unknown>])[1];
    };
    expect(await count()).toMatchObject({ entries: 3, branch: 3, header: "disk-1" });
    store.appendMessage({ role: "user", content: "three", timestamp: 0 } as never);
    expect(await count()).toMatchObject({ entries: 4, branch: 4, lastText: "three" });
    store.close();
  });
});
