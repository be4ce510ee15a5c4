import { describe, expect, test } from "bun:test";
import { SessionStore } from "../../src/session/store.ts";
import { loadTheme } from "../../src/modes/interactive/theme.ts";
import { TreeBrowser } from "../../src/modes/interactive/tree/tree-browser.ts";
import { applyKey } from "../../src/modes/interactive/tree/tree-picker.ts";
import { layoutTree, readSessionTree, type TreeRow } from "../../src/modes/interactive/tree/tree-rows.ts";
import { drawTree } from "../../src/modes/interactive/tree/tree-screen.ts";
import { fitParts, wrapParts } from "../../src/modes/interactive/tree/fit.ts";
import { stringWidth, stripAnsi } from "../../src/util/width.ts";
import { writeBranchedSession } from "../helpers/branched-session.ts";
import { assistant, HEADER, msg, user, writeSession } from "../helpers/sessions.ts";
import { tempDir } from "../helpers/tmp.ts";

const branched = () => readSessionTree(SessionStore.open(writeBranchedSession(tempDir())));
const drawn = (rows: readonly TreeRow[]) => rows.map((r) => `${r.prefix}${r.label ? `[${r.label}] ` : ""}${r.text}`);
const theme = loadTheme("dark", [], false).theme;

describe("the tree's rows", () => {
  test("the default view: branches drawn with connectors, tool calls summarised, internal entries folded", () => {
    expect(drawn(layoutTree(branched(), "default").rows)).toEqual([
      "model → fake/fake-model · thinking → off",
      "├─ what does this repository do?",
      "│  It is a tiny range library with one function.",
      "└─ [start] fix the off-by-one in src/range.ts",
      "   [read: src/range.ts]",
      "   [bash: npm test]",
      "   The loop stopped one short of the end; fixed the bound.",
      "   ├─ now add a test for the empty range",
      "   │  a failed attempt, retried",
      "   │  [tests-added] Added test/range.test.ts for the empty range.",
      "   └─ explain the fix instead",
      "      model → fake/fake-reasoner",
      "      The bound was exclusive where it had to be inclusive.",
    ]);
    const rows = layoutTree(branched(), "default").rows;
    expect(rows.find((r) => r.text === "[bash: npm test]")!.failed).toBe(true);
    expect(rows.filter((r) => r.kind === "fold").map((r) => r.id)).toEqual(["tl1", "a4", "mc2"]);
    expect(rows.filter((r) => r.onActivePath).map((r) => r.id)).toEqual(["tl1", "u1", "r1", "r2", "a3", "u3", "mc2", "a6"]);
  });

  test("user messages only: the branches between them stay drawn", () => {
    expect(drawn(layoutTree(branched(), "user").rows)).toEqual([
      "├─ what does this repository do?",
      "└─ [start] fix the off-by-one in src/range.ts",
      "   ├─ now add a test for the empty range",
      "   └─ explain the fix instead",
    ]);
  });

  test("labelled entries only", () => {
    expect(drawn(layoutTree(branched(), "labelled").rows)).toEqual(["[start] fix the off-by-one in src/range.ts", "[tests-added] Added test/range.test.ts for the empty range."]);
  });

  test("all entries: nothing folded, an answer of tool calls only shows its calls", () => {
    const rows = drawn(layoutTree(branched(), "all").rows);
    expect(rows.slice(0, 2)).toEqual(["model → fake/fake-model", "thinking → off"]);
    expect(rows).toContain("   [read: src/range.ts]");
    expect(rows.filter((r) => r.includes("[read: src/range.ts]"))).toHaveLength(2);
    expect(rows).toContain("   │  503 overloaded");
    expect(rows).toHaveLength(16);
  });

  test("no tool results: the default view without them", () => {
    const rows = drawn(layoutTree(branched(), "no-tools").rows);
    expect(rows.some((r) => r.includes("[read:") || r.includes("[bash:"))).toBe(false);
    expect(rows).toHaveLength(11);
  });

  test("a search keeps the rows that match every word (or their label), hanging from the nearest match above", () => {
    expect(drawn(layoutTree(branched(), "default", "range the").rows)).toEqual([
      "[start] fix the off-by-one in src/range.ts",
      "now add a test for the empty range",
      "[tests-added] Added test/range.test.ts for the empty range.",
    ]);
    expect(drawn(layoutTree(branched(), "default", "fix").rows)).toEqual([
      "[start] fix the off-by-one in src/range.ts",
      "The loop stopped one short of the end; fixed the bound.",
      "explain the fix instead",
    ]);
  });

  test("every kind of entry has its line: shell commands, summaries, aborted answers, other tools", () => {
    const entry = (type: string, id: string, parentId: string, fields: object) => ({ type, id, parentId, timestamp: "2026-11-30T08:00:00.000Z", ...fields });
    const lines: object[] = [
      HEADER,
      msg("u1", null, user("go")),
      msg("s1", "u1", { role: "bashExecution", command: "ls -la", output: "", exitCode: 2, timestamp: 1 }),
      msg("a1", "s1", { ...assistant(""), content: [{ type: "toolCall", id: "c1", name: "deploy", arguments: { target: "prod" } }], stopReason: "toolUse" }),
      msg("r1", "a1", { role: "toolResult", toolCallId: "c1", toolName: "deploy", content: [{ type: "text", text: "done" }], isError: false, timestamp: 1 }),
      msg("a2", "r1", { ...assistant(""), content: [], stopReason: "aborted" }),
      entry("branch_summary", "b1", "a2", { fromId: "a2", summary: "tried the other way\nsecond line" }),
    ];
    const rows = layoutTree(readSessionTree(SessionStore.open(writeSession(lines))), "all").rows;
    expect(rows.map((r) => [r.kind, r.text, r.failed])).toEqual([
      ["user", "go", false],
      ["shell", "! ls -la", true],
      ["assistant", '[deploy: {"target":"prod"}]', false],
      ["tool", '[deploy: {"target":"prod"}]', false],
      ["assistant", "(aborted)", false],
      ["summary", "branch summary  tried the other way", false],
    ]);
  });

  test("a chain of thousands of entries is laid out without recursion", () => {
    const lines: object[] = [HEADER];
    let parent: string | null = null;
    for (let i = 0; i < 3000; i++) {
      lines.push(msg(`u${i}`, parent, user(`q${i}`)), msg(`a${i}`, `u${i}`, assistant(`a${i}`)));
      parent = `a${i}`;
    }
    const model = readSessionTree(SessionStore.open(writeSession(lines)));
    const rows = layoutTree(model, "default").rows;
    expect(rows).toHaveLength(6_000);
    expect(rows.every((r) => r.prefix === "")).toBe(true);
  });
});

