import { describe, expect, test } from "bun:test";
import { stringWidth } from "../../../src/util/width.ts";
import { hyperlink, supportsHyperlinks, wrapLine, wrapOwnText } from "../../../src/modes/interactive/render/wrap.ts";

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

describe("long words, hanging rows and pig's own text", () => {
  test("a path wider than a row breaks after a slash, each row as full as its parts allow", () => {
    const path = "/tmp/pig-agent-abc/sessions/--tmp-pig-work-abc--/2026-12-06T14-04-34_0123.jsonl";
    const rows = wrapLine(`session ${path}`, 30);
    expect(rows).toEqual(["session /tmp/pig-agent-abc/", "sessions/", "--tmp-pig-work-abc--/", "2026-12-06T14-04-34_0123.jsonl"]);
    // A part wider than the row is broken where the row ends.
    expect(wrapLine("see /a/bcdefghijkl", 8)).toEqual(["see /a/", "bcdefghi", "jkl"]);
    // A URL is left whole, for the terminal to wrap (it is copied and opened whole).
    const url = "https://auth.example.com/oauth/authorize?client_id=abc&redirect_uri=http%3A%2F%2Flocalhost";
    expect(wrapLine(`Open ${url} to sign in`, 30)).toEqual(["Open", url, "to sign in"]);
    // Not inside a hyperlink's target.
    const link = wrapLine(hyperlink("docs", "https://example.com/a/b/c/d/e/f"), 10);
    expect(link.join("")).toContain("https://example.com/a/b/c/d/e/f");
  });

  test("hangAfter indents the rows after the first past the match, keeping the line's colour on each", () => {
    const red = (s: string) => `\x1b[31m${s}\x1b[39m`;
    const rows = wrapLine(red("-12 return items.length - 1; // off by one"), 26, { first: "│ ", rest: "│ ", hangAfter: /^[-+ ] *\d+ / });
    expect(rows.map((r) => r.replace(/\x1b\[[0-9;]*m/g, ""))).toEqual(["│ -12 return items.length", "│     - 1; // off by one"]);
    for (const row of rows.slice(1)) expect(row).toContain("\x1b[31m");
    // Too little room left beside the match: the rows start under the prefix.
    expect(wrapLine("a-very-long-label  value value", 20, { hangAfter: /^\S+ {2,}/ })).toEqual(["a-very-long-label", "value value"]);
  });

  test("pig's own text: table rows hang under their value, other lines under their indent, fitting lines untouched", () => {
    const text = "Ctrl+C                clear the editor; twice quickly to quit\nshort\n  an indented notice that is long";
    expect(wrapOwnText(text, 40).split("\n")).toEqual([
      "Ctrl+C                clear the editor;",
      "                      twice quickly to",
      "                      quit",
      "short",
      "  an indented notice that is long",
    ]);
    // A label too wide to leave room beside it: the value goes under it.
    expect(wrapOwnText("/compact [instructions]       Summarize older messages to free context", 40).split("\n")).toEqual([
      "/compact [instructions]",
      "    Summarize older messages to free",
      "    context",
    ]);
    expect(wrapOwnText("↑1.3k ↓1  $0.0000  1.1% of 128k  fake/fake-model", 40, { table: false }).split("\n")).toEqual([
      "↑1.3k ↓1  $0.0000  1.1% of 128k",
      "fake/fake-model",
    ]);
  });
});
