import { describe, expect, test } from "bun:test";
import { typedWords, userMessageTitle } from "../../src/session/title.ts";
import { expandSkillCommand, type Skill } from "../../src/resources/skills.ts";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const user = (content: unknown, extra: Record<string, unknown> = {}) => ({ role: "user", content, timestamp: 1, ...extra });
const text = (t: string) => ({ type: "text", text: t });
const image = { type: "image", data: "AAAA", mimeType: "image/png" };

describe("userMessageTitle", () => {
  test("plain words are the title, as typed", () => {
    expect(userMessageTitle(user("fix the failing test"))).toBe("fix the failing test");
    expect(userMessageTitle(user([text("fix the failing test")]))).toBe("fix the failing test");
  });

  test("attached files are left out, whatever their text holds", () => {
    const files =
      `<file name="/work/p/src/a.ts">\nexport const a = "</file>";\n</file>\n` + `<file name="/work/p/notes.md">\n# Notes\n</file>\n`;
    expect(userMessageTitle(user([text(`${files}explain these two`)]))).toBe("explain these two");
  });

  test("piped text before the files stays: it is what the user gave", () => {
    expect(userMessageTitle(user([text(`the diff\n\n<file name="/p/a.ts">\nx\n</file>\nreview it`)]))).toBe("the diff\n\nreview it");
  });

  test("files alone are named by their file names; images alone read [image]", () => {
    expect(userMessageTitle(user([text(`<file name="/p/src/a.ts">\nx\n</file>\n<file name="/p/b.md">\ny\n</file>\n`)]))).toBe("[file a.ts] [file b.md]");
    expect(userMessageTitle(user([text(""), image]))).toBe("[image]");
    expect(userMessageTitle(user([image, image]))).toBe("[2 images]");
    // Words win over images.
    expect(userMessageTitle(user([text("what is this?"), image]))).toBe("what is this?");
  });

  test("a skill expansion gives the words typed after the command, else the command", () => {
    const dir = mkdtempSync(join(tmpdir(), "pig-title-"));
    const filePath = join(dir, "SKILL.md");
    writeFileSync(filePath, "---\nname: review\ndescription: Reviews\n---\nRead </skill> carefully.\nThen review.\n");
    const skill = { name: "review", description: "Reviews", filePath, baseDir: dir } as Skill;
    const withArgs = expandSkillCommand("/skill:review the parser please", [skill]).text;
    expect(withArgs).toContain("<skill");
    expect(userMessageTitle(user([text(withArgs)]))).toBe("the parser please");
    expect(userMessageTitle(user([text(expandSkillCommand("/skill:review", [skill]).text)]))).toBe("/skill:review");
  });

  test("typedText, when recorded, is the title (a template's text is not what the user said)", () => {
    const message = user([text("Review the code below for bugs, style and tests.\n\nsrc/a.ts")], { typedText: "/review src/a.ts" });
    expect(userMessageTitle(message)).toBe("/review src/a.ts");
    // A typedText that is not text, or blank, is passed over.
    expect(userMessageTitle(user([text("words")], { typedText: 3 }))).toBe("words");
    expect(userMessageTitle(user([text("words")], { typedText: "  " }))).toBe("words");
  });

  test("messages of any shape are read, never thrown on", () => {
    expect(userMessageTitle(undefined)).toBe("");
    expect(userMessageTitle("text")).toBe("");
    expect(userMessageTitle(user(42))).toBe("");
    expect(userMessageTitle(user([null, 7, { type: "text", text: 5 }]))).toBe("");
    expect(userMessageTitle(user([]))).toBe("");
  });
});

describe("typedWords", () => {
  test("names the files it left out", () => {
    expect(typedWords(`<file name="/p/a.ts">\nx\n</file>\nhi`)).toEqual({ words: "hi", files: ["/p/a.ts"] });
    expect(typedWords("no files")).toEqual({ words: "no files", files: [] });
  });
});
