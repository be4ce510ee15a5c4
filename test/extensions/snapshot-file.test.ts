/**
 * `session.subscribe {file: true}`: the host names the lines already on disk by their byte range
 * and sends only the rest as text; the runner reads the range itself. Whatever the store's state,
 * the result is the inline snapshot, byte for byte.
 */
import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { storeSnapshot } from "../../src/runtime/extension-port.ts";
import { readSnapshotFile, SnapshotFileError } from "../../src/extensions/runner/session-mirror.ts";
import { SessionStore } from "../../src/session/store.ts";
import { tempDir } from "../helpers/tmp.ts";

const HEADER = JSON.stringify({ type: "session", version: 3, id: "snap-1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp" });

function message(id: string, parentId: string | null, role: string, text: string): string {
  return JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", message: { role, content: text, timestamp: 0 } });
}

function writeFile(lines: string[]): string {
  const path = join(tempDir("pig-snap-"), "s.jsonl");
  writeFileSync(path, lines.map((l) => `${l}\n`).join(""));
  return path;
}

/** The file form, read back, against the inline form of the same store. */
function bothForms(store: SessionStore) {
  const inline = storeSnapshot(store, false);
  const wire = storeSnapshot(store, true);
  return { inline, wire, read: readSnapshotFile(wire) };
}

