import { describe, expect, test } from "bun:test";
import { advanceColumn, advanceCursor, graphemeWidth, graphemes, graphemesWithOffsets, ONE_UNIT_GRAPHEMES, stringWidth, truncateToWidth } from "../../../src/util/width.ts";
import { seeded } from "../../faults/figures.ts";

describe("string width", () => {
  test("ASCII, CJK and emoji", () => {
    expect(stringWidth("abc")).toBe(3);
    expect(stringWidth("中文")).toBe(4);
    expect(stringWidth("👍")).toBe(2);
    expect(stringWidth("👍🏽")).toBe(2);
    expect(stringWidth("👨‍👩‍👧")).toBe(2);
  });

  test("combining marks take no column of their own", () => {
    expect(stringWidth("e\u0301")).toBe(1);
  });

  test("escape sequences take no columns", () => {
    expect(stringWidth("\x1b[31mred\x1b[0m \x1b]8;;https://x\x07link\x1b]8;;\x07")).toBe(8);
  });
});

describe("graphemes", () => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const bySegmenter = (text: string) => [...segmenter.segment(text)].map((s) => ({ text: s.segment, index: s.index }));

  // Every character the fast path takes (the class's ranges, read from the pattern).
  const units = [...ONE_UNIT_GRAPHEMES.source.matchAll(/\\(?:x|u)([0-9a-f]+)-\\u([0-9a-f]+)/g)].flatMap(([, from, to]) =>
    Array.from({ length: Number.parseInt(to!, 16) - Number.parseInt(from!, 16) + 1 }, (_, k) => String.fromCharCode(Number.parseInt(from!, 16) + k)),
  );

  test("text of the blocks taken a unit at a time, CR LF and controls among it, is taken apart as the Segmenter takes it", () => {
    expect(units.length).toBe(0x300 + (0x483 - 0x370) + (0x530 - 0x48a) + (0x2028 - 0x2010) + (0x205f - 0x2030) + (0x2400 - 0x2190) + (0x27c0 - 0x2500));
    const random = seeded(0x300);
    const pick = () => (random() < 0.1 ? "\r\n" : units[Math.floor(random() * units.length)]!);
    let compared = 0;
    for (let n = 0; n < 3_000; n++) {
      const text = Array.from({ length: Math.floor(random() * 40) }, pick).join("");
      const expected = bySegmenter(text);
      expect(graphemesWithOffsets(text)).toEqual(expected);
      expect(graphemes(text)).toEqual(expected.map((g) => g.text));
      compared++;
    }
    // Every character of them on its own, and each between two others.
    for (const [i, unit] of units.entries()) {
      for (const text of [unit, `a${unit}b`, `${units[(i * 7919) % units.length]}${unit}${units[(i * 104_729) % units.length]}`]) expect(graphemes(text)).toEqual(bySegmenter(text).map((g) => g.text));
    }
    expect(compared).toBe(3_000);
  });

  test("beyond it the Segmenter decides: combining marks, emoji sequences, CR LF beside them", () => {
    expect(graphemes("Ünïcödé │ π ≈ → — ✓")).toEqual([..."Ünïcödé │ π ≈ → — ✓"]);
    expect(graphemes("\u0483a\u0301")).toEqual(["\u0483a\u0301"].flatMap((t) => bySegmenter(t).map((g) => g.text)));
    expect(graphemes("e\u0301a")).toEqual(["e\u0301", "a"]);
    expect(graphemes("a\r\n👍🏽")).toEqual(["a", "\r\n", "👍🏽"]);
    expect(graphemesWithOffsets("x👨‍👩‍👧y")).toEqual([{ text: "x", index: 0 }, { text: "👨‍👩‍👧", index: 1 }, { text: "y", index: 9 }]);
  });
});

describe("truncation", () => {
  test("short text is unchanged", () => {
    expect(truncateToWidth("hello", 5)).toBe("hello");
  });

  test("long text is cut with an ellipsis, never splitting a wide character", () => {
    expect(truncateToWidth("hello world", 6)).toBe("hello…");
    expect(truncateToWidth("中文中文", 6)).toBe("中文…");
  });

  test("colours are kept and reset after the cut", () => {
    expect(truncateToWidth("\x1b[31mhello world\x1b[0m", 6)).toBe("\x1b[31mhello\x1b[0m…");
  });
});

describe("terminal cursor column", () => {
  test("text advances the column; a newline returns it to zero", () => {
    expect(advanceColumn(0, "abc", 10)).toBe(3);
    expect(advanceColumn(3, "de\nfg", 10)).toBe(2);
  });

  test("filling the last column leaves the cursor pending at the width", () => {
    expect(advanceColumn(0, "abcdefghij", 10)).toBe(10);
    expect(advanceColumn(0, "abcdefghijk", 10)).toBe(1);
  });

  test("a wide character that does not fit wraps whole", () => {
    expect(advanceColumn(9, "中", 10)).toBe(2);
    expect(advanceColumn(8, "中", 10)).toBe(10);
  });

  test("tabs stop every eight columns and colours take no room", () => {
    expect(advanceColumn(3, "\t", 80)).toBe(8);
    expect(advanceColumn(0, "\x1b[1mab\x1b[0m", 80)).toBe(2);
  });
});

describe("ASCII measured without segmenting", () => {
  // The grapheme-by-grapheme measure the ASCII shortcut must agree with.
  const bySegments = (text: string) => graphemes(text).reduce((sum, g) => sum + graphemeWidth(g), 0);

  test("an ASCII text's width is the one its graphemes add up to, controls counting nothing", () => {
    for (const text of ["", "plain words", "a\tb", "bell\x07 and del\x7f", "code(x) { return [1, 2]; }"]) expect(stringWidth(text)).toBe(bySegments(text));
  });

  test("the cursor moves through ASCII (CRLF, tabs, backspace, controls) as through the same text after a wide character", () => {
    const texts = ["abc\r\ndef", "tab\tstop\bx", "0123456789abc", "a\x01b\rcd\n\ne"];
    for (const text of texts) {
      // "中" first forces the grapheme path; it takes two columns, which the expected value starts from.
      const wide = advanceCursor({ row: 0, column: 0 }, `中${text}`, 10);
      expect(advanceCursor({ row: 0, column: 2 }, text, 10)).toEqual(wide);
    }
  });
});
