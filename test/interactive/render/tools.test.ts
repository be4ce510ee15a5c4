import { describe, expect, test } from "bun:test";
import { countChanges, hunkPreview } from "../../../src/modes/interactive/render/diff-view.ts";
import { elapsedText, formatToolResult, liveOutputRows, type ToolBlock } from "../../../src/modes/interactive/render/tools.ts";
import { loadTheme } from "../../../src/modes/interactive/theme.ts";

const t = loadTheme("dark", [], false).theme;
const lines = (n: number, word = "line") => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join("\n");
const block = (name: string, text: string, extra: Partial<ToolBlock> = {}): ToolBlock => ({ name, args: {}, result: { content: [{ type: "text", text }] }, isError: false, ...extra });
const format = (b: ToolBlock, expanded = false, width = 80) => formatToolResult(b, t, { expanded, width, number: 4 });

describe("tool result blocks", () => {
  test("bash keeps its last lines and says how many are above", () => {
    const rows = format(block("bash", lines(20)));
    expect(rows[0]).toBe("  … 12 earlier lines · /expand 4");
    expect(rows.slice(1)).toEqual(Array.from({ length: 8 }, (_, i) => `  │ line ${i + 13}`));
  });

  test("read keeps its first lines; expanded, everything and no hint", () => {
    const rows = format(block("read", lines(20)));
    expect(rows.at(-1)).toBe("  … 12 more lines · /expand 4");
    expect(rows[0]).toBe("  │ line 1");
    expect(format(block("read", lines(20)), true)).toHaveLength(20);
  });

  test("a failure is marked and says what failed", () => {
    expect(format(block("read", "ENOENT: no such file", { isError: true }))).toEqual(["  ✗ read failed", "  │ ENOENT: no such file"]);
  });

  test("a new file shows what was written, a replaced one its diff", () => {
    const created = format(block("write", "Successfully wrote to a.txt", { args: { content: "one\ntwo\n" } }));
    expect(created).toEqual(["  │ Successfully wrote to a.txt", "  │ one", "  │ two"]);
    const replaced = format(block("write", "ok", { replacedDiff: " 1 one\n-2 two\n+2 TWO" }));
    expect(replaced).toEqual(["  │ +1 −1", "  │  1 one", "  │ -2 two", "  │ +2 TWO"]);
    expect(format(block("write", "ok", { replacedDiff: "" }))).toEqual(["  │ (the content did not change)"]);
  });

  test("a collapsed block shows the same rows as the end of the whole block, control characters made visible in both", () => {
    const output = `${lines(40, "a\x1b[2Jb")}\nprogress 10%\rprogress 100%\n[Showing lines 1-41 of 900. Full output: /tmp/x]`;
    const collapsed = format(block("bash", output));
    const whole = format(block("bash", output), true);
    expect(collapsed[0]).toBe("  … 33 earlier lines · /expand 4");
    expect(collapsed.slice(1)).toEqual(whole.slice(-9));
    expect(collapsed.at(-2)).toBe("  │ progress 100%");
    expect(collapsed.at(-1)).toBe("  │ [Showing lines 1-41 of 900. Full output: /tmp/x]");
    expect(collapsed.join("\n")).not.toContain("\x1b[2J");
  });

  test("long lines wrap under the gutter, keeping their indent", () => {
    const rows = format(block("read", `    ${"word ".repeat(12).trim()}`), false, 30);
    expect(rows).toEqual(["  │     word word word word", "  │     word word word word", "  │     word word word word"]);
  });

  test("the live region shows the last rows of a running command", () => {
    expect(liveOutputRows(lines(10), t, 40, 3)).toEqual(["  … 7 earlier lines", "  ┊ line 8", "  ┊ line 9", "  ┊ line 10"]);
  });
});

describe("diff hunks", () => {
  const diff = [" 1 a", " 2 b", " 3 c", "-4 d", "+4 D", " 5 e", " 6 f", "   ...", " 9 i", "-10 j", " 11 k"];
  test("one line of context around each change; the rest folds into ⋯", () => {
    expect(hunkPreview(diff, 20)).toEqual({ lines: [" 3 c", "-4 d", "+4 D", " 5 e", "⋯", " 9 i", "-10 j", " 11 k"], hiddenChanges: 0 });
    expect(countChanges(diff)).toEqual({ added: 1, removed: 2 });
  });

  test("a preview cut short counts the changed lines it leaves out", () => {
    expect(hunkPreview(diff, 3)).toEqual({ lines: [" 3 c", "-4 d", "+4 D"], hiddenChanges: 1 });
  });
});

describe("how long a call took", () => {
  test("as precise as is worth reading", () => {
    expect([12, 999, 1000, 1480, 9999, 10_400, 59_999, 60_000, 125_000].map(elapsedText)).toEqual(["12ms", "999ms", "1.0s", "1.4s", "9.9s", "10s", "59s", "1m 00s", "2m 05s"]);
  });
});
