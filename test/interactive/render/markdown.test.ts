import { describe, expect, test } from "bun:test";
import { MarkdownStream } from "../../../src/modes/interactive/render/markdown.ts";
import { loadTheme } from "../../../src/modes/interactive/theme.ts";

const plain = loadTheme("dark", [], false).theme;

function render(text: string, codeBlockIndent?: string, width?: number, hyperlinks = false): string {
  let out = "";
  const md = new MarkdownStream(plain, (t) => (out += t), {
    ...(codeBlockIndent !== undefined ? { codeBlockIndent } : {}),
    ...(width !== undefined ? { width: () => width } : {}),
    hyperlinks,
  });
  md.push(text);
  md.end();
  return out;
}

describe("markdown.codeBlockIndent", () => {
  test("the default keeps one space after the border; a wider indent widens it", () => {
    const block = "```ts\nconst a = 1;\n```";
    expect(render(block)).toBe("┌─ ts \n│ const a = 1;\n└─\n");
    expect(render(block, "    ")).toBe("┌─ ts \n│   const a = 1;\n└─\n");
  });

  test("the line being written is available until it is complete", () => {
    let out = "";
    const md = new MarkdownStream(plain, (t) => (out += t));
    md.push("# Title\nhalf a li");
    expect(out).toBe("# Title\n");
    expect(md.pending).toBe("half a li");
    md.push("ne\n");
    expect(md.pending).toBe("");
  });
});

describe("markdown at a width", () => {
  test("paragraphs wrap at words; bullets hang; quotes keep their bar", () => {
    expect(render("alpha beta gamma delta epsilon zeta eta theta", undefined, 20)).toBe("alpha beta gamma\ndelta epsilon zeta\neta theta\n");
    expect(render("- alpha beta gamma delta epsilon", undefined, 20)).toBe("• alpha beta gamma\n  delta epsilon\n");
    expect(render("  1. alpha beta gamma delta", undefined, 20)).toBe("  1. alpha beta\n     gamma delta\n");
    expect(render("> alpha beta gamma delta epsilon", undefined, 20)).toBe("│ alpha beta gamma\n│ delta epsilon\n");
  });

  test("a long code line continues inside the gutter", () => {
    expect(render("```\nabcdefghijklmnopqrstuvwxyz0123\n```", undefined, 20)).toBe("┌─\n│ abcdefghijklmnopqr\n│ stuvwxyz0123\n└─\n");
  });

  test("a table is aligned; too wide, each row becomes its column: value lines", () => {
    const table = "| Name | Size |\n|:--|--:|\n| a | 1 |\n| long | 200 |\n";
    expect(render(table, undefined, 40)).toBe(
      "┌──────┬──────┐\n│ Name │ Size │\n├──────┼──────┤\n│ a    │    1 │\n│ long │  200 │\n└──────┴──────┘\n",
    );
    const wide = "| Name | Description |\n|--|--|\n| a.ts | the entry point of the program |\n";
    expect(render(wide, undefined, 24)).toBe("• Name: a.ts\n  Description: the\n    entry point of the\n    program\n");
  });

  test("a line of pipes without a separator row is ordinary text", () => {
    expect(render("| not | a table |\nnext\n", undefined, 40)).toBe("| not | a table |\nnext\n");
  });

  test("links show text and address; with hyperlinks the text is an OSC 8 link", () => {
    expect(render("see [docs](https://x.org/d) or https://y.org.", undefined, 80)).toBe("see docs (https://x.org/d) or https://y.org.\n");
    expect(render("[docs](https://x.org/d)", undefined, 80, true)).toBe("\x1b]8;;https://x.org/d\x07docs\x1b]8;;\x07 (https://x.org/d)\n");
    // Inside inline code nothing is a link.
    expect(render("`[a](b)`", undefined, 80)).toBe("`[a](b)`\n");
  });
});

describe("markdown: text as it comes", () => {
  test("carriage returns, line separators and tabs do not break a line", () => {
    expect(render("one\r\ntwo\r\nthree\u2028four\tfive", undefined, 60)).toBe("one\ntwo\nthree four  five\n");
  });

  test("a code block in a list item stays under the item", () => {
    expect(render("1. Run:\n   ```sh\n   npm test\n   ```\n", undefined, 40)).toBe("1. Run:\n   ┌─ sh \n   │ npm test\n   └─\n");
  });

  test("an indented paragraph keeps its indent on every row", () => {
    expect(render("    alpha beta gamma delta epsilon", undefined, 24)).toBe("    alpha beta gamma\n    delta epsilon\n");
  });
});
