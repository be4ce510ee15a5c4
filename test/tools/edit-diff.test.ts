import { describe, expect, test } from "bun:test";
import { generateDiffString } from "../../src/tools/edit-diff.ts";

function lines(count: number, change: Record<number, string> = {}): string {
  return Array.from({ length: count }, (_, i) => change[i + 1] ?? `l${i + 1}`).join("\n") + "\n";
}

describe("generateDiffString", () => {
  test("shows four context lines around a change and gaps beyond them", () => {
    const { diff, firstChangedLine } = generateDiffString(lines(20), lines(20, { 10: "TEN" }));
    expect(diff).toBe(
      [
        "    ...",
        "  6 l6",
        "  7 l7",
        "  8 l8",
        "  9 l9",
        "-10 l10",
        "+10 TEN",
        " 11 l11",
        " 12 l12",
        " 13 l13",
        " 14 l14",
        "    ...",
      ].join("\n"),
    );
    expect(firstChangedLine).toBe(10);
  });

  test("shows short stretches between two changes in full", () => {
    const { diff } = generateDiffString(lines(6), lines(6, { 1: "ONE", 6: "SIX" }));
    expect(diff).toBe(["-1 l1", "+1 ONE", " 2 l2", " 3 l3", " 4 l4", " 5 l5", "-6 l6", "+6 SIX"].join("\n"));
  });

  test("collapses long stretches between two changes to four lines each side", () => {
    const { diff } = generateDiffString(lines(12), lines(12, { 1: "ONE", 12: "TWELVE" }));
    expect(diff).toBe(
      ["- 1 l1", "+ 1 ONE", "  2 l2", "  3 l3", "  4 l4", "  5 l5", "    ...", "  8 l8", "  9 l9", " 10 l10", " 11 l11", "-12 l12", "+12 TWELVE"].join(
        "\n",
      ),
    );
  });

  test("numbers added lines in the new file and removed lines in the old one", () => {
    const { diff, firstChangedLine } = generateDiffString("a\nb\nc\n", "a\nx\ny\nb\n");
    expect(diff).toBe([" 1 a", "+2 x", "+3 y", " 2 b", "-3 c"].join("\n"));
    expect(firstChangedLine).toBe(2);
  });

  test("treats a missing final newline as a change of the last line", () => {
    expect(generateDiffString("a\nb", "a\nb\nc").diff).toBe([" 1 a", "-2 b", "+2 b", "+3 c"].join("\n"));
  });

  test("handles large rewrites without blowing up", () => {
    const before = Array.from({ length: 5000 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 5000 }, (_, i) => `new ${i}`).join("\n");
    const { diff, firstChangedLine } = generateDiffString(before, after);
    expect(firstChangedLine).toBe(1);
    expect(diff.split("\n")).toHaveLength(10000);
  });
});
