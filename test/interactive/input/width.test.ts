import { describe, expect, test } from "bun:test";
import { advanceColumn, advanceCursor, graphemeWidth, graphemes, stringWidth, truncateToWidth } from "../../../src/util/width.ts";

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
