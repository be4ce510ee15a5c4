import { describe, expect, test } from "bun:test";
import { replayBranch, type ReplaySource } from "../../src/modes/interactive/replay.ts";
import { ToolBlocks } from "../../src/modes/interactive/render/tool-blocks.ts";
import type { TranscriptStyle } from "../../src/modes/interactive/render/transcript.ts";
import { loadTheme } from "../../src/modes/interactive/theme.ts";
import type { SessionEntry } from "../../src/session/format.ts";
import type { EntryRecord } from "../../src/session/records.ts";

const style: TranscriptStyle = { theme: loadTheme("dark", [], false).theme, width: 60, showThinking: true, codeBlockIndent: "  ", hyperlinks: false };

/** A branch of entries, read through the same two calls a session store answers. */
function source(entries: Record<string, unknown>[]): ReplaySource & { reads: number } {
  const byId = new Map(entries.map((e) => [e.id as string, e]));
  const records = entries.map(
    (e, i) => ({ line: i + 2, type: e.type, id: e.id, parentId: e.parentId, timestamp: "", role: (e.message as { role?: string } | undefined)?.role }) as unknown as EntryRecord,
  );
  const s = {
    reads: 0,
    branchRecords: () => records,
    readEntry: (r: EntryRecord) => {
      s.reads++;
      return byId.get(r.id) as unknown as SessionEntry;
    },
  };
  return s;
}

let n = 0;
const message = (message: object) => ({ type: "message", id: `e${++n}`, parentId: null, timestamp: "", message });
const user = (text: string) => message({ role: "user", content: text, timestamp: 1 });
const answer = (content: object[]) => message({ role: "assistant", content, api: "x", provider: "p", model: "m", usage: {}, stopReason: "stop", timestamp: 1 });
const result = (id: string, text: string) => message({ role: "toolResult", toolCallId: id, toolName: "bash", content: [{ type: "text", text }], isError: false, timestamp: 1 });

