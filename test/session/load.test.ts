/** Loading hand-made files: every entry type and role, foreign spellings, damage, non-sessions. */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSessionFile, SessionFileError } from "../../src/session/load.ts";
import { SessionStore } from "../../src/session/store.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import { assistant, HEADER, iso, msg, user, writeSession } from "../helpers/sessions.ts";
import { tempDir } from "../helpers/tmp.ts";

function roundTrip(path: string): string {
  const store = SessionStore.open(path);
  const lines = [store.serializeHeader(), ...store.tree.records.map((r) => store.serializeEntry(r.id)!)];
  store.close();
  return `${lines.join("\n")}\n`;
}

describe("every entry type and role", () => {
  const entries = [
    HEADER,
    { type: "model_change", id: "m1", parentId: null, timestamp: iso(), provider: "fake", modelId: "fake-model" },
    { type: "thinking_level_change", id: "t1", parentId: "m1", timestamp: iso(), thinkingLevel: "high" },
    msg("u1", "t1", user("hello")),
    msg("a1", "u1", { ...assistant("hi"), content: [{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" }, { type: "text", text: "hi" }, { type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } }], stopReason: "toolUse" }),
    msg("r1", "a1", { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "file" }, { type: "image", data: "AAAA", mimeType: "image/png" }], isError: false, timestamp: 5 }),
    msg("b1", "r1", { role: "bashExecution", command: "ls", output: "a\nb", exitCode: 2, cancelled: false, truncated: true, fullOutputPath: "/tmp/x.log", timestamp: 6 }),
    msg("b2", "b1", { role: "bashExecution", command: "secret", output: "x", exitCode: 0, cancelled: false, truncated: false, timestamp: 7, excludeFromContext: true }),
    msg("c1m", "b2", { role: "custom", customType: "note", content: "plain", display: true, timestamp: 8 }),
    { type: "custom", customType: "state", data: { n: 1 }, id: "cu1", parentId: "c1m", timestamp: iso() },
    { type: "custom_message", customType: "ext", content: "from ext", display: false, details: { a: 1 }, id: "cm1", parentId: "cu1", timestamp: iso() },
    { type: "branch_summary", id: "bs1", parentId: "cm1", timestamp: iso(), fromId: "cm1", summary: "explored", fromHook: false },
    { type: "label", id: "l1", parentId: "bs1", timestamp: iso(), targetId: "u1", label: "start" },
    { type: "session_info", id: "s1", parentId: "l1", timestamp: iso(), name: "All types" },
    msg("u2", "s1", user("again")),
  ];

  test("load, round-trip and build the context", () => {
    const path = writeSession(entries);
    expect(roundTrip(path)).toBe(readFileSync(path, "utf8"));
    const store = SessionStore.open(path);
    expect(store.diagnostics).toEqual([]);
    expect(store.name).toBe("All types");
    expect(store.tree.labelOf("u1")?.label).toBe("start");
    const context = store.buildContext();
    expect(context.thinkingLevel).toBe("high");
    expect(context.model).toEqual({ provider: "fake", modelId: "fake-model" });
    expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "bashExecution", "bashExecution", "custom", "custom", "branchSummary", "user"]);
    expect(context.messages[6]).toEqual({ role: "custom", customType: "ext", content: "from ext", display: false, details: { a: 1 }, timestamp: Date.parse(entries[10]!.timestamp as string) });
    store.close();
  });

  test("the model sees upstream's wrapper texts", () => {
    const store = SessionStore.open(writeSession(entries));
    const llm = convertToLlm(store.buildContext().messages);
    expect(llm.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user", "user", "user", "user", "user"]);
    expect(llm[3]!.content).toEqual([{ type: "text", text: "Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2\n\n[Output truncated. Full output: /tmp/x.log]" }]);
    expect(llm[4]!.content).toEqual([{ type: "text", text: "plain" }]);
    expect(llm[6]!.content).toEqual([{ type: "text", text: "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nexplored</summary>" }]);
    store.close();
  });
});

describe("foreign writers", () => {
  test("unknown entry types and fields are kept, skipped in context, and the chain stays intact", () => {
    const lines = [
      { ...HEADER, futureHeaderField: { x: 1 } },
      msg("u1", null, { ...user("q"), extraField: "kept" }),
      { type: "future_entry", id: "ce1", parentId: "u1", timestamp: iso(), edits: [{ op: "drop", target: "u1" }] },
      msg("a1", "ce1", assistant("a", { somethingNew: [1, 2] })),
    ];
    const path = writeSession(lines);
    expect(roundTrip(path)).toBe(readFileSync(path, "utf8"));
    const store = SessionStore.open(path);
    expect(store.diagnostics).toEqual([]);
    const context = store.buildContext();
    expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect((context.messages[0] as Record<string, unknown>).extraField).toBe("kept");
    store.close();
  });

  test("a context_edit (Pi 0.87) is kept byte for byte and not applied: the message it hides stays in the context", () => {
    const lines = [
      HEADER,
      msg("u1", null, user("q")),
      msg("a1", "u1", assistant("a")),
      { type: "context_edit", id: "ce1", parentId: "a1", timestamp: iso(), targetId: "a1", replacement: null, futureField: 1 },
      { type: "context_edit", id: "ce2", parentId: "ce1", timestamp: iso(), targetId: "u1", replacement: { content: "other" } },
    ];
    const path = writeSession(lines);
    expect(roundTrip(path)).toBe(readFileSync(path, "utf8"));
    const store = SessionStore.open(path);
    expect(store.diagnostics).toEqual([]);
    const context = store.buildContext();
    expect(context.messages).toEqual([(lines[1] as { message: object }).message, (lines[2] as { message: object }).message] as never);
    store.close();
  });

  test("a compaction whose checkpoint is damaged keeps its summary and cut; only the checkpoint is not replayed", () => {
    const lines = [
      HEADER,
      msg("u1", null, user("old stuff")),
      msg("a1", "u1", assistant("old answer")),
      msg("u2", "a1", user("kept")),
      { type: "compaction", id: "c1", parentId: "u2", timestamp: iso(), summary: "S", firstKeptEntryId: "u2", tokensBefore: 9, systemMessage: { role: "system", content: "", sections: { p: "P" } } },
      msg("u3", "c1", user("new")),
    ];
    const path = writeSession(lines);
    expect(roundTrip(path)).toBe(readFileSync(path, "utf8"));
    const store = SessionStore.open(path);
    expect(store.diagnostics).toEqual([]);
    expect(store.buildContext().messages.map((m) => (m.role === "compactionSummary" ? `summary ${(m as { summary: string }).summary}` : m.role))).toEqual(["summary S", "user", "user"]);
    store.close();
  });

  test("a message of an unknown role stays in the context and is left out of requests", () => {
    const path = writeSession([HEADER, msg("u1", null, user("q")), msg("x1", "u1", { role: "systemNote", text: "n", timestamp: 1 }), msg("a1", "x1", assistant("a"))]);
    const store = SessionStore.open(path);
    const context = store.buildContext();
    expect(context.messages.map((m) => m.role)).toEqual(["user", "systemNote", "assistant"]);
    expect(convertToLlm(context.messages).map((m) => m.role)).toEqual(["user", "assistant"]);
    store.close();
  });

  test("a missing parentId stays missing and a null one stays null", () => {
    const noParent = { type: "message", id: "u1", timestamp: iso(), message: user("q") };
    const path = writeSession([HEADER, noParent, msg("a1", "u1", assistant("a"))]);
    const store = SessionStore.open(path);
    expect(store.tree.get("u1")!.parentId).toBeUndefined();
    expect(store.serializeEntry("u1")).toBe(JSON.stringify(noParent));
    expect(store.buildContext().messages).toHaveLength(2);
    store.close();
  });

  test("other key orders are indexed by parsing", () => {
    const reordered = { message: assistant("a"), parentId: "u1", id: "a1", timestamp: iso(), type: "message" };
    const path = writeSession([HEADER, msg("u1", null, user("q")), reordered]);
    expect(roundTrip(path)).toBe(readFileSync(path, "utf8"));
    const store = SessionStore.open(path);
    expect(store.tree.get("a1")!.role).toBe("assistant");
    expect(store.buildContext().model).toEqual({ provider: "fake", modelId: "fake-model" });
    store.close();
  });

  test("image with media_type and tool_use blocks are read as Pi's blocks but never rewritten", () => {
    const u = { role: "user", content: [{ type: "text", text: "see" }, { type: "image", media_type: "image/png", data: "QUJD" }, { type: "image", media_type: "image/jpeg", url: "https://example.test/a.jpg" }], timestamp: 1 };
    const a = { ...assistant(""), content: [{ type: "tool_use", id: "t1", name: "read", input: { path: "x" } }], stopReason: "toolUse" };
    const path = writeSession([HEADER, msg("u1", null, u), msg("a1", "u1", a)]);
    expect(roundTrip(path)).toBe(readFileSync(path, "utf8"));
    const store = SessionStore.open(path);
    const llm = convertToLlm(store.buildContext().messages);
    expect(llm[0]!.content).toEqual([
      { type: "text", text: "see" },
      { type: "image", mimeType: "image/png", data: "QUJD" },
      { type: "image", mimeType: "image/jpeg", url: "https://example.test/a.jpg" },
    ]);
    expect(llm[1]!.content).toEqual([{ type: "toolCall", id: "t1", name: "read", arguments: { path: "x" } }]);
    store.close();
  });
});

describe("damaged and foreign files", () => {
  test("a torn last line is reported and kept, and the next entry starts on a new line", () => {
    const good = [HEADER, msg("u1", null, user("q")), msg("a1", "u1", assistant("a"))];
    const torn = JSON.stringify(msg("u2", "a1", user("cut off here"))).slice(0, 40);
    const path = writeSession([...good, torn], { trailingNewline: false });
    const before = readFileSync(path, "utf8");
    const store = SessionStore.open(path, { write: true });
    expect(store.diagnostics).toHaveLength(1);
    expect(store.diagnostics[0]).toMatchObject({ line: 4, kind: "torn" });
    expect(store.diagnostics[0]!.message).toContain(`${path}:4`);
    expect(store.leafId).toBe("a1");
    store.appendMessage(user("next"));
    store.close();
    const after = readFileSync(path, "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length).startsWith("\n{")).toBe(true);
    const reopened = SessionStore.open(path);
    expect(reopened.tree.records.map((r) => r.id).slice(0, 2)).toEqual(["u1", "a1"]);
    expect(reopened.diagnostics.map((d) => d.kind)).toEqual(["malformed"]);
    reopened.close();
  });

  test("a complete last line without a newline is a normal entry", () => {
    const path = writeSession([HEADER, msg("u1", null, user("q")), msg("a1", "u1", assistant("a"))], { trailingNewline: false });
    const store = SessionStore.open(path, { write: true });
    expect(store.diagnostics).toEqual([]);
    expect(store.leafId).toBe("a1");
    store.appendMessage(user("next"));
    store.close();
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines).toHaveLength(5);
    expect(JSON.parse(lines[3]!).parentId).toBe("a1");
  });

  test("a malformed middle line is reported with file and line number and kept in place", () => {
    const path = writeSession([HEADER, msg("u1", null, user("q")), "{not json at all", msg("a1", "u1", assistant("a"))]);
    const before = readFileSync(path, "utf8");
    const store = SessionStore.open(path, { write: true });
    expect(store.diagnostics).toEqual([{ line: 3, kind: "malformed", message: expect.stringContaining(`${path}:3: not valid JSON`) }]);
    expect(store.buildContext().messages).toHaveLength(2);
    store.appendMessage(user("more"));
    store.close();
    expect(readFileSync(path, "utf8").startsWith(before)).toBe(true);
  });

  test("a known entry that fails its schema is reported, kept in the tree, and ignored for context", () => {
    const bad = { type: "compaction", id: "c1", parentId: "a1", timestamp: iso(), summary: 42 };
    const path = writeSession([HEADER, msg("u1", null, user("q")), msg("a1", "u1", assistant("a")), bad, msg("u2", "c1", user("after"))]);
    const store = SessionStore.open(path);
    expect(store.diagnostics[0]).toMatchObject({ line: 4, kind: "invalid" });
    expect(store.diagnostics[0]!.message).toContain("summary");
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    store.close();
  });

  test("blank lines are skipped", () => {
    const path = writeSession([HEADER, "", msg("u1", null, user("q")), "   ", msg("a1", "u1", assistant("a"))]);
    const store = SessionStore.open(path);
    expect(store.diagnostics).toEqual([]);
    expect(store.buildContext().messages).toHaveLength(2);
    store.close();
  });

  test("a file that is not a session is refused and left untouched", () => {
    const dir = tempDir();
    const cases: [string, string | Uint8Array][] = [
      ["notes.jsonl", '{"type":"note","id":"x"}\n{"a":1}\n'],
      ["junk.jsonl", new Uint8Array([0, 159, 146, 150, 10, 1, 2, 3])],
      ["array.jsonl", "[1,2,3]\n"],
    ];
    for (const [name, content] of cases) {
      const path = join(dir, name);
      writeFileSync(path, content);
      expect(() => SessionStore.open(path, { write: true })).toThrow(SessionFileError);
      try {
        loadSessionFile(path);
      } catch (error) {
        expect((error as SessionFileError).kind).toBe("not-session");
        expect((error as Error).message).toContain(path);
      }
      expect(Buffer.from(readFileSync(path)).equals(Buffer.from(content))).toBe(true);
    }
  });

  test("an empty file and a missing file are told apart", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "empty.jsonl"), "");
    writeFileSync(join(dir, "blank.jsonl"), "\n\n");
    for (const name of ["empty.jsonl", "blank.jsonl"]) {
      expect(() => loadSessionFile(join(dir, name))).toThrow(/empty/);
    }
    expect(() => loadSessionFile(join(dir, "absent.jsonl"))).toThrow(/not found/);
  });

  test("lines of many megabytes load, round-trip and rebuild", () => {
    const big = "x".repeat(6 * 1024 * 1024) + '"quoted" \\ and ünïcode ✓';
    const result = { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: big }], isError: false, timestamp: 3 };
    const path = writeSession([HEADER, msg("u1", null, user("q")), msg("a1", "u1", { ...assistant(""), stopReason: "toolUse" }), msg("r1", "a1", result), msg("a2", "r1", assistant("done"))]);
    expect(roundTrip(path)).toBe(readFileSync(path, "utf8"));
    const store = SessionStore.open(path);
    const context = store.buildContext();
    expect(((context.messages[2] as { content: { text: string }[] }).content[0]!.text)).toBe(big);
    store.close();
  });
});

describe("lines too long to read", () => {
  test("an entry line at the limit is reported with its length, kept in the file and left out; the rest loads", () => {
    const path = writeSession([HEADER, msg("u1", null, user("short")), msg("u2", "u1", user("x".repeat(2000))), msg("a1", "u1", assistant("fine"))]);
    const before = readFileSync(path, "utf8");
    const loaded = loadSessionFile(path, { maxLineBytes: 1000 });
    expect(loaded.records.map((r) => r.id)).toEqual(["u1", "a1"]);
    expect(loaded.diagnostics).toHaveLength(1);
    expect(loaded.diagnostics[0]).toMatchObject({ line: 3, kind: "oversized" });
    expect(loaded.diagnostics[0]!.message).toMatch(new RegExp(`^${path}:3: \\d+ bytes long, over the 1000 bytes a line may have; kept in the file`));
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  test("a first line too long to read means the file is not a session", () => {
    const path = join(tempDir(), "long-header.jsonl");
    writeFileSync(path, `${JSON.stringify({ ...HEADER, padding: "p".repeat(500) })}\n`);
    expect(() => loadSessionFile(path, { maxLineBytes: 300 })).toThrow(`${path} is not a session file: its first line is`);
  });
});
