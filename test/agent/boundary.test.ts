/**
 * Session boundaries at the agent: the preview of the context a list of drafts would make (pure),
 * the drafts written as entries, and the turn-end and before-settle hooks ending a run or making
 * one more request, with a scripted model.
 */
import { describe, expect, test } from "bun:test";
import { checkDrafts, commitDrafts, previewBoundary } from "../../src/agent/boundary.ts";
import { NO_HOOKS, type AgentHooks, type BoundaryDraft } from "../../src/agent/hooks.ts";
import type { AgentMessage, SessionEntry } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { makeSession, until } from "../helpers/scripted-session.ts";
import { tempDir } from "../helpers/tmp.ts";

const USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const at = (id: string, parentId: string | null) => ({ id, parentId, timestamp: "2026-12-01T00:00:00.000Z" });
const user = (id: string, parentId: string | null, text: string): SessionEntry =>
  ({ type: "message", ...at(id, parentId), message: { role: "user", content: [{ type: "text", text }], timestamp: 1 } }) as SessionEntry;
const answer = (id: string, parentId: string | null, text: string): SessionEntry =>
  ({
    type: "message",
    ...at(id, parentId),
    message: { role: "assistant", content: [{ type: "text", text }], api: "x", provider: "p", model: "m", usage: USAGE, stopReason: "stop", timestamp: 2 },
  }) as unknown as SessionEntry;

const branch = [user("u1", null, "hi"), answer("a1", "u1", "hello")];
const nudge: BoundaryDraft = { type: "custom_message", customType: "nudge", content: "go on", display: false };

