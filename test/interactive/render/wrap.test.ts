import { describe, expect, test } from "bun:test";
import { stringWidth } from "../../../src/util/width.ts";
import { hyperlink, supportsHyperlinks, wrapLine } from "../../../src/modes/interactive/render/wrap.ts";

describe("wrapLine", () => {
  test("breaks at spaces, never inside a word that fits a row", () => {
    expect(wrapLine("the quick brown fox jumps", 10)).toEqual(["the quick", "brown fox", "jumps"]);
  });

  test("the first row gets its prefix, the others hang under the text", () => {
    expect(wrapLine("one two three four", 10, { first: "• " })).toEqual(["• one two", "  three", "  four"]);
    expect(wrapLine("one two three four", 10, { first: "│ ", rest: "│ " })).toEqual(["│ one two", "│ three", "│ four"]);
  });

  test("measures columns: wide characters take two, escape codes none", () => {
    const rows = wrapLine("中文字符 中文字符 中文字符", 10);
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(10);
    expect(rows.join(" ")).toBe("中文字符 中文字符 中文字符");
    const styled = wrapLine("\x1b[1mbold words here\x1b[22m", 6);
    expect(styled.map((r) => r.replace(/\x1b\[[0-9;]*m/g, ""))).toEqual(["bold", "words", "here"]);
  });

  test("verbatim text (code, output) breaks anywhere and keeps its spaces", () => {
    expect(wrapLine("    indented code", 10, { verbatim: true })).toEqual(["    indent", "ed code"]);
  });

  test("a hyperlink takes only its text's columns", () => {
    const rows = wrapLine(`see ${hyperlink("the docs", "https://example.com/a/very/long/path")} now`, 12);
    expect(rows.map((r) => r.replace(/\x1b\]8;;[^\x07]*\x07/g, ""))).toEqual(["see the docs", "now"]);
  });
});

describe("supportsHyperlinks", () => {
  test("known terminals yes, CI and dumb terminals no, FORCE_HYPERLINK decides", () => {
    expect(supportsHyperlinks({ TERM_PROGRAM: "iTerm.app" })).toBe(true);
    expect(supportsHyperlinks({ VTE_VERSION: "7200" })).toBe(true);
    expect(supportsHyperlinks({ TERM: "xterm-256color" })).toBe(false);
    expect(supportsHyperlinks({ TERM_PROGRAM: "WezTerm", CI: "1" })).toBe(false);
    expect(supportsHyperlinks({ FORCE_HYPERLINK: "1", TERM: "dumb" })).toBe(true);
    expect(supportsHyperlinks({ FORCE_HYPERLINK: "0", TERM_PROGRAM: "iTerm.app" })).toBe(false);
  });
});