describe("replayBranch", () => {
  test("prints the branch as it looked: messages, calls with their results, numbered blocks", () => {
    const branch = [
      { type: "model_change", id: "m0", parentId: null, timestamp: "", provider: "p", modelId: "m" },
      user("hi"),
      answer([{ type: "text", text: "Looking." }, { type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } }]),
      result("c1", "a.ts\nb.ts"),
      answer([{ type: "text", text: "Two files." }]),
    ];
    const blocks = new ToolBlocks();
    const replay = replayBranch(source(branch), style, 100, blocks);
    expect(replay.rows).toEqual(["› hi", "Looking.", "● bash  ls", "  │ a.ts", "  │ b.ts", "Two files."]);
    expect(replay).toMatchObject({ hiddenMessages: 0, shownMessages: 4 });
    expect(blocks.get(1)?.args).toEqual({ command: "ls" });
  });

  test("a long branch: only the last rows, whole entries, and how many messages are above; earlier lines are not read", () => {
    const branch = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? user(`q${i}`) : answer([{ type: "text", text: `a${i}` }])));
    const src = source(branch);
    const replay = replayBranch(src, style, 10, new ToolBlocks());
    expect(replay.rows).toEqual(["› q490", "a491", "› q492", "a493", "› q494", "a495", "› q496", "a497", "› q498", "a499"]);
    expect(replay).toMatchObject({ hiddenMessages: 490, shownMessages: 10 });
    expect(src.reads).toBeLessThan(20);
  });

  test("a result at the top of the budget still has its call, found in the answer above", () => {
    const branch = [user("go"), answer([{ type: "toolCall", id: "c9", name: "bash", arguments: { command: "make" } }]), result("c9", "built")];
    const replay = replayBranch(source(branch), style, 2, new ToolBlocks());
    expect(replay.rows).toEqual(["● bash  make", "  │ built"]);
  });

  test("tool blocks are numbered by their place in the branch, whatever part a replay shows (an Alt+O, a smaller budget)", () => {
    const branch = [
      user("go"),
      answer([{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "first" } }]),
      result("c1", "one"),
      answer([{ type: "toolCall", id: "c2", name: "bash", arguments: { command: "second" } }]),
      result("c2", "two"),
      answer([{ type: "text", text: "Done." }]),
    ];
    const whole = new ToolBlocks();
    replayBranch(source(branch), style, 100, whole);
    expect([whole.get(1)?.args, whole.get(2)?.args]).toEqual([{ command: "first" }, { command: "second" }]);
    // Only the second call fits: it keeps its number 2, and the first is counted, not shown.
    const blocks = Object.assign(new ToolBlocks(), { expandedAll: true });
    const replay = replayBranch(source(branch), style, 3, blocks);
    expect(replay.rows).toEqual(["● bash  second", "  │ two", "Done."]);
    expect(blocks.count).toBe(2);
    expect(blocks.get(1)).toBeUndefined();
    expect(blocks.get(2)?.args).toEqual({ command: "second" });
    // Nothing shown at all (replayScreens 0): the results are still counted.
    const none = new ToolBlocks();
    replayBranch(source(branch), style, 0, none);
    expect(none.count).toBe(2);
  });

  test("a result taller than the room left is cut under its call line, which says how much and names the block", () => {
    const rows = Array.from({ length: 30 }, (_, i) => `row ${i + 1}`).join("\n");
    const branch = [user("go"), answer([{ type: "toolCall", id: "c7", name: "bash", arguments: { command: "seq" } }]), result("c7", rows), answer([{ type: "text", text: "Done." }])];
    const replay = replayBranch(source(branch), style, 10, Object.assign(new ToolBlocks(), { expandedAll: true }));
    expect(replay.rows).toEqual(["● bash  seq", "  … 23 earlier rows · /expand 1", ...Array.from({ length: 7 }, (_, i) => `  │ row ${i + 24}`), "Done."]);
  });

  test("a long answer at the top is cut from its start, saying so", () => {
    const text = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n");
    const replay = replayBranch(source([user("go"), answer([{ type: "text", text }])]), style, 5, new ToolBlocks());
    expect(replay.rows).toEqual(["  … 8 earlier rows", "line 9", "line 10", "line 11", "line 12"]);
  });

  test("whatever the budget, the rows are the end of the whole branch as printed, each entry read once", () => {
    const content = Array.from({ length: 8 }, (_, i) => `written ${i}`).join("\n");
    const branch = [
      { type: "model_change", id: "m0", parentId: null, timestamp: "", provider: "p", modelId: "m" },
      user("start"),
      answer([{ type: "text", text: "Writing." }, { type: "toolCall", id: "w1", name: "write", arguments: { path: "a.txt", content } }]),
      message({ role: "toolResult", toolCallId: "w1", toolName: "write", content: [{ type: "text", text: "Wrote a.txt" }], isError: false, timestamp: 1 }),
      { type: "model_change", id: "m1", parentId: null, timestamp: "", provider: "p", modelId: "other" },
      answer([{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "seq 20" } }, { type: "toolCall", id: "c2", name: "bash", arguments: { command: "ls" } }]),
      result("c1", Array.from({ length: 20 }, (_, i) => `${i + 1}`).join("\n")),
      result("c2", "a.txt"),
      user("and?"),
      answer([{ type: "text", text: "Line one.\n\nLine two." }]),
      { type: "thinking_level_change", id: "t9", parentId: null, timestamp: "", thinkingLevel: "high" },
    ];
    const whole = replayBranch(source(branch), style, 1000, new ToolBlocks()).rows;
    expect(whole).toContain("Model: p/other");
    for (let budget = 3; budget <= whole.length; budget++) {
      const src = source(branch);
      const replay = replayBranch(src, style, budget, new ToolBlocks());
      // The room is filled (a cut block keeps its call line, which can take a row more); above the
      // last rows may be a call line and the line saying what was cut.
      expect(replay.rows.length).toBeGreaterThanOrEqual(budget);
      expect(replay.rows.slice(-(budget - 2))).toEqual(whole.slice(whole.length - budget + 2));
      expect(src.reads).toBeLessThanOrEqual(branch.length);
    }
  });

  test("a budget of 0 prints nothing and counts every message", () => {
    const replay = replayBranch(source([user("a"), answer([{ type: "text", text: "b" }])]), style, 0, new ToolBlocks());
    expect(replay).toEqual({ rows: [], hiddenMessages: 2, shownMessages: 0 });
  });
});
