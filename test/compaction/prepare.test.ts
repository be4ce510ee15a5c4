import { describe, expect, test } from "bun:test";
import {
  computeFileLists,
  isNothingToCompact,
  NOTHING_TO_COMPACT,
  prepareCompaction,
  type CompactionPreparation,
} from "../../src/compaction/index.ts";
import type { AgentMessage, MessageEntry, SessionEntry } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { assistantMsg, branchSummary, chain, compaction, customMessage, m, modelChange, sized, thinking, toolCall, toolResult, userMsg } from "./helpers.ts";

const settings = { reserveTokens: 16384, keepRecentTokens: 100 };

function ready(branch: readonly SessionEntry[], keep = settings.keepRecentTokens): CompactionPreparation {
  const prepared = prepareCompaction(branch, { ...settings, keepRecentTokens: keep });
  if (!prepared || isNothingToCompact(prepared)) throw new Error(`expected a preparation, got ${JSON.stringify(prepared)}`);
  return prepared;
}

describe("prepareCompaction refusals", () => {
  test("gives undefined when the branch already ends in a compaction", () => {
    expect(prepareCompaction(chain(m(userMsg("a")), compaction("S", "e1")), settings)).toBeUndefined();
  });

  test("says there is nothing to compact for an empty branch", () => {
    expect(prepareCompaction([], settings)).toEqual({ nothingToCompact: true, reason: "empty-branch", message: NOTHING_TO_COMPACT });
  });

  test("says there is nothing to summarise when everything fits in keepRecentTokens, so no request is made", () => {
    const prepared = prepareCompaction(chain(modelChange(), thinking(), m(userMsg("hi")), m(assistantMsg("hello"))), settings);
    expect(isNothingToCompact(prepared)).toBe(true);
    if (!isNothingToCompact(prepared)) return;
    expect(prepared.reason).toBe("nothing-to-summarize");
    expect(prepared.preparation?.firstKeptEntryId).toBe("e1");
    expect(prepared.preparation?.messagesToSummarize).toEqual([]);
  });
});

