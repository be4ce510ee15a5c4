import { describe, expect, test } from "bun:test";
import {
  BRANCH_SUMMARY_INSTRUCTIONS,
  branchSummaryBudget,
  collectEntriesForBranchSummary,
  computeFileLists,
  generateBranchSummary,
  lookupOf,
  navigationTarget,
  prepareBranchEntries,
} from "../../src/compaction/index.ts";
import type { SessionEntry } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { fakeStream } from "./fake-stream.ts";
import { assistantMsg, branchSummary, chain, compaction, customMessage, fakeModel, label, m, sized, toolCall, toolResult, userMsg } from "./helpers.ts";
import { settingsDefaults } from "../../src/resources/settings-effective.ts";

const RESERVE = settingsDefaults.branchSummary.reserveTokens;

/** root u1 → a2 → { u3 → a4 (old leaf) | u5 → a6 } */
function tree(): SessionEntry[] {
  const main = chain(m(userMsg("u1")), m(assistantMsg("a2")), m(userMsg("u3"), "e3"), m(assistantMsg("a4"), "e4"));
  const side = [
    { type: "message", id: "e5", parentId: "e2", timestamp: "2026-01-01T00:00:10.000Z", message: userMsg("u5") },
    { type: "message", id: "e6", parentId: "e5", timestamp: "2026-01-01T00:00:11.000Z", message: assistantMsg("a6") },
  ] as SessionEntry[];
  return [...main, ...side];
}

describe("collectEntriesForBranchSummary", () => {
  test("collects the old branch from its leaf up to the common ancestor, oldest first", () => {
    const get = lookupOf(tree());
    const collected = collectEntriesForBranchSummary(get, "e4", "e6");
    expect(collected.commonAncestorId).toBe("e2");
    expect(collected.entries.map((entry) => entry.id)).toEqual(["e3", "e4"]);
  });

  test("collects nothing when moving to an ancestor's descendant on the same path, and nothing without an old leaf", () => {
    const get = lookupOf(tree());
    expect(collectEntriesForBranchSummary(get, "e4", "e4").entries).toEqual([]);
    expect(collectEntriesForBranchSummary(get, "e2", "e4")).toEqual({ entries: [], commonAncestorId: "e2" });
    expect(collectEntriesForBranchSummary(get, null, "e4")).toEqual({ entries: [], commonAncestorId: null });
  });

  test("collects the old leaf's whole path when the target shares no ancestor with it", () => {
    const entries = [...tree(), { type: "message", id: "r", parentId: null, timestamp: "2026-01-01T00:01:00.000Z", message: userMsg("other root") } as SessionEntry];
    const collected = collectEntriesForBranchSummary(lookupOf(entries), "e4", "r");
    expect(collected.commonAncestorId).toBeNull();
    expect(collected.entries.map((entry) => entry.id)).toEqual(["e1", "e2", "e3", "e4"]);
  });

  test("works on a store's records, parsing only what is collected", () => {
    const store = SessionStore.create({ cwd: "/tmp" });
    store.appendMessage(userMsg("a"));
    const fork = store.appendMessage(assistantMsg("b"));
    store.appendMessage(userMsg("c"));
    const oldLeaf = store.appendMessage(assistantMsg("d"));
    const collected = collectEntriesForBranchSummary((id) => store.tree.get(id), oldLeaf, fork);
    expect(collected.entries.map(store.materialise).map((entry) => entry.type)).toEqual(["message", "message"]);
    expect(collected.commonAncestorId).toBe(fork);
  });
});

