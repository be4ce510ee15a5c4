import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { combineProviders, commonPrefix, tabOutcome, type CompletionResult } from "../../../src/modes/interactive/input/completion.ts";
import { fileMentionProvider, listProjectEntries, mentionToken } from "../../../src/modes/interactive/input/file-mentions.ts";
import { fuzzyScore, rankFuzzy } from "../../../src/modes/interactive/input/fuzzy.ts";
import { slashCommandProvider } from "../../../src/modes/interactive/input/slash-commands.ts";
import { tempDir } from "../../helpers/tmp.ts";

/** A project directory with `files` (paths ending in "/" are directories). */
function project(files: Record<string, string>): string {
  const root = tempDir();
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    if (path.endsWith("/")) mkdirSync(full, { recursive: true });
    else {
      mkdirSync(join(full, ".."), { recursive: true });
      writeFileSync(full, content);
    }
  }
  return root;
}

function values(result: CompletionResult | undefined): string[] {
  return result?.items.map((item) => item.value) ?? [];
}

describe("what Tab does", () => {
  test("one item replaces the typed token", () => {
    const outcome = tabOutcome("/he", { replaceFrom: 0, replaceTo: 3, items: [{ value: "/help " }] });
    expect(outcome).toEqual({ kind: "insert", edit: { from: 0, to: 3, text: "/help " } });
  });

  test("several items insert their common prefix and open a list over the extended token", () => {
    const outcome = tabOutcome("/s", { replaceFrom: 0, replaceTo: 2, items: [{ value: "/session " }, { value: "/settings " }] });
    expect(outcome.kind).toBe("menu");
    if (outcome.kind !== "menu") return;
    expect(outcome.edit).toEqual({ from: 0, to: 2, text: "/se" });
    outcome.menu.next();
    expect(outcome.menu.accept()).toEqual({ from: 0, to: 3, text: "/settings " });
  });

  test("the list cycles in both directions", () => {
    const outcome = tabOutcome("x", { replaceFrom: 0, replaceTo: 1, items: [{ value: "a" }, { value: "b" }, { value: "c" }] });
    if (outcome.kind !== "menu") throw new Error("expected a menu");
    outcome.menu.previous();
    expect(outcome.menu.selected).toBe(2);
    outcome.menu.next();
    expect(outcome.menu.selected).toBe(0);
    expect(outcome.edit).toBeUndefined();
  });

  test("nothing offered does nothing", () => {
    expect(tabOutcome("x", undefined)).toEqual({ kind: "none" });
  });

  test("the common prefix of values", () => {
    expect(commonPrefix(["@src/app.ts ", "@src/apple/"])).toBe("@src/app");
    expect(commonPrefix(["abc"])).toBe("abc");
    expect(commonPrefix([])).toBe("");
  });

  test("combined providers: the first one with items wins", async () => {
    const none = async () => undefined;
    const some = async () => ({ replaceFrom: 0, replaceTo: 0, items: [{ value: "x" }] });
    expect(values(await combineProviders(none, some)("", 0))).toEqual(["x"]);
  });
});

describe("fuzzy matching", () => {
  test("characters must appear in order", () => {
    expect(fuzzyScore("sap", "src/app.ts")).toBeDefined();
    expect(fuzzyScore("pas", "src/app.ts")).toBeUndefined();
  });

  test("a contiguous match beats a scattered one, a path segment start beats the middle of a word", () => {
    const ranked = rankFuzzy("src/ap", ["src/tools/apply.ts", "src/app.ts", "src/xap.ts"], (path) => path, 10);
    expect(ranked[0]).toBe("src/app.ts");
    expect(rankFuzzy("edit", ["credit.ts", "src/edit.ts"], (path) => path, 10)[0]).toBe("src/edit.ts");
  });
});

describe("slash commands", () => {
  const provider = slashCommandProvider([
    { name: "model", description: "Select a model" },
    { name: "session", description: "Session info" },
    { name: "settings" },
    { name: "help" },
  ]);

  test("a command prefix at the start of the buffer completes to the command and a space", async () => {
    const result = await provider("/mo", 3);
    expect(result).toEqual({ replaceFrom: 0, replaceTo: 3, items: [{ value: "/model ", label: "/model", hint: "Select a model" }] });
  });

  test("all commands sharing the prefix are offered, alphabetically", async () => {
    expect(values(await provider("/se", 3))).toEqual(["/session ", "/settings "]);
  });

  test("no completion outside the command name", async () => {
    expect(await provider("/model gpt", 10)).toBeUndefined();
    expect(await provider("say /mo", 7)).toBeUndefined();
  });

  test("a fuzzy match is offered when no name starts with the text", async () => {
    expect(values(await provider("/stg", 4))).toEqual(["/settings "]);
  });
});

describe("@file mentions", () => {
  test("the token around the cursor starts at the @", () => {
    expect(mentionToken("read @src/ap now", 12)).toEqual({ from: 5, to: 12, query: "src/ap" });
    expect(mentionToken("read @src/ap", 8)).toEqual({ from: 5, to: 12, query: "sr" });
    expect(mentionToken("mail me@example", 15)).toBeUndefined();
  });

  test("@src/ap completes to @src/app.ts ranked first, with the typed token replaced", async () => {
    const root = project({ "src/app.ts": "", "src/tools/apply.ts": "", "README.md": "" });
    const result = await fileMentionProvider({ cwd: root })("look at @src/ap", 15);
    expect(result?.replaceFrom).toBe(8);
    expect(result?.replaceTo).toBe(15);
    expect(values(result)[0]).toBe("@src/app.ts ");
    expect(values(result)).toContain("@src/tools/apply.ts ");
  });

  test("ignored files and directories are not offered", async () => {
    const root = project({ ".gitignore": "dist/\n*.log\n", "dist/app.js": "", "debug.log": "", "src/app.ts": "", ".git/": "" });
    const result = await fileMentionProvider({ cwd: root })("@ap", 3);
    expect(values(result)).toEqual(["@src/app.ts "]);
    expect(values(await fileMentionProvider({ cwd: root })("@log", 4))).toEqual([]);
  });

  test("directories complete with a slash, and then list their children", async () => {
    const root = project({ "src/a.ts": "", "src/b.ts": "", "src/deep/c.ts": "" });
    const provider = fileMentionProvider({ cwd: root });
    expect(values(await provider("@sr", 3))).toContain("@src/");
    expect(values(await provider("@src/", 5))).toEqual(["@src/a.ts ", "@src/b.ts ", "@src/deep/"]);
  });

  test("an empty query lists the top level", async () => {
    const root = project({ "a.ts": "", "lib/b.ts": "" });
    expect(values(await fileMentionProvider({ cwd: root })("@", 1))).toEqual(["@a.ts ", "@lib/"]);
  });

  test("a capped listing of a big tree keeps the shallow entries and skips node_modules", async () => {
    const files: Record<string, string> = { "top.ts": "", "node_modules/pkg/index.js": "" };
    for (let i = 0; i < 50; i++) files[`aaa/deep/file${i}.ts`] = "";
    const root = project(files);
    const entries = await listProjectEntries(root, 10);
    expect(entries.length).toBe(10);
    expect(entries.map((entry) => entry.rel)).toContain("top.ts");
    expect(entries.some((entry) => entry.rel.startsWith("node_modules"))).toBe(false);
  });

  test("paths with spaces are quoted", async () => {
    const root = project({ "my notes.md": "" });
    expect(values(await fileMentionProvider({ cwd: root })("@notes", 6))).toEqual(['@"my notes.md" ']);
  });
});
