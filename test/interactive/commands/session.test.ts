import { describe, expect, test } from "bun:test";
import { hotkeysCommand, keyLabel, messageBreakdown, sessionCommand } from "../../../src/modes/interactive/commands/info.ts";
import { resolveKeybindings } from "../../../src/modes/interactive/input/keybindings.ts";
import { cloneCommand, nameCommand, newCommand, quitCommand, reloadCommand } from "../../../src/modes/interactive/commands/session.ts";
import { labelCommand } from "../../../src/modes/interactive/commands/tree.ts";
import { makeHost } from "./fake-host.ts";

describe("/new and /clone", () => {
  test("/new replaces the session and tells the host", async () => {
    const host = makeHost();
    await host.session.prompt("hello");
    const before = host.session.store.sessionId;
    await newCommand.run(host, "");
    expect(host.session.store.sessionId).not.toBe(before);
    expect(host.session.messages).toHaveLength(0);
    expect(host.changes).toBe(1);
  });

  test("/clone keeps the conversation in a new session", async () => {
    const host = makeHost();
    await host.session.prompt("hello");
    const before = host.session.store.sessionId;
    await cloneCommand.run(host, "");
    expect(host.session.store.sessionId).not.toBe(before);
    expect(host.session.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(host.changes).toBe(1);
  });
});

describe("/name", () => {
  test("names the session from the argument", async () => {
    const host = makeHost();
    const events: unknown[] = [];
    host.session.subscribe((e) => events.push(e));
    await nameCommand.run(host, "auth refactor");
    expect(host.session.store.name).toBe("auth refactor");
    // Announced once, by the session (the interactive view prints it); the command adds nothing.
    expect(events).toEqual([{ type: "session_info_changed", name: "auth refactor" }]);
    expect(host.text).toBe("");
  });

  test("without an argument asks, offering the current name", async () => {
    const host = makeHost();
    host.session.setSessionName("old");
    host.askAnswers = ["new name"];
    await nameCommand.run(host, "");
    expect(host.asks[0]!.config?.initial).toBe("old");
    expect(host.session.store.name).toBe("new name");
  });

  test("a cancelled question changes nothing", async () => {
    const host = makeHost();
    host.askAnswers = [undefined];
    await nameCommand.run(host, "");
    expect(host.session.store.name).toBeUndefined();
    expect(host.output).toHaveLength(0);
  });
});

describe("/session", () => {
  test("reports file, id, entries, messages, tokens, cost and context", async () => {
    const host = makeHost();
    await host.session.prompt("hello");
    await sessionCommand.run(host, "");
    const text = host.text;
    const store = host.session.store;
    expect(text).toContain(`File:       ${store.path}`);
    expect(text).toContain(`ID:         ${store.sessionId}`);
    expect(text).toContain(`Entries:    ${store.tree.records.length}`);
    expect(text).toContain("Messages:   3 (1 user, 1 prompt message, 1 assistant)");
    expect(text).toContain("Tool calls: 0");
    expect(text).toContain("Tokens:     120 total (100 in, 20 out");
    expect(text).toContain("Cost:       $0.0030");
    expect(text).toMatch(/Context:    \S+ of 200k/);
    expect(text).toContain("Model:      test/alpha (thinking: medium)");
  });

  test("the message counts add up to the total, shell commands named as such", () => {
    const roles = ["user", "assistant", "toolResult", "assistant", "bashExecution", "bashExecution", "compactionSummary", "custom"];
    const parts = messageBreakdown(roles.map((role) => ({ role })));
    expect(parts).toEqual(["1 user", "2 assistant", "1 tool result", "2 shell commands", "1 extension message", "1 compaction summary"]);
    expect(parts.reduce((sum, part) => sum + Number.parseInt(part, 10), 0)).toBe(roles.length);
    expect(messageBreakdown([])).toEqual(["0 user", "0 assistant"]);
    expect(messageBreakdown([{ role: "someday" }])).toEqual(["0 user", "0 assistant", "1 someday"]);
  });

  test("an in-memory session says it is not saved", async () => {
    const host = makeHost({ inMemory: true });
    await sessionCommand.run(host, "");
    expect(host.text).toContain("File:       (in memory, not saved)");
  });
});

describe("/label", () => {
  test("labels the current entry, and a second label replaces it rather than labelling the label", async () => {
    const host = makeHost();
    await host.session.prompt("hello");
    const store = host.session.store;
    const answer = store.leafId!;
    await labelCommand.run(host, "first");
    await labelCommand.run(host, "second");
    expect(store.tree.labelOf(answer)?.label).toBe("second");
    await labelCommand.run(host, "");
    expect(store.tree.labelOf(answer)).toBeUndefined();
    expect(host.text).toContain("info: Label cleared.");
  });

  test("no text on an entry without a label says there is none, and writes nothing", async () => {
    const host = makeHost();
    await host.session.prompt("hello");
    const store = host.session.store;
    const entries = store.tree.records.length;
    await labelCommand.run(host, "  ");
    expect(host.text).toContain("info: The current entry has no label to remove.");
    expect(host.text).not.toContain("Label cleared.");
    expect(store.tree.records.length).toBe(entries);
  });
});

describe("small commands", () => {
  test("/reload asks the host to reload; /quit asks it to exit", async () => {
    const host = makeHost();
    await reloadCommand.run(host, "");
    await quitCommand.run(host, "");
    expect(host.reloads).toBe(1);
    expect(host.exited).toBe(true);
  });

  test("/hotkeys lists the keys", async () => {
    const host = makeHost();
    await hotkeysCommand.run(host, "");
    for (const key of ["Alt+Enter", "Escape", "Ctrl+C", "Ctrl+D", "Ctrl+L", "Ctrl+P", "Shift+Tab", "Ctrl+T", "Ctrl+O", "Alt+Up", "Ctrl+G", "Tab", "@", "!!command"]) {
      expect(host.text).toContain(key);
    }
  });
});

describe("/hotkeys under the user's keys", () => {
  test("shows the keys in force and (unbound) for an action without keys", async () => {
    const host = makeHost();
    host.keybindings = resolveKeybindings({ "app.model.select": "ctrl+shift+m", "app.tools.expand": [] }, "keybindings.json").bindings;
    await hotkeysCommand.run(host, "");
    expect(host.text).toMatch(/Ctrl\+Shift\+M\s+choose a model/);
    expect(host.text).toMatch(/\(unbound\)\s+show the last tool result in full/);
    expect(keyLabel("alt+pageup")).toBe("Alt+PageUp");
    expect(keyLabel("ctrl++")).toBe("Ctrl++");
  });
});
