import { describe, expect, test } from "bun:test";
import { MarkdownStream } from "../../../src/modes/interactive/render/markdown.ts";
import { loadTheme } from "../../../src/modes/interactive/theme.ts";

const plain = loadTheme("dark", [], false).theme;

function render(text: string, codeBlockIndent?: string): string {
  let out = "";
  const md = new MarkdownStream(plain, (t) => (out += t), codeBlockIndent !== undefined ? { codeBlockIndent } : {});
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
