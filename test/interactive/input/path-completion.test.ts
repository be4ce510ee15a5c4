import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathCompletionProvider } from "../../../src/modes/interactive/input/path-completion.ts";
import { tempDir } from "../../helpers/tmp.ts";

function project() {
  const cwd = tempDir();
  mkdirSync(join(cwd, "src", "lib"), { recursive: true });
  writeFileSync(join(cwd, "src", "app.ts"), "");
  writeFileSync(join(cwd, "src", "api.ts"), "");
  writeFileSync(join(cwd, "src", ".hidden"), "");
  writeFileSync(join(cwd, "notes.html"), "");
  symlinkSync(join(cwd, "src", "lib"), join(cwd, "src", "linked"));
  const home = tempDir();
  writeFileSync(join(home, "todo.txt"), "");
  return { cwd, home, complete: pathCompletionProvider({ cwd, home }) };
}

const values = (r: Awaited<ReturnType<ReturnType<typeof pathCompletionProvider>>>) => r?.items.map((i) => i.value);

describe("path completion", () => {
  test("completes the word before the cursor as a path: files end in a space, directories in /", async () => {
    const { complete } = project();
    const text = "cat src/ap";
    const result = await complete(text, text.length);
    expect(result).toMatchObject({ replaceFrom: 4, replaceTo: text.length });
    expect(values(result)).toEqual(["src/api.ts ", "src/app.ts "]);
    expect(values(await complete("ls src/", 7))).toEqual(["src/api.ts ", "src/app.ts ", "src/lib/", "src/linked/"]);
    expect(values(await complete("ls src/.h", 9))).toEqual(["src/.hidden "]);
  });

  test("~/ is the home directory; absolute paths work", async () => {
    const { complete, cwd } = project();
    expect(values(await complete("open ~/to", 9))).toEqual(["~/todo.txt "]);
    const abs = `${cwd}/no`;
    expect(values(await complete(`see ${abs}`, 4 + abs.length))).toEqual([`${cwd}/notes.html `]);
  });

  test("bare words, @mentions, slash commands and missing folders are left to others", async () => {
    const { complete } = project();
    expect(await complete("fix the not", 11)).toBeUndefined();
    expect(await complete("@src/ap", 7)).toBeUndefined();
    expect(await complete("/mod", 4)).toBeUndefined();
    expect(await complete("cat nope/x", 10)).toBeUndefined();
  });

  test("the file argument of /export and /import completes from the first letter", async () => {
    const { complete } = project();
    expect(values(await complete("/export no", 10))).toEqual(["notes.html "]);
    expect(values(await complete("/import sr", 10))).toEqual(["src/"]);
  });
});
