import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { attachMentions, MAX_ATTACHED_TEXT_BYTES, mentionedPaths } from "../../src/modes/interactive/attachments.ts";
import { tempDir } from "../helpers/tmp.ts";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAD0lEQVR4nGNgYPgPQzAWADXeBfvilmCeAAAAAElFTkSuQmCC", "base64");

describe("@ mentions", () => {
  test("are found bare or quoted, not inside words", () => {
    expect(mentionedPaths('see @src/app.ts and @"my notes.md", mail me@example.com')).toEqual(["src/app.ts", "my notes.md"]);
  });

  test("attach text files as blocks and images as attachments; folders, missing, binary and huge files are reported", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "app.ts"), "export const a = 1;\n");
    writeFileSync(join(cwd, "shot.png"), PNG);
    writeFileSync(join(cwd, "big.log"), "x".repeat(MAX_ATTACHED_TEXT_BYTES + 1));
    writeFileSync(join(cwd, "tool.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]));
    const result = await attachMentions("look at @src/app.ts. and @shot.png, not @src or @nope.txt or @big.log or @tool.bin", cwd);
    expect(result.attached).toEqual(["src/app.ts", "shot.png"]);
    expect(result.skipped).toEqual([
      { path: "src", reason: "a directory; attach files inside it, e.g. @src/app.ts" },
      { path: "nope.txt", reason: `no such file: ${join(cwd, "nope.txt")}` },
      { path: "big.log", reason: "larger than 256 KB" },
      { path: "tool.bin", reason: "not a text file (ELF executable, 7B)" },
    ]);
    expect(result.files.text).toContain(`<file name="${join(cwd, "src", "app.ts")}">\nexport const a = 1;\n\n</file>`);
    expect(result.files.images).toHaveLength(1);
    expect(result.files.images[0]!.mimeType).toBe("image/png");
  });

  test("a missing file is named as typed, without the punctuation after it, and once", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "empty"));
    const result = await attachMentions("fix @src/mian.ts, then @src/mian.ts again; see @empty/", cwd);
    expect(result.attached).toEqual([]);
    expect(result.skipped).toEqual([
      { path: "src/mian.ts", reason: `no such file: ${join(cwd, "src", "mian.ts")}` },
      { path: "empty/", reason: "an empty directory; attach files, not directories" },
    ]);
  });

  test("nothing mentioned, nothing attached", async () => {
    const result = await attachMentions("just words", tempDir());
    expect(result).toEqual({ files: { text: "", images: [] }, attached: [], skipped: [] });
  });
});