describe("prepareBranchEntries", () => {
  test("keeps messages, custom messages and summaries, leaves out tool results and other entries", () => {
    const entries = chain(m(userMsg("u")), m(assistantMsg([toolCall("edit", { path: "x.ts" })])), m(toolResult("ok")), label("e1"), customMessage("note"), branchSummary("B"), compaction("C", "e1"));
    const prepared = prepareBranchEntries(entries);
    expect(prepared.messages.map((message) => message.role)).toEqual(["user", "assistant", "custom", "branchSummary", "compactionSummary"]);
    expect(computeFileLists(prepared.fileOps)).toEqual({ readFiles: [], modifiedFiles: ["x.ts"] });
  });

  test("keeps the newest messages that fit the budget", () => {
    const entries = chain(m(userMsg(sized(50))), m(assistantMsg(sized(40))), m(userMsg(sized(30))), m(assistantMsg(sized(20))));
    const prepared = prepareBranchEntries(entries, 100);
    expect(prepared.messages.length).toBe(3);
    expect(prepared.totalTokens).toBe(90);
  });

  test("still takes an oversized summary while less than 90% of the budget is used", () => {
    const entries = chain(compaction(sized(80), "x"), m(userMsg(sized(30))));
    expect(prepareBranchEntries(entries, 100).messages.map((msg) => msg.role)).toEqual(["compactionSummary", "user"]);
    const full = chain(compaction(sized(80), "x"), m(userMsg(sized(95))));
    expect(prepareBranchEntries(full, 100).messages.map((msg) => msg.role)).toEqual(["user"]);
  });

  test("collects file lists from earlier branch summaries (not extension-written ones) even beyond the budget", () => {
    const entries = chain(
      { ...branchSummary(sized(500), { readFiles: ["r.ts"], modifiedFiles: ["m.ts"] }) },
      { ...branchSummary(sized(20), { readFiles: ["hook.ts"], modifiedFiles: [] }), fromHook: true },
      m(userMsg(sized(90))),
    );
    const prepared = prepareBranchEntries(entries, 100);
    expect(prepared.messages.map((msg) => msg.role)).toEqual(["user"]);
    expect(computeFileLists(prepared.fileOps)).toEqual({ readFiles: ["r.ts"], modifiedFiles: ["m.ts"] });
  });

  test("has no limit with a budget of 0", () => {
    const entries = chain(m(userMsg(sized(5000))), m(userMsg(sized(5000))));
    expect(prepareBranchEntries(entries, 0).messages.length).toBe(2);
  });
});