describe("moving in the tree", () => {
  test("it opens where you are; up and down wrap around", () => {
    const browser = new TreeBrowser(branched());
    expect(browser.chosen).toBe("a6");
    browser.move(1);
    expect(browser.selected).toBe(0);
    browser.move(-1);
    expect(browser.chosen).toBe("a6");
  });

  test("branch jumps go from one branch's first row to the next, and back", () => {
    const browser = new TreeBrowser(branched());
    browser.page(-Infinity);
    const starts: string[] = [];
    for (let i = 0; i < 4; i++) {
      browser.jumpBranch(1);
      starts.push(browser.rows[browser.selected]!.text);
    }
    expect(starts).toEqual(["what does this repository do?", "fix the off-by-one in src/range.ts", "now add a test for the empty range", "explain the fix instead"]);
    browser.jumpBranch(-1);
    expect(browser.chosen).toBe("u2");
  });

  test("a filter keeps the entry selected, or the nearest one above it that shows", () => {
    const browser = new TreeBrowser(branched());
    browser.cycleFilter(1);
    expect(browser.filter).toBe("no-tools");
    browser.cycleFilter(1);
    expect(browser.filter).toBe("user");
    expect(browser.chosen).toBe("u3");
    browser.toggleFilter("user");
    expect(browser.filter).toBe("default");
    expect(browser.chosen).toBe("u3");
  });

  test("keys: arrows, Ctrl+arrows for branches, Ctrl+O and Ctrl+U for filters, typing searches", () => {
    const browser = new TreeBrowser(branched());
    const press = (name: string, extra: { ctrl?: boolean; meta?: boolean; char?: string } = {}) =>
      applyKey(browser, extra.char, { name, ctrl: extra.ctrl ?? false, meta: extra.meta ?? false, shift: false, sequence: extra.char ?? "" }, 5);
    press("left", { ctrl: true });
    expect(browser.chosen).toBe("u3");
    press("o", { ctrl: true });
    expect(browser.filter).toBe("no-tools");
    press("u", { ctrl: true });
    expect(browser.filter).toBe("user");
    press("u", { ctrl: true });
    expect(browser.filter).toBe("default");
    press("r", { char: "r" });
    press("e", { char: "e" });
    expect(browser.search).toBe("re");
    press("backspace");
    expect(browser.search).toBe("r");
    expect(press("x", { char: "\x1b" })).toBe("ignored");
    expect(browser.search).toBe("r");
    // Escape clears a search first; then it cancels. Enter chooses the selected row.
    expect(press("escape")).toBe("handled");
    expect(browser.search).toBe("");
    expect(press("escape")).toBe("cancel");
    expect(press("c", { ctrl: true })).toBe("cancel");
    expect(press("return")).toBe("choose");
  });

  test("Shift+L writes the selected entry's label: typing goes to it, Enter keeps it, Escape gives it up", () => {
    const browser = new TreeBrowser(branched());
    const press = (name: string, extra: { shift?: boolean; char?: string } = {}) =>
      applyKey(browser, extra.char, { name, ctrl: false, meta: false, shift: extra.shift ?? false, sequence: extra.char ?? "" }, 5);
    browser.jumpBranch(-1);
    browser.jumpBranch(-1);
    expect(press("l", { shift: true, char: "L" })).toBe("handled");
    expect(browser.labelDraft).toEqual({ id: "u2", text: "" });
    for (const char of "tests") press(char, { char });
    expect(browser.search).toBe("");
    expect(press("return")).toBe("label");
    expect(browser.finishLabel()).toEqual({ id: "u2", label: "tests" });
    expect(browser.rows[browser.selected]).toMatchObject({ id: "u2", label: "tests" });
    // Started again from the label it has; emptied, it removes it; Escape leaves it as it was.
    press("l", { shift: true, char: "L" });
    expect(browser.labelDraft!.text).toBe("tests");
    press("x", { char: "x" });
    press("escape");
    expect(browser.labelDraft).toBeUndefined();
    expect(browser.rows[browser.selected]!.label).toBe("tests");
    press("l", { shift: true, char: "L" });
    for (let i = 0; i < 5; i++) press("backspace");
    expect(browser.finishLabel()).toEqual({ id: "u2", label: undefined });
    expect(browser.rows[browser.selected]!.label).toBeUndefined();
  });

  test("Enter on a search nothing matches chooses nothing", () => {
    const browser = new TreeBrowser(branched());
    browser.typeSearch("no such words");
    expect(browser.rows).toHaveLength(0);
    expect(applyKey(browser, undefined, { name: "return" }, 5)).toBe("ignored");
  });
});

