/** Writing sessions: lazy first write, append-only entries, tree moves, fork and clone. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyName, createBranchedSession, forkFrom, forkSession } from "../../src/session/branching.ts";
import type { AgentMessage } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { assistant, HEADER, msg, user, writeSession } from "../helpers/sessions.ts";
import { fixtureCopy, tempDir } from "../helpers/tmp.ts";

function fileLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
}

function newStore(): { store: SessionStore; dir: string } {
  const dir = tempDir();
  return { store: SessionStore.create({ cwd: "/work/proj", dir }), dir };
}

describe("lazy first write", () => {
  test("nothing reaches disk until the first assistant message; then everything, once", () => {
    const { store } = newStore();
    store.appendModelChange("fake", "fake-model");
    store.appendThinkingLevelChange("off");
    store.appendSessionInfo("named early");
    store.appendMessage(user("hello") as AgentMessage);
    expect(existsSync(store.path!)).toBe(false);
    store.appendMessage(assistant("hi") as AgentMessage);
    const lines = fileLines(store.path!);
    expect(lines.map((l) => l.type)).toEqual(["session", "model_change", "thinking_level_change", "session_info", "message", "message"]);
    store.appendMessage(user("more") as AgentMessage);
    expect(fileLines(store.path!)).toHaveLength(7);
    store.close();
  });

  test("the file name, header and key order follow upstream", () => {
    const { store, dir } = newStore();
    store.appendModelChange("fake", "fake-model");
    store.appendMessage(assistant("hi") as AgentMessage);
    store.close();
    const [name] = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
    expect(name).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.jsonl$/);
    const [header, change] = fileLines(join(dir, name!));
    expect(Object.keys(header!)).toEqual(["type", "version", "id", "timestamp", "cwd"]);
    expect(name).toContain(header!.id as string);
    expect(Object.keys(change!)).toEqual(["type", "id", "parentId", "timestamp", "provider", "modelId"]);
    expect(change!.parentId).toBeNull();
    expect(change!.id).toMatch(/^[0-9a-f]{8}$/);
  });

  test("an opened file with no answer yet gets its entries appended once, never duplicated", () => {
    const { store } = newStore();
    store.appendMessage(user("q") as AgentMessage);
    store.flush(true);
    store.close();
    const reopened = SessionStore.open(store.path!, { write: true });
    reopened.appendMessage(user("q2") as AgentMessage);
    expect(fileLines(store.path!)).toHaveLength(2);
    reopened.appendMessage(assistant("a") as AgentMessage);
    expect(fileLines(store.path!).map((l) => (l.message as { role?: string } | undefined)?.role ?? l.type)).toEqual(["session", "user", "user", "assistant"]);
    reopened.close();
  });

  test("a session without a directory is never written", () => {
    const store = SessionStore.create({ cwd: "/x" });
    store.appendMessage(assistant("a") as AgentMessage);
    expect(store.path).toBeUndefined();
    expect(store.buildContext().messages).toHaveLength(1);
  });
});

describe("tree", () => {
  function conversation() {
    const { store } = newStore();
    const u1 = store.appendMessage(user("one") as AgentMessage);
    const a1 = store.appendMessage(assistant("one") as AgentMessage);
    const u2 = store.appendMessage(user("two") as AgentMessage);
    const a2 = store.appendMessage(assistant("two") as AgentMessage);
    return { store, u1, a1, u2, a2 };
  }

  test("branching puts the next entry under the chosen one and the context follows the branch", () => {
    const { store, a1, u2 } = conversation();
    store.branch(a1);
    const alt = store.appendMessage(user("alt") as AgentMessage);
    expect(store.tree.get(alt)!.parentId).toBe(a1);
    expect(store.tree.childrenOf(a1).map((r) => r.id)).toEqual([u2, alt]);
    expect(store.buildContext().messages.map((m) => (m as { content: { text: string }[] }).content[0]!.text)).toEqual(["one", "one", "alt"]);
    store.close();
  });

  test("resetLeaf starts a new root; branch to an unknown id fails", () => {
    const { store } = conversation();
    store.resetLeaf();
    expect(store.buildContext().messages).toEqual([]);
    const root = store.appendMessage(user("fresh") as AgentMessage);
    expect(store.tree.get(root)!.parentId).toBeNull();
    expect(() => store.branch("nope")).toThrow("Entry nope not found");
    store.close();
  });

  test("branchWithSummary lands where it is told and names the leaf it left, as upstream (≥ 0.87)", () => {
    const { store, a1, a2 } = conversation();
    const id = store.branchWithSummary(a1, "what happened there", { readFiles: [] }, false);
    const line = fileLines(store.path!).at(-1)!;
    expect(Object.keys(line)).toEqual(["type", "id", "parentId", "timestamp", "fromId", "summary", "details", "fromHook"]);
    expect(line).toMatchObject({ id, parentId: a1, fromId: a2 });
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["user", "assistant", "branchSummary"]);
    store.resetLeaf();
    store.branchWithSummary(null, "from the root");
    expect(fileLines(store.path!).at(-1)).toMatchObject({ parentId: null, fromId: "root" });
    store.close();
  });

  test("a compaction applies on its own branch only", () => {
    const { store, u1, a1, u2, a2 } = conversation();
    store.appendCompaction("summary of one", u2, 1234);
    const after = store.appendMessage(user("three") as AgentMessage);
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "user"]);
    store.branch(a1);
    store.appendMessage(user("other way") as AgentMessage);
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(store.buildContext(after).messages).toHaveLength(4);
    expect([u1, a2].every((id) => store.tree.has(id))).toBe(true);
    store.close();
  });

  test("labels set and clear; the latest name wins and an empty one clears it", () => {
    const { store, u1 } = conversation();
    store.appendLabelChange(u1, "start");
    expect(store.tree.labelOf(u1)?.label).toBe("start");
    store.appendLabelChange(u1, undefined);
    expect(store.tree.labelOf(u1)).toBeUndefined();
    expect(Object.keys(fileLines(store.path!).at(-1)!)).toEqual(["type", "id", "parentId", "timestamp", "targetId"]);
    expect(() => store.appendLabelChange("missing", "x")).toThrow("Entry missing not found");
    store.appendSessionInfo("  Name  ");
    expect(store.name).toBe("Name");
    store.appendSessionInfo("");
    expect(store.name).toBeUndefined();
    store.close();
  });

  test("custom and custom_message entries carry id, parentId and timestamp last", () => {
    const { store } = conversation();
    store.appendCustomEntry("state", { n: 1 });
    store.appendCustomMessageEntry("note", "hello", true, { from: "test" });
    const [custom, customMessage] = fileLines(store.path!).slice(-2);
    expect(Object.keys(custom!)).toEqual(["type", "customType", "data", "id", "parentId", "timestamp"]);
    expect(Object.keys(customMessage!)).toEqual(["type", "customType", "content", "display", "details", "id", "parentId", "timestamp"]);
    expect(store.buildContext().messages.at(-1)).toMatchObject({ role: "custom", customType: "note", content: "hello", details: { from: "test" } });
    store.close();
  });
});

describe("fork and clone", () => {
  test("a copy's name marks what it is, once: a clone of a fork is a clone", () => {
    expect(copyName("refactor auth", "fork")).toBe("refactor auth (fork)");
    expect(copyName("refactor auth (fork)", "clone")).toBe("refactor auth (clone)");
    expect(copyName("refactor auth (clone)", "clone")).toBe("refactor auth (clone)");
    expect(copyName("(fork) of mine", "fork")).toBe("(fork) of mine (fork)");
  });

  test("fork before a user message copies the path to its parent, bytes and labels included", () => {
    const source = SessionStore.open(fixtureCopy("08-branching-tree.jsonl"));
    const target = source.tree.records.find((r) => r.role === "user" && r.id === "6701436e")!;
    const { store, selectedText } = forkSession(source, target.id);
    expect(selectedText).toBe("A-follow");
    const lines = readFileSync(store.path!, "utf8").trimEnd().split("\n");
    const header = JSON.parse(lines[0]!);
    expect(header.parentSession).toBe(source.path);
    const copied = source.branchRecords(target.parentId!).map((r) => source.serializeEntry(r.id));
    expect(lines.slice(1, 1 + copied.length)).toEqual(copied as string[]);
    const labels = lines.slice(1 + copied.length).map((l) => JSON.parse(l));
    expect(labels).toEqual([expect.objectContaining({ type: "label", targetId: "b964e182", label: "start-of-session", timestamp: "2026-11-30T07:12:33.549Z" })]);
    expect(store.leafId).toBe(labels[0].id);
    store.close();
    source.close();
  });

  test("forking at a non-user entry is refused; clone keeps everything up to the entry", () => {
    const source = SessionStore.open(fixtureCopy("09-fork-clone.jsonl"));
    const assistantId = source.tree.records.find((r) => r.role === "assistant")!.id;
    expect(() => forkSession(source, assistantId)).toThrow("Invalid entry ID for forking");
    const { store } = forkSession(source, assistantId, "at");
    expect(store.branchRecords().map((r) => r.id)).toEqual(source.branchRecords(assistantId).map((r) => r.id));
    store.close();
    source.close();
  });

  test("forking before the first user message keeps the copied entries (upstream loses them)", () => {
    const source = SessionStore.open(fixtureCopy("01-basic-text.jsonl"));
    const firstUser = source.tree.records.find((r) => r.role === "user")!;
    const { store } = forkSession(source, firstUser.id);
    expect(store.tree.records.map((r) => r.type)).toEqual(["model_change", "thinking_level_change"]);
    expect(existsSync(store.path!)).toBe(false);
    store.appendMessage(user("again") as AgentMessage);
    store.appendMessage(assistant("ok") as AgentMessage);
    const lines = fileLines(store.path!);
    expect(lines[0]!.parentSession).toBe(source.path);
    expect(lines.map((l) => l.type)).toEqual(["session", "model_change", "thinking_level_change", "message", "message"]);
    store.close();
    source.close();
  });

  test("forkFrom copies a whole session into another project and writes it at once, named as a fork of it", () => {
    const source = fixtureCopy("10-extension-entries.jsonl");
    const dir = tempDir();
    const store = forkFrom(source, "/elsewhere", dir);
    const lines = readFileSync(store.path!, "utf8").trimEnd().split("\n");
    const original = readFileSync(source, "utf8").trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ cwd: "/elsewhere", parentSession: source });
    expect(lines.slice(1, -1)).toEqual(original.slice(1));
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: "session_info", parentId: JSON.parse(original.at(-1)!).id, name: "Extension fixture (fork)" });
    expect(store.name).toBe("Extension fixture (fork)");
    store.close();
    const empty = join(tempDir(), "empty.jsonl");
    Bun.write(empty, "");
    expect(() => forkFrom(empty, "/x", dir)).toThrow(`Cannot fork: source session file is empty or invalid: ${empty}`);
  });

  test("createBranchedSession to a chosen leaf", () => {
    const source = SessionStore.open(fixtureCopy("03-model-thinking-name.jsonl"));
    const leaf = source.tree.records[5]!.id;
    const copy = createBranchedSession(source, leaf, "clone");
    expect(copy.buildContext()).toEqual(source.buildContext(leaf));
    expect(copy.name).toBe("Model & thinking fixture (clone)");
    copy.close();
    source.close();
  });
});

describe("a copied line that is no longer valid JSON", () => {
  test("a clone of it is written once, and the bad line is left out of the clone's context", () => {
    const dir = tempDir();
    const good = '{"type":"message","id":"b0000002","parentId":"u0000001","timestamp":"2026-11-30T07:00:05.000Z","message":{"role":"user","content":"hi there","timestamp":1}}';
    const path = writeSession([HEADER, msg("u0000001", null, user("first")), good], { dir, name: "source.jsonl" });
    const source = SessionStore.open(path);
    // Another program changes the line under pig, same length: read back, it is not JSON any more.
    const bad = good.replace('"hi there"', '"hi" oops!');
    writeFileSync(path, readFileSync(path, "utf8").replace(good, bad));
    const clone = createBranchedSession(source, "b0000002", "clone", dir);
    expect(clone.buildContext().messages.map((m) => m.role)).toEqual(["user"]);
    clone.appendMessage(assistant("answer") as AgentMessage);
    clone.appendMessage(user("next") as AgentMessage);
    const lines = readFileSync(clone.path!, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines.filter((l) => l === bad)).toHaveLength(1);
    expect(clone.diagnostics.map((d) => d.message).join()).toContain("entry b0000002, not written yet");
    clone.close();
    source.close();
  });
});

describe("a write that fails", () => {
  test("takes back a label or a name, keeps a message unsaved for the next write, and the file holds what it held", () => {
    const { store } = newStore();
    store.appendMessage(user("hello") as AgentMessage);
    const answer = store.appendMessage(assistant("hi") as AgentMessage);
    const path = store.path!;
    const saved = readFileSync(path);
    // The file's place taken by a directory: every write fails (EISDIR).
    renameSync(path, `${path}.away`);
    mkdirSync(path);
    expect(() => store.appendLabelChange(answer, "important")).toThrow(/cannot write to/);
    expect(store.tree.labelOf(answer)).toBeUndefined();
    expect(store.leafId).toBe(answer);
    expect(() => store.appendSessionInfo("a name")).toThrow(/cannot write to/);
    expect(store.name).toBeUndefined();
    expect(() => store.appendMessage(user("kept") as AgentMessage)).toThrow(/cannot write to/);
    expect(store.unsaved.map((e) => e.role)).toEqual(["user"]);
    // The file is back: the unsaved message goes out with the next entry.
    rmSync(path, { recursive: true });
    renameSync(`${path}.away`, path);
    store.appendMessage(assistant("answer to kept") as AgentMessage);
    const lines = fileLines(path);
    expect(readFileSync(path).subarray(0, saved.length).equals(saved)).toBe(true);
    expect(lines.slice(-2).map((l) => (l.message as { role: string }).role)).toEqual(["user", "assistant"]);
    expect(lines.filter((l) => l.type === "label" || l.type === "session_info")).toEqual([]);
    store.close();
  });
});

describe("the context plan", () => {
  /** The plan's messages by id, its model and level, as a plan made from nothing kept would give them. */
  const shown = (store: SessionStore, leafId?: string | null) => {
    const plan = store.planContext(leafId);
    return { ids: plan.items.map((item) => item.record.id), model: plan.model, thinkingLevel: plan.thinkingLevel, freshFrom: plan.freshFrom };
  };

  test("asked again it is the same; after each change to the tree, or for another leaf, it follows", () => {
    const store = SessionStore.open(writeSession([HEADER, msg("u1", null, user("q")), msg("a1", "u1", assistant("a")), msg("u2", "u1", user("other"))]));
    expect(shown(store).ids).toEqual(["u1", "u2"]);
    expect(shown(store)).toEqual(shown(store));
    expect(shown(store, "a1").ids).toEqual(["u1", "a1"]);
    expect(shown(store).ids).toEqual(["u1", "u2"]);
    store.branch("a1");
    const appended = store.appendMessage(user("next") as AgentMessage);
    expect(shown(store).ids).toEqual(["u1", "a1", appended]);
    store.appendModelChange("other", "other-model");
    store.appendThinkingLevelChange("high");
    expect(shown(store)).toMatchObject({ model: { provider: "other", modelId: "other-model" }, thinkingLevel: "high" });
    expect(store.buildContext().messages).toHaveLength(3);
    store.close();
  });

  test("it names the branch's last model change and whether its level was changed, entries failing their schema too", () => {
    const change = (id: string, parentId: string | null, modelId: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ type: "model_change", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", provider: "p", modelId, ...extra });
    const level = (id: string, parentId: string) => JSON.stringify({ type: "thinking_level_change", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", thinkingLevel: 7 });
    const path = writeSession([HEADER, change("m1", null, "first"), msg("u1", "m1", user("q")), change("m2", "u1", "second", { extra: true }), msg("a1", "m2", assistant("a")), level("l1", "a1"), msg("u2", "u1", user("fork"))]);
    const store = SessionStore.open(path);
    // The active branch (ending at u2) forks after u1: only m1 is on it, and no level change.
    expect(store.planContext()).toMatchObject({ levelChanged: false, lastModelChange: { id: "m1", modelId: "first" } });
    // l1 fails its schema (a level that is a number): kept in the tree, and still counted here.
    expect(store.diagnostics.map((d) => d.line)).toEqual([6]);
    expect(store.planContext("l1")).toMatchObject({ levelChanged: true, lastModelChange: { id: "m2", modelId: "second", extra: true } });
    expect(store.planContext(null)).toMatchObject({ levelChanged: false, lastModelChange: null });
    store.close();
  });

  test("a line found unreadable when read back leaves the kept plan too", () => {
    const path = writeSession([HEADER, msg("u1", null, user("q")), msg("a1", "u1", assistant("a")), msg("u2", "a1", user("again"))]);
    const store = SessionStore.open(path);
    expect(shown(store).ids).toEqual(["u1", "a1", "u2"]);
    // The file changes under the store, the same size: a1's line is no longer JSON.
    const text = readFileSync(path, "utf8");
    const a1 = text.indexOf('"id":"a1"');
    writeFileSync(path, `${text.slice(0, a1)}#${text.slice(a1 + 1)}`);
    expect(store.buildContext().messages).toHaveLength(2);
    expect(shown(store).ids).toEqual(["u1", "u2"]);
    store.close();
  });
});
