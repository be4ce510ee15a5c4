/** Session totals as Pi 0.87 counts them: every message of the file and every billed usage. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { costByModel, sessionTotals } from "../../src/agent/session-stats.ts";
import { SessionStore } from "../../src/session/store.ts";
import { tempDir } from "../helpers/tmp.ts";

const usage = (input: number, output: number, cost: number) => ({ input, output, cacheRead: 1, cacheWrite: 2, totalTokens: input + output + 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } });
const at = (id: string, parentId: string | null) => ({ id, parentId, timestamp: "2026-12-01T00:00:00.000Z" });

describe("sessionTotals", () => {
  test("counts every branch and what compaction summarised; adds usage entries and summaries' usage", () => {
    const lines = [
      { type: "session", version: 3, id: "s", timestamp: "2026-12-01T00:00:00.000Z", cwd: "/w" },
      { type: "message", ...at("m0", null), message: { role: "system", content: "", timestamp: 1 } },
      { type: "message", ...at("u1", "m0"), message: { role: "user", content: [{ type: "text", text: "a" }], timestamp: 1 } },
      { type: "message", ...at("a1", "u1"), message: { role: "assistant", content: [{ type: "toolCall", id: "c", name: "ls", arguments: {} }], api: "x", provider: "p", model: "m", usage: usage(100, 10, 0.5), stopReason: "toolUse", timestamp: 2 } },
      { type: "message", ...at("t1", "a1"), message: { role: "toolResult", toolCallId: "c", toolName: "ls", content: [], isError: false, usage: usage(5, 0, 0.01), timestamp: 3 } },
      { type: "compaction", ...at("c1", "t1"), summary: "s", firstKeptEntryId: "c1", tokensBefore: 9, usage: usage(50, 5, 0.25) },
      // Another branch, from the first user message.
      { type: "message", ...at("a2", "u1"), message: { role: "assistant", content: [{ type: "text", text: "b" }], api: "x", provider: "p", model: "m", usage: usage(20, 2, 0.1), stopReason: "stop", timestamp: 4 } },
      { type: "usage", ...at("g1", "a2"), kind: "cache_warm", provider: "p", model: "m", usage: usage(0, 0, 0.05) },
    ];
    const path = join(tempDir(), "s.jsonl");
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const store = SessionStore.open(path);
    const totals = sessionTotals(store.tree.records, store.readEntry);
    store.close();
    expect(totals).toEqual({
      userMessages: 1,
      assistantMessages: 2,
      toolCalls: 1,
      toolResults: 1,
      totalMessages: 5,
      tokens: { input: 175, output: 17, cacheRead: 5, cacheWrite: 10, total: 207 },
      cost: expect.closeTo(0.91, 10),
    });
  });
});

describe("costByModel", () => {
  test("the answers' cost by the model that gave them, in the order each first answered", () => {
    const answer = (id: string, parentId: string, model: string, cost: number) => ({
      type: "message",
      ...at(id, parentId),
      message: { role: "assistant", content: [], api: "x", provider: "fake", model, usage: usage(1, 1, cost), stopReason: "stop", timestamp: 2 },
    });
    const lines = [
      { type: "session", version: 3, id: "s", timestamp: "2026-12-01T00:00:00.000Z", cwd: "/w" },
      { type: "message", ...at("u1", null), message: { role: "user", content: [{ type: "text", text: "a" }], timestamp: 1 } },
      answer("a1", "u1", "small", 0.25),
      answer("a2", "a1", "large", 1),
      answer("a3", "a2", "small", 0.5),
    ];
    const path = join(tempDir(), "s.jsonl");
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const store = SessionStore.open(path);
    expect(costByModel(store.tree.records, store.readEntry)).toEqual([
      ["fake/small", 0.75],
      ["fake/large", 1],
    ]);
    store.close();
  });
});

