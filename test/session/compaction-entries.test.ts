/**
 * Compaction and branch-summary entries as Pi 0.87.1 writes them: key order, the prompt/tool
 * checkpoint, usage, a compaction that keeps nothing, and one placed beside a failed attempt.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { AgentMessage, CompactionEntry, SystemMessage, Usage } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { currentSystemMessage } from "../../src/session/system-messages.ts";
import { assistant, user } from "../helpers/sessions.ts";
import { FIXTURES_087, tempDir } from "../helpers/tmp.ts";

const USAGE: Usage = { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const TOOL = { name: "read", description: "Read a file", parameters: { type: "object" } };

function lastLine(store: SessionStore): Record<string, unknown> {
  return JSON.parse(readFileSync(store.path!, "utf8").trimEnd().split("\n").at(-1)!);
}

/** A session whose prompt was declared, then patched: the checkpoint must be the two replayed. */
function session() {
  const store = SessionStore.create({ cwd: "/work", dir: tempDir() });
  store.appendMessage({ role: "system", content: "", sections: { preamble: "You are pig.", cwd: "/work" }, timestamp: 5, toolsAdded: [TOOL] } as AgentMessage);
  const u1 = store.appendMessage(user("one") as AgentMessage);
  const a1 = store.appendMessage(assistant("one") as AgentMessage);
  store.appendMessage({ role: "system", content: "", sections: { cwd: "/elsewhere" }, timestamp: 6 } as AgentMessage);
  const u2 = store.appendMessage(user("two") as AgentMessage);
  const a2 = store.appendMessage(assistant("two") as AgentMessage);
  return { store, u1, a1, u2, a2 };
}

describe("appendCompaction", () => {
  test("writes Pi's keys in Pi's order, the usage, and the prompt and tools in force as its checkpoint", () => {
    const { store, u2 } = session();
    const expected = currentSystemMessage(store.buildContext().messages)!;
    const id = store.appendCompaction("S", u2, 300, { readFiles: [], modifiedFiles: [] }, false, USAGE);
    const line = lastLine(store);
    expect(Object.keys(line)).toEqual(["type", "id", "parentId", "timestamp", "summary", "firstKeptEntryId", "tokensBefore", "details", "usage", "fromHook", "systemMessage"]);
    expect(line).toMatchObject({ id, firstKeptEntryId: u2, tokensBefore: 300, usage: USAGE, fromHook: false });
    // The checkpoint is the replay (the patched cwd, the tool), stamped with the entry's own time.
    expect(line.systemMessage).toEqual({ ...expected, timestamp: Date.parse(line.timestamp as string) });
    expect(line.systemMessage).toMatchObject({ sections: { preamble: "You are pig.", cwd: "/elsewhere" }, toolsAdded: [TOOL] });
    expect(Object.keys(line.systemMessage as object)).toEqual(["role", "content", "sections", "toolsAdded", "timestamp"]);
    // The compacted context: the checkpoint, the summary, the kept entries without their system message.
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["system", "compactionSummary", "user", "assistant"]);
    store.close();
  });

  test("a compaction that keeps nothing names itself as first kept; the context is the checkpoint and the summary", () => {
    const { store } = session();
    const id = store.appendCompaction("everything", null, 300);
    expect((store.getEntry(id) as CompactionEntry).firstKeptEntryId).toBe(id);
    store.appendMessage(user("three") as AgentMessage);
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["system", "compactionSummary", "user"]);
    store.close();
  });

  test("without a system message in the context there is no checkpoint, and no usage key without a usage", () => {
    const store = SessionStore.create({ cwd: "/work", dir: tempDir() });
    const u = store.appendMessage(user("one") as AgentMessage);
    store.appendMessage(assistant("one") as AgentMessage);
    store.appendCompaction("S", u, 10);
    expect(Object.keys(lastLine(store))).toEqual(["type", "id", "parentId", "timestamp", "summary", "firstKeptEntryId", "tokensBefore"]);
    store.close();
  });

  test("placed beside a failed attempt: the attempt stays in the file, off the compacted path", () => {
    const { store, u2, a2 } = session();
    const id = store.appendCompaction("S", null, 300, undefined, false, USAGE, { parentId: u2 });
    expect(store.leafId).toBe(id);
    expect(store.getEntry(id)!.parentId).toBe(u2);
    expect(store.tree.has(a2)).toBe(true);
    expect(store.branchRecords().map((r) => r.id)).not.toContain(a2);
    expect(() => store.appendCompaction("S", null, 1, undefined, false, undefined, { parentId: "missing" })).toThrow("Entry missing not found");
    expect(store.leafId).toBe(id);
    store.close();
  });

  test("the checkpoint equals the one Pi 0.87.1 wrote for each compaction of fixtures 06 and 07", () => {
    for (const name of ["06-compaction-manual", "07-compaction-auto"]) {
      const store = SessionStore.open(`${FIXTURES_087}/${name}.jsonl`);
      const compactions = store.tree.records.filter((r) => r.type === "compaction").map((r) => store.materialise(r) as CompactionEntry);
      expect(compactions.length).toBe(2);
      for (const entry of compactions) {
        const replayed = currentSystemMessage(store.buildContext(entry.parentId!).messages) as SystemMessage;
        expect(entry.systemMessage).toEqual({ ...replayed, timestamp: Date.parse(entry.timestamp) });
      }
      store.close();
    }
  });
});

describe("branchWithSummary", () => {
  test("writes the usage between the details and fromHook, as Pi", () => {
    const { store, a1, a2 } = session();
    store.branchWithSummary(a1, "left two", { readFiles: [], modifiedFiles: [] }, false, USAGE);
    const line = lastLine(store);
    expect(Object.keys(line)).toEqual(["type", "id", "parentId", "timestamp", "fromId", "summary", "details", "usage", "fromHook"]);
    expect(line).toMatchObject({ parentId: a1, fromId: a2, usage: USAGE });
    store.close();
  });
});
