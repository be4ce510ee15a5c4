import { describe, expect, test } from "bun:test";
import { applyEdits } from "../../src/tools/edit-apply.ts";
import { fuzzyNormalize, FuzzyText } from "../../src/tools/edit-fuzzy.ts";
import { closestMatchHint } from "../../src/tools/edit-hint.ts";

describe("fuzzy normalisation", () => {
  test("folds typographic quotes, dashes, odd spaces and trailing whitespace", () => {
    expect(fuzzyNormalize("\u201Cq\u201D \u2018s\u2019 a\u2013b\u2212c x\u00A0y  \nnext\t")).toBe("\"q\" 's' a-b-c x y\nnext");
  });

  test("maps matches in the normalised text back to the original", () => {
    const original = "a\u00A0b  \n\uFB01x\u201C\nlast";
    const fuzzy = new FuzzyText(original);
    expect(fuzzy.text).toBe('a b\nfix"\nlast');
    // "b\nfi": from "b" through the ligature, trailing spaces included.
    expect(fuzzy.originalRange(2, 4)).toEqual({ index: 2, length: 5 });
    // The "i" alone is half of the ligature: not mappable.
    expect(fuzzy.originalRange(5, 1)).toBeUndefined();
    // The closing quote and the line break after it.
    expect(fuzzy.originalRange(7, 2)).toEqual({ index: 8, length: 2 });
  });
});

describe("applyEdits", () => {
  test("falls back to normalising the whole file when a match splits a ligature", () => {
    const { base, result } = applyEdits("\uFB01ne  \nrest\n", [{ oldText: "ine", newText: "INE" }], "f");
    expect(base).toBe("fine\nrest\n");
    expect(result).toBe("fINE\nrest\n");
  });

  test("counts occurrences in the normalised text", () => {
    expect(() => applyEdits("it's and it\u2019s", [{ oldText: "it's", newText: "x" }], "f")).toThrow("Found 2 occurrences");
  });
});

describe("closestMatchHint", () => {
  test("finds a one-line needle inside a longer line", () => {
    const hint = closestMatchHint("const a = 1;\nconst total = compute(items, 2);\n", "total = compute(item, 2)");
    expect(hint).toBe("\nClosest match (lines 2-2):\nconst total = compute(items, 2);");
  });

  test("shows at most 40 lines of a long region", () => {
    const file = Array.from({ length: 100 }, (_, i) => `row number ${i}`).join("\n");
    const needle = Array.from({ length: 50 }, (_, i) => `row numbr ${i + 10}`).join("\n");
    const hint = closestMatchHint(file, needle);
    expect(hint.startsWith("\nClosest match (lines 11-60):\nrow number 10\n")).toBe(true);
    expect(hint.endsWith("row number 49\n... (10 more lines)")).toBe(true);
  });

  test("stays quiet when nothing is alike", () => {
    expect(closestMatchHint("alpha\nbeta\n", "zzzz qqqq")).toBe("");
  });
});