describe("the file form of a session snapshot", () => {
  test("a session wholly on disk: everything comes from the file, exactly its bytes", () => {
    // Odd bytes that must survive: non-ASCII, an escaped LF, keys out of the usual order, a CR before the LF.
    const lines = [
      HEADER,
      message("a", null, "user", "héllo ✓ \n 𝄞"),
      JSON.stringify({ id: "b", type: "message", parentId: "a", timestamp: "t", message: { role: "assistant", content: [{ type: "text", text: "ok" }] } }),
      `${JSON.stringify({ type: "label", id: "c", parentId: "b", timestamp: "t", targetId: "a", label: "x" })}\r`,
      JSON.stringify({ type: "custom", id: "d", parentId: "c", timestamp: "t", customType: "k", data: { n: 1 } }),
    ];
    const path = writeFile(lines);
    const store = SessionStore.open(path);
    const { inline, wire, read } = bothForms(store);
    expect(wire.file).toEqual({ path, offset: 0, length: readFileSync(path).length, count: 4 });
    expect(wire.entries).toEqual([]);
    expect(read.entries).toEqual(inline.entries);
    expect(read.header).toBe(inline.header);
    expect(read.leafId).toBe("d");
    expect(read.file).toBeUndefined();
    // The file's own bytes, line by line.
    expect(read.entries.join("\n") + "\n").toBe(readFileSync(path, "utf8").slice(HEADER.length + 1));
  });

  test("entries appended since the last write arrive as text after the file's", () => {
    const path = writeFile([HEADER, message("a", null, "user", "one"), message("b", "a", "assistant", "two")]);
    // Opened read-only, the store keeps what is appended in memory: not in the file yet.
    const store = SessionStore.open(path);
    store.appendCustomEntry("note", { n: 1 });
    store.appendMessage({ role: "user", content: "three", timestamp: 0 } as never);
    expect(store.unsaved).toHaveLength(2);
    const { inline, wire, read } = bothForms(store);
    expect(wire.file?.count).toBe(2);
    expect(wire.entries).toEqual(inline.entries.slice(2));
    expect(read.entries).toEqual(inline.entries);
    expect(read.leafId).toBe(inline.leafId);
  });

  test("a session written after the first answer: before it, nothing is on disk and all is text", () => {
    const dir = tempDir("pig-snap-");
    const store = SessionStore.create({ cwd: "/tmp", dir });
    store.appendMessage({ role: "user", content: "hi", timestamp: 0 } as never);
    let { inline, wire } = bothForms(store);
    expect(wire.file).toBeUndefined();
    expect(wire).toEqual(inline);
    // The first answer writes the file: from then on the written lines come from it.
    store.appendMessage({ role: "assistant", content: [{ type: "text", text: "hello" }], timestamp: 0 } as never);
    expect(store.isFlushed).toBe(true);
    ({ inline, wire } = bothForms(store));
    expect(wire.file?.count).toBe(2);
    expect(wire.entries).toEqual([]);
    expect(readSnapshotFile(wire).entries).toEqual(inline.entries);
    store.close();
  });

  test("--no-session: no file, every entry as text", () => {
    const store = SessionStore.create({ cwd: "/tmp" });
    store.appendMessage({ role: "user", content: "hi", timestamp: 0 } as never);
    store.appendMessage({ role: "assistant", content: [{ type: "text", text: "hello" }], timestamp: 0 } as never);
    const { inline, wire, read } = bothForms(store);
    expect(wire.file).toBeUndefined();
    expect(wire.entries).toHaveLength(2);
    expect(read).toEqual(inline);
  });

  test("a line the store does not use ends the range: what follows it comes as text", () => {
    const path = writeFile([HEADER, message("a", null, "user", "one"), "", "not json", message("b", "a", "assistant", "two")]);
    const store = SessionStore.open(path);
    const { inline, wire, read } = bothForms(store);
    expect(wire.file?.count).toBe(1);
    expect(wire.entries).toEqual([message("b", "a", "assistant", "two")]);
    expect(read.entries).toEqual(inline.entries);
  });

  test("a last line without its LF is sent as text", () => {
    const path = join(tempDir("pig-snap-"), "s.jsonl");
    writeFileSync(path, `${HEADER}\n${message("a", null, "user", "one")}\n${message("b", "a", "user", "two")}`);
    const store = SessionStore.open(path);
    const { inline, wire, read } = bothForms(store);
    expect(wire.file?.count).toBe(1);
    expect(wire.entries).toHaveLength(1);
    expect(read.entries).toEqual(inline.entries);
  });

  test("lines appended to the file after the snapshot are not read (they come as session.appended)", () => {
    const path = writeFile([HEADER, message("a", null, "user", "one")]);
    const store = SessionStore.open(path);
    const { wire } = bothForms(store);
    appendFileSync(path, `${message("b", "a", "assistant", "two")}\n`);
    expect(readSnapshotFile(wire).entries).toEqual([message("a", null, "user", "one")]);
  });

  test("a file that changed under it is refused, with the reason", () => {
    const path = writeFile([HEADER, message("a", null, "user", "one"), message("b", "a", "assistant", "two")]);
    const store = SessionStore.open(path);
    const { wire } = bothForms(store);
    // Shorter than named.
    writeFileSync(path, `${HEADER}\n`);
    expect(() => readSnapshotFile(wire)).toThrow(SnapshotFileError);
    expect(() => readSnapshotFile(wire)).toThrow(/fewer than/);
    // Same size, another session's header.
    const other = readFileSync(join(path)).length;
    expect(other).toBeLessThan(wire.file!.length);
    const rewritten = [HEADER.replace("snap-1", "snap-2"), message("a", null, "user", "one"), message("b", "a", "assistant", "two")];
    writeFileSync(path, rewritten.map((l) => `${l}\n`).join(""));
    expect(() => readSnapshotFile(wire)).toThrow(/not the session's header/);
    // Lines moved: the range no longer ends at a line's end, or holds another number of lines.
    writeFileSync(path, `${HEADER}\n${message("a", null, "user", "one!")}\n${message("b", "a", "assistant", "two")}\n`);
    expect(() => readSnapshotFile(wire)).toThrow(SnapshotFileError);
    writeFileSync(path, `${HEADER}\n${"x".repeat(wire.file!.length - HEADER.length - 2)}\n`);
    expect(() => readSnapshotFile(wire)).toThrow(/lines, pig named/);
    // Gone.
    writeFileSync(path, "");
    expect(() => readSnapshotFile({ ...wire, file: { ...wire.file!, path: join(path, "..", "missing.jsonl") } })).toThrow(/cannot open/);
  });
});