describe("generateBranchSummary", () => {
  const branch = chain(m(userMsg("try X")), m(assistantMsg([toolCall("read", { path: "x.md" })])), m(toolResult("contents")), m(assistantMsg("X done")));

  test("sends the branch with the branch instructions, 4096 output tokens and no reasoning; keeps the usage", async () => {
    const fake = fakeStream(() => ({ text: "## Goal\nX", usage: { input: 40, output: 4 } }));
    const model = fakeModel(undefined, { reasoning: true });
    const outcome = await generateBranchSummary(branch, { model, stream: fake.stream, apiKey: "k", reserveTokens: RESERVE, headers: { h: "v" } });
    expect(fake.calls.length).toBe(1);
    const call = fake.calls[0]!;
    expect(call.userText).toBe(`<conversation>\n[User]: try X\n\n[Assistant tool calls]: read(path="x.md")\n\n[Assistant]: X done\n</conversation>\n\n${BRANCH_SUMMARY_INSTRUCTIONS}`);
    expect(call.options).toMatchObject({ apiKey: "k", headers: { h: "v" }, maxTokens: 4096 });
    expect(call.options.reasoning).toBeUndefined();
    expect(outcome).toEqual({
      kind: "summary",
      summary: "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n## Goal\nX\n\n<read-files>\nx.md\n</read-files>",
      details: { readFiles: ["x.md"], modifiedFiles: [] },
      usage: { input: 40, output: 4, cacheRead: 0, cacheWrite: 0, totalTokens: 44, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      requested: true,
    });
  });

  test("asks for no more output than the model can write", async () => {
    const fake = fakeStream(() => ({ text: "S" }));
    await generateBranchSummary(branch, { model: fakeModel(undefined, { maxTokens: 1000 }), stream: fake.stream, apiKey: "k", reserveTokens: RESERVE });
    expect(fake.calls[0]!.options.maxTokens).toBe(1000);
  });

  test("uses custom instructions as focus, or instead of the default when replacing", async () => {
    const focus = fakeStream(() => ({ text: "S" }));
    await generateBranchSummary(branch, { model: fakeModel(), stream: focus.stream, apiKey: "k", reserveTokens: RESERVE, customInstructions: "only X" });
    expect(focus.calls[0]!.userText.endsWith(`${BRANCH_SUMMARY_INSTRUCTIONS}\n\nAdditional focus: only X`)).toBe(true);
    const replace = fakeStream(() => ({ text: "S" }));
    await generateBranchSummary(branch, { model: fakeModel(), stream: replace.stream, apiKey: "k", reserveTokens: RESERVE, customInstructions: "only X", replaceInstructions: true });
    expect(replace.calls[0]!.userText.endsWith("</conversation>\n\nonly X")).toBe(true);
  });

  test("answers 'No content to summarize' without a request when nothing is left to read", async () => {
    const fake = fakeStream(() => ({ text: "S" }));
    const outcome = await generateBranchSummary(chain(m(toolResult("r")), label("x")), { model: fakeModel(), stream: fake.stream, apiKey: "k", reserveTokens: RESERVE });
    expect(outcome).toEqual({ kind: "summary", summary: "No content to summarize", details: { readFiles: [], modifiedFiles: [] }, requested: false });
    expect(fake.calls.length).toBe(0);
  });

  test("returns failures and aborts instead of a summary", async () => {
    const failing = fakeStream(() => ({ error: "bad" }));
    expect(await generateBranchSummary(branch, { model: fakeModel(), stream: failing.stream, apiKey: "k", reserveTokens: RESERVE })).toEqual({ kind: "error", message: "Branch summarization failed: bad" });
    const silent = fakeStream(() => ({ error: undefined }));
    expect(await generateBranchSummary(branch, { model: fakeModel(), stream: silent.stream, apiKey: "k", reserveTokens: RESERVE })).toEqual({
      kind: "error",
      message: "Branch summarization failed: Unknown error",
    });
    const cut = fakeStream(() => ({ text: "half a summ", stopReason: "length" }));
    expect(await generateBranchSummary(branch, { model: fakeModel(), stream: cut.stream, apiKey: "k", reserveTokens: RESERVE })).toEqual({
      kind: "error",
      message: "Branch summarization failed: generation hit the token cap and the summary is incomplete",
    });
    const tool = fakeStream(() => ({ text: "", toolCall: true }));
    expect(await generateBranchSummary(branch, { model: fakeModel(), stream: tool.stream, apiKey: "k", reserveTokens: RESERVE })).toEqual({
      kind: "error",
      message: "Branch summarization attempted to call a tool",
    });
    const controller = new AbortController();
    const hanging = fakeStream(() => {
      setTimeout(() => controller.abort(), 1);
      return { hang: true };
    });
    expect(await generateBranchSummary(branch, { model: fakeModel(), stream: hanging.stream, apiKey: "k", reserveTokens: RESERVE, signal: controller.signal })).toEqual({ kind: "aborted" });
  });

  test("budgets the context window minus the reserve (128000 when the model has none)", () => {
    expect(branchSummaryBudget({ contextWindow: 200000 }, RESERVE)).toBe(200000 - 16384);
    expect(branchSummaryBudget({ contextWindow: 0 }, 1000)).toBe(127000);
  });
});

describe("navigationTarget", () => {
  test("puts the leaf on a user message's parent and returns its text to the editor", () => {
    const [root, child] = chain(m(userMsg("first")), m({ role: "user", content: [{ type: "text", text: "a" }, { type: "image", data: "AA", mimeType: "image/png" }, { type: "text", text: "b" }], timestamp: 1 }));
    expect(navigationTarget(root!)).toEqual({ leafId: null, editorText: "first" });
    expect(navigationTarget(child!)).toEqual({ leafId: "e1", editorText: "ab" });
  });

  test("treats a custom message like a user message", () => {
    const [, note] = chain(m(assistantMsg("x")), customMessage("extension text"));
    expect(navigationTarget(note!)).toEqual({ leafId: "e1", editorText: "extension text" });
  });

  test("makes any other entry the leaf itself", () => {
    const [, answer, summary] = chain(m(userMsg("q")), m(assistantMsg("a")), branchSummary("S"));
    expect(navigationTarget(answer!)).toEqual({ leafId: "e2" });
    expect(navigationTarget(summary!)).toEqual({ leafId: "e3" });
  });
});