describe("prepareCompaction on a first compaction", () => {
  test("summarises what comes before the cut and keeps the rest", () => {
    const branch = chain(m(userMsg(sized(200))), m(assistantMsg(sized(200), { totalTokens: 900 })), m(userMsg(sized(150))), m(assistantMsg("ok", { totalTokens: 1200 })));
    const prepared = ready(branch);
    expect(prepared.firstKeptEntryId).toBe("e3");
    expect(prepared.isSplitTurn).toBe(false);
    expect(prepared.messagesToSummarize).toEqual([branch[0], branch[1]].map((e) => (e as MessageEntry).message));
    expect(prepared.turnPrefixMessages).toEqual([]);
    expect(prepared.previousSummary).toBeUndefined();
    // tokensBefore: the last usage of the current context.
    expect(prepared.tokensBefore).toBe(1200);
    expect(prepared.settings.keepRecentTokens).toBe(100);
  });

  test("splits a turn: history before the turn, the turn's beginning as prefix", () => {
    const branch = chain(
      m(userMsg("earlier")),
      m(assistantMsg("earlier answer")),
      m(userMsg("big task")),
      m(assistantMsg([toolCall("read", { path: "src/a.ts" })])),
      m(toolResult(sized(300))),
      m(assistantMsg([toolCall("edit", { path: "src/a.ts" })])),
      m(toolResult("done")),
      m(assistantMsg(sized(20))),
    );
    const prepared = ready(branch);
    expect(prepared.firstKeptEntryId).toBe("e6");
    expect(prepared.isSplitTurn).toBe(true);
    expect(prepared.messagesToSummarize.map((msg) => msg.role)).toEqual(["user", "assistant"]);
    expect(prepared.turnPrefixMessages.map((msg) => msg.role)).toEqual(["user", "assistant", "toolResult"]);
    // File operations come from the summarised part only (the edit is in the kept suffix).
    expect(computeFileLists(prepared.fileOps)).toEqual({ readFiles: ["src/a.ts"], modifiedFiles: [] });
  });

  test("turns custom messages and branch summaries into their messages", () => {
    const branch = chain(customMessage("extension note"), branchSummary("went elsewhere"), m(assistantMsg("reply")), m(userMsg(sized(200))), m(assistantMsg("x")));
    const prepared = ready(branch);
    expect(prepared.firstKeptEntryId).toBe("e4");
    expect(prepared.messagesToSummarize.map((msg) => msg.role)).toEqual(["custom", "branchSummary", "assistant"]);
  });

  test("the cut backs up over entries that add nothing to the context, not over a custom message", () => {
    const branch = chain(m(userMsg("start")), m(assistantMsg("reply")), customMessage("note"), modelChange(), thinking(), m(userMsg(sized(200))), m(assistantMsg("x")));
    const prepared = ready(branch);
    expect(prepared.firstKeptEntryId).toBe("e4");
    // The kept part starts at the model change, inside the turn the custom message began.
    expect(prepared.isSplitTurn).toBe(true);
    expect(prepared.messagesToSummarize.map((msg) => msg.role)).toEqual(["user", "assistant"]);
    expect(prepared.turnPrefixMessages.map((msg) => msg.role)).toEqual(["custom"]);
  });

  test("leaves system messages out of what is summarised: the prompt is not conversation", () => {
    const system = m({ role: "system", content: "", sections: { preamble: "You are pig." }, timestamp: 1 } as AgentMessage);
    const branch = chain(system, m(userMsg("start")), m(assistantMsg("reply")), m(userMsg(sized(200))), m(assistantMsg("x")));
    const prepared = ready(branch);
    expect(prepared.firstKeptEntryId).toBe("e4");
    expect(prepared.messagesToSummarize.map((msg) => msg.role)).toEqual(["user", "assistant"]);
  });

  test("takes tokensBefore from the rebuilt context when no answer reported a usage", () => {
    const branch = chain(m(userMsg(sized(200))), m(userMsg(sized(150))));
    expect(ready(branch).tokensBefore).toBe(350);
  });
});

