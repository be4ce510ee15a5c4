import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { resolveReadPath, resolveToCwd } from "../../src/tools/paths.ts";
import { tempDir } from "../helpers/tmp.ts";

describe("resolveToCwd", () => {
  test("resolves relative paths against the session directory", () => {
    expect(resolveToCwd("src/a.ts", "/work/project")).toBe("/work/project/src/a.ts");
    expect(resolveToCwd("/etc/hosts", "/work/project")).toBe("/etc/hosts");
  });

  test("drops a leading @, expands ~ and turns look-alike spaces into spaces", () => {
    expect(resolveToCwd("@src/a.ts", "/p")).toBe("/p/src/a.ts");
    expect(resolveToCwd("~", "/p")).toBe(homedir());
    expect(resolveToCwd("~/notes.md", "/p")).toBe(join(homedir(), "notes.md"));
    expect(resolveToCwd("my\u00A0file\u2009name.txt", "/p")).toBe("/p/my file name.txt");
  });
});

describe("resolveReadPath", () => {
  test("finds files whose names use a typographic apostrophe or decomposed accents", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "Bob\u2019s notes.txt"), "");
    writeFileSync(join(dir, "cafe\u0301.txt"), "");
    expect(resolveReadPath("Bob's notes.txt", dir)).toBe(join(dir, "Bob\u2019s notes.txt"));
    expect(resolveReadPath("caf\u00E9.txt", dir)).toBe(join(dir, "cafe\u0301.txt"));
  });

  test("returns the plain resolution when no variant exists", () => {
    expect(resolveReadPath("missing.txt", "/nowhere")).toBe("/nowhere/missing.txt");
  });
});
