/**
 * Lines read back from a session file come through a window of the file (one read per MiB):
 * every line must come back exactly, whether it sits inside a window, across two, or is larger
 * than a window, and lines appended later must be read from the file, not from an old window.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStore } from "../../src/session/store.ts";

const dir = mkdtempSync(join(tmpdir(), "pig-read-window-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function line(i: number, parent: string | null, size: number): string {
  const text = `${i}: ${"é😀x".repeat(Math.ceil(size / 6))}`.slice(0, size);
  const message = i % 2 === 0 ? { role: "user", content: [{ type: "text", text }], timestamp: i } : { role: "toolResult", toolCallId: `c${i}`, toolName: "read", content: [{ type: "text", text }], isError: false, timestamp: i };
  return JSON.stringify({ type: "message", id: `e${i}`, parentId: parent, timestamp: new Date(i * 1000).toISOString(), message });
}

test("a long branch read back equals its lines, across windows and for lines larger than one", () => {
  const path = join(dir, "long.jsonl");
  const lines = [JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: new Date(0).toISOString(), cwd: dir })];
  // Sizes vary so lines straddle the 1 MiB window edges; two are larger than a window.
  const sizes = Array.from({ length: 1200 }, (_, i) => (i === 300 || i === 901 ? 1_500_000 : 200 + ((i * 7919) % 9000)));
  sizes.forEach((size, i) => lines.push(line(i, i === 0 ? null : `e${i - 1}`, size)));
  writeFileSync(path, `${lines.join("\n")}\n`);
  const store = SessionStore.open(path);
  try {
    const branch = store.getBranch();
    expect(branch.length).toBe(sizes.length);
    branch.forEach((entry, i) => expect(entry).toEqual(JSON.parse(lines[i + 1]!)));
    // Read again in another order: from the end back, each line still exact.
    for (let i = sizes.length - 1; i >= 0; i -= 97) expect(store.serializeEntry(`e${i}`)).toBe(lines[i + 1]!);
  } finally {
    store.close();
  }
});

test("an entry appended after a read is read from the file", () => {
  const path = join(dir, "append.jsonl");
  const lines = [JSON.stringify({ type: "session", version: 3, id: "s2", timestamp: new Date(0).toISOString(), cwd: dir }), line(0, null, 100)];
  writeFileSync(path, `${lines.join("\n")}\n`);
  const store = SessionStore.open(path, { write: true });
  try {
    expect(store.getBranch()).toHaveLength(1);
    store.appendCustomEntry("test.mark", { n: 1 });
    store.flush(true);
    expect(store.isFlushed).toBe(true);
    const reopened = SessionStore.open(path);
    try {
      expect(reopened.getBranch().map((e) => e.type)).toEqual(["message", "custom"]);
    } finally {
      reopened.close();
    }
    expect(store.getBranch().map((e) => e.type)).toEqual(["message", "custom"]);
  } finally {
    store.close();
  }
});
