import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/tmp.ts";
import { fixture, RunnerHarness } from "./harness.ts";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

const READER = fixture("ts", "session-reader.ts");

function entry(id: string, parentId: string | null, text: string): string {
  return JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: text, timestamp: 0 } });
}

function session(count: number, textSize: number): { header: string; entries: string[]; leafId: string } {
  const entries: string[] = [];
  const filler = "x".repeat(textSize);
  for (let i = 0; i < count; i++) entries.push(entry(`e${i}`, i === 0 ? null : `e${i - 1}`, `${i} ${filler}`));
  entries.push(JSON.stringify({ type: "label", id: "l1", parentId: `e${count - 1}`, timestamp: "t", targetId: `e${count - 1}`, label: "here" }));
  entries.push(JSON.stringify({ type: "session_info", id: "n1", parentId: "l1", timestamp: "t", name: "Big one" }));
  return { header: JSON.stringify({ type: "session", version: 3, id: "sess-1", timestamp: "t", cwd: "/tmp" }), entries, leafId: `e${count - 1}` };
}

async function count(h: RunnerHarness): Promise<Record<string, unknown>> {
  const before = h.all("session.appendEntry").length;
  await h.request("command.run", { extension: READER, name: "count", args: "" });
  const entry = await h.waitFor(() => h.all("session.appendEntry")[before], "count entry");
  return entry.params.data as Record<string, unknown>;
}

describe("synchronous session reads", () => {
  test("the first read subscribes synchronously; later appends and leaf moves are mirrored", async () => {
    const snap = session(3, 10);
    harness = new RunnerHarness({ load: [READER], snapshot: () => snap });
    const h = harness;
    await h.start();
    await h.ready();
    expect(h.find("session.subscribe")).toBeUndefined();
    const first = await count(h);
    expect(first).toMatchObject({ leaf: "e2", entries: 5, branch: 3, label: "here", name: "Big one", header: "sess-1" });
    expect(h.all("session.subscribe")).toHaveLength(1);
    h.notify("session.appended", { entries: [entry("e3", "e2", "new text")], leafId: "e3" });
    const second = await count(h);
    expect(second).toMatchObject({ leaf: "e3", entries: 6, branch: 4, lastText: "new text" });
    h.notify("session.leaf", { leafId: "e1" });
    expect(await count(h)).toMatchObject({ leaf: "e1", branch: 2 });
    expect(h.all("session.subscribe")).toHaveLength(1);
  });

  test("a 50 MB session arrives in $/part frames and is read synchronously", async () => {
    const snap = session(100_000, 480);
    const bytes = snap.entries.reduce((n, e) => n + e.length + 1, 0);
    expect(bytes).toBeGreaterThan(50 * 1024 * 1024);
    harness = new RunnerHarness({ load: [READER], snapshot: () => snap });
    const h = harness;
    await h.start();
    await h.ready();
    const result = await count(h);
    expect(result).toMatchObject({ leaf: "e99999", entries: 100_002, branch: 100_000, label: "here" });
    console.log(`first sync read of a ${(bytes / 1024 / 1024).toFixed(1)} MB session: getLeafId ${Number(result.firstMs).toFixed(0)} ms, then all reads ${Number(result.allMs).toFixed(0)} ms`);
  }, 60_000);
});

describe("the snapshot's lines read from the session file", () => {
  function onDisk(snap: { header: string; entries: string[] }, kept: number): { path: string; length: number } {
    const path = join(tempDir("pig-read-"), "s.jsonl");
    const text = [snap.header, ...snap.entries.slice(0, kept)].map((l) => `${l}\n`).join("");
    writeFileSync(path, text);
    return { path, length: Buffer.byteLength(text) };
  }

  test("the runner asks for the file form and reads what is on disk from the file, the rest as text", async () => {
    const snap = session(3, 10);
    const file = onDisk(snap, 3);
    harness = new RunnerHarness({
      load: [READER],
      snapshot: (params) => (params.file === true ? { ...snap, entries: snap.entries.slice(3), file: { path: file.path, offset: 0, length: file.length, count: 3 } } : snap),
    });
    const h = harness;
    await h.start();
    await h.ready();
    expect(await count(h)).toMatchObject({ leaf: "e2", entries: 5, branch: 3, label: "here", name: "Big one", header: "sess-1" });
    expect(h.all("session.subscribe").map((r) => r.params)).toEqual([{ file: true }]);
    h.notify("session.appended", { entries: [entry("e3", "e2", "new text")], leafId: "e3" });
    expect(await count(h)).toMatchObject({ leaf: "e3", entries: 6, lastText: "new text" });
  });

  test("a file that is not what pig named: the runner asks for the text; what pig sent before that answer is not applied twice", async () => {
    const snap = session(3, 10);
    const file = onDisk(snap, 3);
    const later = entry("e3", "e2", "sent before the inline answer");
    harness = new RunnerHarness({
      load: [READER],
      snapshot: (params) => {
        if (params.file === true) {
          // The file has one line fewer than named (it changed under pig).
          writeFileSync(file.path, [snap.header, ...snap.entries.slice(0, 2)].map((l) => `${l}\n`).join(""));
          return { ...snap, entries: snap.entries.slice(3), file: { path: file.path, offset: 0, length: file.length, count: 3 } };
        }
        // An append after the first answer: its notification precedes this answer, which holds it.
        harness!.notify("session.appended", { entries: [later], leafId: "e3" });
        return { ...snap, entries: [...snap.entries, later], leafId: "e3" };
      },
    });
    const h = harness;
    await h.start();
    await h.ready();
    expect(await count(h)).toMatchObject({ leaf: "e3", entries: 6, branch: 4, lastText: "sent before the inline answer" });
    expect(h.all("session.subscribe").map((r) => r.params)).toEqual([{ file: true }, {}]);
    expect(h.stderr).toContain("reading the session from pig instead");
    // The stream goes on after the inline answer.
    h.notify("session.appended", { entries: [entry("e4", "e3", "after")], leafId: "e4" });
    expect(await count(h)).toMatchObject({ leaf: "e4", entries: 7, lastText: "after" });
  });
});
