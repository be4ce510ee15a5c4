import { describe, expect, test } from "bun:test";
import { findCutPoint as findCutPointIn, findTurnStartIndex as turnStartIn, findValidCutPoints as cutPointsIn, projectBranch } from "../../src/compaction/index.ts";
import type { AgentMessage, SessionEntry } from "../../src/session/format.ts";
import { assistantMsg, branchSummary, chain, compaction, customMessage, label, m, modelChange, sized, thinking, toolCall, toolResult, userMsg } from "./helpers.ts";

// The functions work on the projected branch; these take the plain entries of a branch without a compaction.
const findValidCutPoints = (entries: SessionEntry[], start: number, end: number) => cutPointsIn(projectBranch(entries), start, end);
const findTurnStartIndex = (entries: SessionEntry[], index: number, start: number) => turnStartIn(projectBranch(entries), index, start);
const findCutPoint = (entries: SessionEntry[], start: number, end: number, keep: number, omitted?: Set<string>) =>
  findCutPointIn(projectBranch(entries, omitted), start, end, keep);

const bash = (command: string, output: string): AgentMessage =>
  ({ role: "bashExecution", command, output, exitCode: 0, cancelled: false, truncated: false, timestamp: 1 }) as AgentMessage;

describe("findValidCutPoints", () => {
  test("allows every message but tool results and system messages, plus custom messages and branch summaries", () => {
    const entries = chain(
      modelChange(),
      m(userMsg("u")),
      m(assistantMsg([toolCall("read", { path: "a" })])),
      m(toolResult("r")),
      m(bash("ls", "")),
      customMessage("note"),
      branchSummary("S"),
      label("e2"),
      m({ role: "system", content: "", sections: { a: "prompt" }, timestamp: 1 } as AgentMessage),
      m({ role: "mystery" } as AgentMessage),
    );
    expect(findValidCutPoints(entries, 0, entries.length)).toEqual([1, 2, 4, 5, 6]);
  });

  test("never cuts at a compaction: the latest one leads the projection, older ones in its kept part add nothing", () => {
    const entries = chain(m(userMsg("a")), compaction("OLD", "e1"), m(userMsg("b")), compaction("NEW", "e2"), m(userMsg("c")));
    const projected = projectBranch(entries);
    expect(projected.map((p) => [p.sourceEntry.id, p.messages.map((message) => message.role)])).toEqual([
      ["e4", ["compactionSummary"]],
      ["e2", []],
      ["e3", ["user"]],
      ["e5", ["user"]],
    ]);
    expect(cutPointsIn(projected, 0, projected.length)).toEqual([2, 3]);
  });
});

describe("findTurnStartIndex", () => {
  test("finds the user message, bash run, custom message or branch summary that began the turn", () => {
    const entries = chain(m(userMsg("u")), m(assistantMsg("a")), m(bash("ls", "")), m(assistantMsg("b")), customMessage("c"), m(assistantMsg("d")));
    expect(findTurnStartIndex(entries, 1, 0)).toBe(0);
    expect(findTurnStartIndex(entries, 3, 0)).toBe(2);
    expect(findTurnStartIndex(entries, 5, 0)).toBe(4);
    expect(findTurnStartIndex(entries, 1, 1)).toBe(-1);
  });
});

