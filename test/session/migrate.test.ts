/** v1 and v2 files: migrated in memory for reading, rewritten on disk only when opened to write. */
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync } from "node:fs";
import { SessionStore } from "../../src/session/store.ts";
import { runPig } from "../helpers/binary.ts";
import { assistant, user, writeSession } from "../helpers/sessions.ts";

const v1Header = { type: "session", id: "legacy-1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/old" };
const v1Lines = [
  v1Header,
  { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: user("first", 1) },
  { type: "message", timestamp: "2025-01-01T00:00:02.000Z", message: assistant("one") },
  { type: "message", timestamp: "2025-01-01T00:00:03.000Z", message: user("second", 3) },
  { type: "message", timestamp: "2025-01-01T00:00:04.000Z", message: assistant("two") },
  { type: "compaction", timestamp: "2025-01-01T00:00:05.000Z", summary: "sum", firstKeptEntryIndex: 3, tokensBefore: 100 },
  { type: "message", timestamp: "2025-01-01T00:00:06.000Z", message: user("third", 6) },
];

describe("v1", () => {
  test("reading migrates in memory: ids chain the entries and the compaction points at its kept entry", () => {
    const path = writeSession(v1Lines);
    const before = readFileSync(path, "utf8");
    const store = SessionStore.open(path);
    const ids = store.tree.records.map((r) => r.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(store.tree.records.map((r) => r.parentId)).toEqual([null, ...ids.slice(0, 5)]);
    const compaction = store.getEntry(ids[4]!) as { firstKeptEntryId?: string; firstKeptEntryIndex?: number };
    expect(compaction.firstKeptEntryId).toBe(ids[2]);
    expect("firstKeptEntryIndex" in compaction).toBe(false);
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "user"]);
    store.close();
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  test("opening to write rewrites the file as v3 with upstream's key placement", () => {
    const path = writeSession(v1Lines);
    const store = SessionStore.open(path, { write: true });
    store.close();
    const lines = readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ ...v1Header, version: 3 });
    expect(Object.keys(lines[1])).toEqual(["type", "timestamp", "message", "id", "parentId"]);
    expect(lines[1].parentId).toBeNull();
    expect(lines[5]).not.toHaveProperty("firstKeptEntryIndex");
    expect(lines[5].firstKeptEntryId).toBe(lines[3].id);
  });
});

describe("v2", () => {
  const v2Lines = [
    { type: "session", version: 2, id: "legacy-2", timestamp: "2025-02-01T00:00:00.000Z", cwd: "/old" },
    { type: "message", id: "aaaa0001", parentId: null, timestamp: "2025-02-01T00:00:01.000Z", message: user("hi", 1) },
    { type: "message", id: "aaaa0002", parentId: "aaaa0001", timestamp: "2025-02-01T00:00:02.000Z", message: { role: "hookMessage", customType: "h", content: "from a hook", display: true, timestamp: 2 } },
    { type: "message", id: "aaaa0003", parentId: "aaaa0002", timestamp: "2025-02-01T00:00:03.000Z", message: assistant("ok") },
  ];

  test("hookMessage becomes custom; lines the migration does not touch keep their bytes", () => {
    const path = writeSession(v2Lines);
    const original = readFileSync(path, "utf8").split("\n");
    const store = SessionStore.open(path, { write: true });
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["user", "custom", "assistant"]);
    store.close();
    const migrated = readFileSync(path, "utf8").split("\n");
    expect(JSON.parse(migrated[0]!).version).toBe(3);
    expect(migrated[1]).toBe(original[1]);
    expect(JSON.parse(migrated[2]!).message.role).toBe("custom");
    expect(migrated[3]).toBe(original[3]);
    expect(migrated).toHaveLength(original.length);
  });

  test("pig sessions show reads a legacy file without writing it", () => {
    const path = writeSession(v2Lines);
    const before = readFileSync(path, "utf8");
    // A migration written back would fail on the read-only file, and the command with it.
    chmodSync(path, 0o444);
    const result = runPig(["sessions", "show", path, "--json"], { permissions: true });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout).messages.map((m: { role: string }) => m.role)).toEqual(["user", "custom", "assistant"]);
    expect(readFileSync(path, "utf8")).toBe(before);
  });
});

describe("a v1 line nested too deeply to write again", () => {
  test("is kept as it was and left out; the next entry hangs on the one before it", () => {
    const deep = `{"type":"custom","timestamp":"2025-01-01T00:00:02.500Z","data":${"[".repeat(60_000)}1${"]".repeat(60_000)}}`;
    const path = writeSession([v1Lines[0]!, v1Lines[1]!, v1Lines[2]!, deep, v1Lines[3]!, v1Lines[4]!]);
    const store = SessionStore.open(path, { write: true });
    const records = store.tree.records;
    expect(records.map((r) => r.type)).toEqual(["message", "message", "message", "message"]);
    // The entry after the deep line has the one before it as its parent: the chain holds.
    expect(records[2]!.parentId).toBe(records[1]!.id);
    expect(store.buildContext().messages).toHaveLength(4);
    // Reported: once migrated it is a v3 line without an id.
    expect(store.diagnostics.map((d) => d.line)).toContain(4);
    store.close();
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines[3]).toBe(deep);
  });
});