describe("prepareCompaction on a repeated compaction", () => {
  function compacted(details?: unknown, fromHook?: boolean): SessionEntry[] {
    return chain(
      m(userMsg(sized(300))),
      m(assistantMsg([toolCall("write", { path: "old.txt" })])),
      m(userMsg("kept question")),
      m(assistantMsg("kept answer", { totalTokens: 700 })),
      compaction("PREVIOUS", "e3", details, fromHook),
      m(userMsg("after")),
      m(assistantMsg("after answer", { totalTokens: 300 })),
      m(userMsg(sized(150))),
      m(assistantMsg("latest", { totalTokens: 400 })),
    );
  }

  test("starts at the previous compaction's first kept entry and leaves the compaction entry out", () => {
    const prepared = ready(compacted());
    expect(prepared.previousSummary).toBe("PREVIOUS");
    expect(prepared.firstKeptEntryId).toBe("e8");
    const texts = prepared.messagesToSummarize.map((msg) => JSON.stringify(msg));
    expect(prepared.messagesToSummarize.map((msg) => msg.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(texts[0]).toContain("kept question");
    expect(texts.some((text) => text.includes("PREVIOUS"))).toBe(false);
    expect(prepared.tokensBefore).toBe(400);
  });

  test("starts right after the previous compaction when its first kept entry is not on the branch", () => {
    const branch = compacted().map((entry) => (entry.type === "compaction" ? { ...entry, firstKeptEntryId: "gone" } : entry));
    const prepared = ready(branch);
    expect(prepared.messagesToSummarize.map((msg) => msg.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(prepared.messagesToSummarize[0])).toContain("after");
  });

  test("carries the previous compaction's file lists, unless an extension wrote it", () => {
    const details = { readFiles: ["r.txt"], modifiedFiles: ["m.txt"] };
    expect(computeFileLists(ready(compacted(details)).fileOps)).toEqual({ readFiles: ["r.txt"], modifiedFiles: ["m.txt"] });
    expect(computeFileLists(ready(compacted(details, true)).fileOps)).toEqual({ readFiles: [], modifiedFiles: [] });
  });
});

describe("prepareCompaction with a failed attempt left out (overflow recovery)", () => {
  const system = { role: "system", content: "", sections: { preamble: sized(10) }, timestamp: 1 } as AgentMessage;
  function overflowed(): SessionEntry[] {
    return chain(
      m(system),
      m(userMsg(sized(100))),
      m(assistantMsg(sized(100), { totalTokens: 17000 })),
      compaction("FIRST", "e4"),
      m(userMsg(sized(60))),
      m(assistantMsg(sized(20), { totalTokens: 17020 })),
      m(userMsg(sized(80))),
      m(assistantMsg([], { stopReason: "error" }), "failed"),
    );
  }

  test("the turn that overflowed is summarised as a split turn's prefix; the cut is on the failed answer", () => {
    const prepared = ready(overflowed(), 50);
    const omitted = prepareCompaction(overflowed(), { ...settings, keepRecentTokens: 50 }, { omitted: new Set(["failed"]) });
    if (!omitted || isNothingToCompact(omitted)) throw new Error("expected a preparation");
    expect(prepared.firstKeptEntryId).toBe("e7");
    expect(omitted.firstKeptEntryId).toBe("failed");
    expect(omitted.isSplitTurn).toBe(true);
    expect(omitted.previousSummary).toBe("FIRST");
    expect(omitted.messagesToSummarize.map((msg) => msg.role)).toEqual(["user", "assistant"]);
    expect(omitted.turnPrefixMessages.map((msg) => JSON.stringify(msg).length > 300)).toEqual([true]);
    expect(omitted.turnPrefixMessages.map((msg) => msg.role)).toEqual(["user"]);
  });

  test("usage reported before the left-out answer is stale: tokensBefore is estimated, the prompt counted once", () => {
    const omitted = prepareCompaction(overflowed(), { ...settings, keepRecentTokens: 50 }, { omitted: new Set(["failed"]) });
    if (!omitted || isNothingToCompact(omitted)) throw new Error("expected a preparation");
    // The checkpoint is absent here (a hand-made compaction), so the estimate is the summary and the messages.
    expect(omitted.tokensBefore).toBe(Math.ceil("FIRST".length / 4) + 60 + 20 + 80);
    // Without the omission the answer after the compaction is trusted.
    expect(ready(overflowed(), 50).tokensBefore).toBe(17020 + 80);
  });
});

describe("prepareCompaction's tokensBefore", () => {
  test("does not trust usage from the kept part of the previous compaction: estimates, the prompt once", () => {
    const prompt = { role: "system", content: "", sections: { preamble: sized(10) }, timestamp: 1 } as AgentMessage;
    const branch = chain(
      m(prompt),
      m(userMsg(sized(100))),
      m(assistantMsg(sized(40), { totalTokens: 9000 })),
      { ...compaction("S", "e2"), systemMessage: prompt },
      m(userMsg(sized(30))),
      m(prompt),
      m(userMsg(sized(200))),
    );
    // The checkpoint and the later copy of the prompt are the same prompt: 10 tokens once.
    expect(ready(branch).tokensBefore).toBe(10 + 1 + 100 + 40 + 30 + 200);
  });
});

describe("prepareCompaction on a store's branch", () => {
  test("works on SessionStore.getBranch() of an in-memory session", () => {
    const store = SessionStore.create({ cwd: "/tmp" });
    store.appendModelChange("fake", "fake-model");
    store.appendThinkingLevelChange("off");
    store.appendMessage(userMsg(sized(200)));
    store.appendMessage(assistantMsg("first", { totalTokens: 250 }));
    const keptId = store.appendMessage(userMsg(sized(120)));
    store.appendMessage(assistantMsg("second", { totalTokens: 400 }));
    const prepared = ready(store.getBranch());
    expect(prepared.firstKeptEntryId).toBe(keptId);
    expect(prepared.messagesToSummarize.length).toBe(2);
    expect(prepared.tokensBefore).toBe(400);
  });
});