describe("findCutPoint", () => {
  test("keeps everything from the first cut point when the budget is never reached", () => {
    const entries = chain(modelChange(), thinking(), m(userMsg("a")), m(assistantMsg("b")));
    expect(findCutPoint(entries, 0, entries.length, 1000)).toEqual({ firstKeptEntryIndex: 0, turnStartIndex: -1, isSplitTurn: false });
  });

  test("cuts at the user message where the recent messages reach keepRecentTokens", () => {
    const entries = chain(m(userMsg(sized(100))), m(assistantMsg(sized(100))), m(userMsg(sized(60))), m(assistantMsg(sized(50))));
    // 50 + 60 = 110 ≥ 100 at index 2 (a user message): a clean cut.
    expect(findCutPoint(entries, 0, entries.length, 100)).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: -1, isSplitTurn: false });
  });

  test("never cuts at a tool result: moves forward to the next valid cut point, splitting the turn", () => {
    const entries = chain(
      m(userMsg("do it")),
      m(assistantMsg([toolCall("read", { path: "a" })])),
      m(toolResult(sized(200))),
      m(assistantMsg(sized(10))),
    );
    // The budget is reached at the tool result (index 2); the next cut point is the answer at 3.
    expect(findCutPoint(entries, 0, entries.length, 100)).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 0, isSplitTurn: true });
  });

  test("counts what every entry puts in the context toward the budget, custom messages included", () => {
    const entries = chain(m(userMsg(sized(40))), m(assistantMsg(sized(40))), customMessage(sized(500)), m(userMsg(sized(40))), m(assistantMsg(sized(40))));
    // 40 + 40 + 500 passes 100 at the custom message (index 2), which starts the kept part.
    expect(findCutPoint(entries, 0, entries.length, 100)).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: -1, isSplitTurn: false });
  });

  test("moves the cut back over the non-message entries right before it (then reports a split turn, as upstream)", () => {
    const entries = chain(m(userMsg(sized(100))), m(assistantMsg("a")), modelChange(), thinking(), label("e1"), m(userMsg(sized(100))));
    // The kept part starts at the model change, so the turn of message 0 counts as split.
    expect(findCutPoint(entries, 0, entries.length, 50)).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: 0, isSplitTurn: true });
  });

  test("stops backing up at a compaction and at the start of the range", () => {
    const entries = chain(m(userMsg("a")), compaction("C", "e1"), thinking(), m(userMsg(sized(100))));
    expect(findCutPoint(entries, 0, entries.length, 50).firstKeptEntryIndex).toBe(2);
    expect(findCutPoint(entries, 3, entries.length, 50).firstKeptEntryIndex).toBe(3);
  });

  test("a cut on a bash run, custom message or branch summary starts a turn: nothing is split", () => {
    for (const start of [m(bash("ls", sized(100))), customMessage(sized(100)), branchSummary(sized(100))]) {
      const entries = chain(m(userMsg(sized(100))), m(assistantMsg("a")), start);
      expect(findCutPoint(entries, 0, entries.length, 50)).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: -1, isSplitTurn: false });
    }
  });

  test("a system message in the walk adds its size, but the cut never starts at it", () => {
    const system = m({ role: "system", content: "", sections: { rules: sized(100) }, timestamp: 1 } as AgentMessage);
    const entries = chain(m(userMsg("a")), m(assistantMsg("b")), system, m(userMsg("c")));
    // c (1) + the prompt (100) passes 50 at index 2; the next cut point is the user message after it.
    expect(findCutPoint(entries, 0, entries.length, 50)).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: -1, isSplitTurn: false });
  });

  test("past a left-out failed answer at the end, the cut moves onto it and the turn before it is split", () => {
    const failed = m(assistantMsg([], { stopReason: "error" }), "failed");
    const entries = chain(m(userMsg(sized(100))), m(assistantMsg(sized(100))), m(userMsg(sized(100))), failed, label("e3"));
    expect(findCutPoint(entries, 0, entries.length, 50, new Set(["failed"]))).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 2, isSplitTurn: true });
    // Without the omission, the same branch is cut at the last user message.
    expect(findCutPoint(entries, 0, entries.length, 50)).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: -1, isSplitTurn: false });
    // Never when the budget is not reached: everything is kept.
    expect(findCutPoint(entries, 0, entries.length, 10_000, new Set(["failed"])).firstKeptEntryIndex).toBe(0);
  });

  test("a cut at an assistant with no turn start in range is not split", () => {
    const entries = chain(m(assistantMsg(sized(100))), m(assistantMsg(sized(100))));
    expect(findCutPoint(entries, 0, entries.length, 50)).toEqual({ firstKeptEntryIndex: 1, turnStartIndex: -1, isSplitTurn: false });
  });
});