describe("previewBoundary", () => {
  test("a context ending with the answer cannot continue; a custom message after it can", () => {
    const plain = previewBoundary({ branch, drafts: [], pending: [], kind: "turn_end" });
    expect(plain.canContinue).toBe(false);
    expect(plain.contextMessages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(plain.contextEntries.map((e) => [e.sourceEntry.id, e.messages.length])).toEqual([["u1", 1], ["a1", 1]]);

    const drafted = previewBoundary({ branch, drafts: [{ type: "custom", customType: "note" }, nudge], pending: [], kind: "turn_end" });
    expect(drafted.canContinue).toBe(true);
    expect(drafted.contextMessages.map((m) => m.role)).toEqual(["user", "assistant", "custom"]);
    // The custom entry is in the span but gives the model nothing; the message reaches it as a user message.
    expect(drafted.contextEntries.map((e) => [e.sourceEntry.type, e.messages.length])).toEqual([["message", 1], ["message", 1], ["custom", 0], ["custom_message", 1]]);
    expect(drafted.llmMessages.at(-1)?.role).toBe("user");
  });

  test("queued messages: enough at a turn's end, at settling only after the answer", () => {
    const queued = [{ role: "user", content: [{ type: "text", text: "later" }], timestamp: 3 } as AgentMessage];
    expect(previewBoundary({ branch, drafts: [], pending: queued, kind: "turn_end" }).canContinue).toBe(true);
    expect(previewBoundary({ branch, drafts: [], pending: queued, kind: "agent_before_settle" }).canContinue).toBe(true);
    expect(previewBoundary({ branch: branch.slice(0, 1), drafts: [], pending: [], kind: "agent_before_settle" }).canContinue).toBe(true);
    expect(previewBoundary({ branch: [], drafts: [], pending: queued, kind: "agent_before_settle" }).canContinue).toBe(false);
    expect(previewBoundary({ branch, drafts: [], pending: queued, kind: "turn_end" }).pendingMessages).toEqual(queued);
  });

  test("a compaction draft replaces what it does not keep; null keeps nothing", () => {
    const compaction: BoundaryDraft = { type: "compaction", summary: "they said hi", firstKeptEntryId: null };
    const none = previewBoundary({ branch, drafts: [compaction], pending: [], kind: "turn_end" });
    expect(none.contextMessages.map((m) => m.role)).toEqual(["compactionSummary"]);
    const kept = previewBoundary({ branch, drafts: [{ ...compaction, firstKeptEntryId: "a1" }], pending: [], kind: "turn_end" });
    expect(kept.contextMessages.map((m) => m.role)).toEqual(["compactionSummary", "assistant"]);
    expect(kept.contextEntries.map((e) => e.sourceEntry.type)).toEqual(["message", "compaction"]);
  });

  test("a draft naming an entry not on the branch is refused, by index", () => {
    expect(() => checkDrafts(branch, [nudge, { type: "context_edit", targetId: "zz", replacement: null }])).toThrow(
      "entries[1]: context_edit target zz is not on the active branch",
    );
    expect(() => checkDrafts(branch, [{ type: "compaction", summary: "s", firstKeptEntryId: "zz" }])).toThrow("entries[0]: compaction firstKeptEntryId zz");
    expect(() => checkDrafts(branch, [{ type: "context_edit", targetId: "u1", replacement: { content: "x" } }])).not.toThrow();
  });
});

test("commitDrafts writes each draft as its entry, in order, after the leaf", () => {
  const store = SessionStore.create({ cwd: "/work", dir: tempDir() });
  const u = store.appendMessage({ role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 } as AgentMessage);
  const { ids, compacted } = commitDrafts(store, [
    { type: "custom", customType: "note", data: { n: 1 } },
    { type: "context_edit", targetId: u, replacement: null },
    nudge,
  ]);
  expect(compacted).toBe(false);
  const written = ids.map((id) => store.getEntry(id)!);
  expect(written.map((e) => e.type)).toEqual(["custom", "context_edit", "custom_message"]);
  expect(written[0]).toMatchObject({ parentId: u, customType: "note", data: { n: 1 } });
  expect(Object.keys(written[1]!)).toEqual(["type", "id", "parentId", "timestamp", "targetId", "replacement"]);
  expect(written[1]).toMatchObject({ parentId: ids[0], targetId: u, replacement: null });
  expect(store.leafId).toBe(ids[2]!);
  // The context edit is kept, not applied: the user message is still in the context.
  expect(store.buildContext().messages.map((m) => m.role)).toEqual(["user", "custom"]);
});

describe("the boundary hooks in a run", () => {
  const hooks = (overrides: Partial<AgentHooks>): AgentHooks => ({ ...NO_HOOKS, ...overrides });

  test("turn end: drafts reach the next request, which runs because they asked", async () => {
    let calls = 0;
    const { session, seen, store } = makeSession([{ text: "one" }, { text: "two" }], [], {
      more: {
        hooks: hooks({
          turnEnd: async (event, preview) => {
            calls++;
            expect(event.messageEntryId).toBe(store.getBranch().at(-1)!.id);
            if (calls > 1) return undefined;
            expect(preview([nudge]).canContinue).toBe(true);
            return { entries: [nudge], continue: true };
          },
        }),
      },
    });
    await session.prompt("hi");
    expect(calls).toBe(2);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(store.getBranch().map((e) => e.type).slice(-3)).toEqual(["message", "custom_message", "message"]);
  });

  test("turn end: continue on a context that ends with the answer is refused and reported", async () => {
    const { session, seen, events } = makeSession([{ text: "one" }, { text: "two" }], [], {
      more: { hooks: hooks({ turnEnd: async () => ({ entries: [], continue: true }) }) },
    });
    await session.prompt("hi");
    expect(seen).toHaveLength(1);
    const errors = events.filter((e) => e.type === "extension_error");
    expect(errors).toMatchObject([{ extensionPath: "<boundary>", event: "turn_end", error: "turn_end requested continuation without runnable model context" }]);
  });

  test("before settle: not asked when the run was aborted", async () => {
    let asked = 0;
    const { session, events } = makeSession([{ gate: new Promise(() => {}) }], [], {
      more: { hooks: hooks({ beforeSettle: async () => (asked++, { entries: [nudge], continue: true }) }) },
    });
    const run = session.prompt("hi");
    await until(() => events.some((e) => e.type === "message_start" && e.message.role === "assistant"));
    await session.abort();
    await run;
    expect(asked).toBe(0);
    expect(events.filter((e) => e.type === "agent_settled")).toHaveLength(1);
  });

  test("before settle: one more run, then it settles", async () => {
    let asked = 0;
    const { session, seen, events } = makeSession([{ text: "one" }, { text: "two" }], [], {
      more: {
        hooks: hooks({
          beforeSettle: async (event) => {
            asked++;
            expect(event.outcome).toBe("completed");
            return asked === 1 ? { entries: [nudge], continue: true } : undefined;
          },
        }),
      },
    });
    await session.prompt("hi");
    expect(asked).toBe(2);
    expect(seen).toHaveLength(2);
    expect(events.filter((e) => e.type === "agent_settled")).toHaveLength(1);
  });
});