describe("the tree's frame", () => {
  for (const columns of [100, 40]) {
    test(`every line fits ${columns} columns and the frame takes the screen's height`, () => {
      const browser = new TreeBrowser(branched());
      const frame = drawTree(browser, { columns, rows: 12 }, theme).split("\n");
      expect(frame).toHaveLength(12);
      const tall = drawTree(browser, { columns, rows: 40 }, theme).split("\n");
      expect(tall).toHaveLength(40);
      for (const line of frame) expect(stringWidth(stripAnsi(line))).toBeLessThanOrEqual(columns);
      expect(frame.join("\n")).toContain("← here");
      expect(frame.at(-1)).toMatch(/↑ \d+ more/);
    });
  }

  test("text from the session is shown, never obeyed", () => {
    const lines: object[] = [HEADER, msg("u1", null, user("hello \x1b[2J\x1b]0;title\x07 world"))];
    const browser = new TreeBrowser(readSessionTree(SessionStore.open(writeSession(lines))));
    const frame = drawTree(browser, { columns: 100, rows: 12 }, theme);
    expect(frame).not.toContain("\x1b[2J");
    expect(frame).toContain("␛[2J");
  });

  test("a long line is cut at a word boundary with an ellipsis", () => {
    expect(fitParts([{ text: "the quick brown fox jumps" }], 14)).toBe("the quick…");
    expect(fitParts([{ text: "abcdefghijklmnop" }], 6)).toBe("abcde…");
    expect(fitParts([{ text: "fits" }], 4)).toBe("fits");
  });

  test("wrapped text breaks at words, each part keeps its colour, and the last row allowed ends in an ellipsis", () => {
    const parts = [{ text: "[label] ", style: (t: string) => `<${t}>` }, { text: "the quick brown fox jumps over" }];
    expect(wrapParts(parts, 12, 5)).toEqual(["<[label] >the", "quick brown", "fox jumps", "over"]);
    expect(wrapParts(parts, 12, 2)).toEqual(["<[label] >the", "quick brown…"]);
    expect(wrapParts([{ text: "漢字漢字" }], 1, 8)).toEqual(["漢", "字", "漢", "字"]);
  });

  test("the selected entry wraps onto a few lines at a narrow width; where you are is said after it", () => {
    const browser = new TreeBrowser(branched());
    const frame = stripAnsi(drawTree(browser, { columns: 40, rows: 30 }, theme)).split("\n");
    const at = frame.findIndex((line) => line.startsWith("│  ›"));
    expect(frame.slice(at, at + 3)).toEqual(["│  ›       • assistant: The bound was", "│            exclusive where it had to", "│            be inclusive. ← here"]);
  });
});
