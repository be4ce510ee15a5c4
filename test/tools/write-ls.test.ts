import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLsTool } from "../../src/tools/ls.ts";
import { createWriteTool } from "../../src/tools/write.ts";
import { errorOf, makeContext, run, textOf } from "./helpers.ts";

const write = createWriteTool();
const ls = createLsTool();

describe("write", () => {
  test("creates parent directories and names the file it wrote (Pi 0.87's words: no size)", async () => {
    const ctx = makeContext();
    const result = await run(write, { path: "deep/er/notes.txt", content: "alpha\nbeta\ngamma\n" }, ctx);
    expect(result).toEqual({ content: [{ type: "text", text: "Successfully wrote to deep/er/notes.txt" }], details: undefined });
    expect(readFileSync(join(ctx.cwd, "deep/er/notes.txt"), "utf8")).toBe("alpha\nbeta\ngamma\n");
  });

  test("writes UTF-8", async () => {
    const ctx = makeContext();
    const result = await run(write, { path: "u.txt", content: "héllo" }, ctx);
    expect(textOf(result)).toBe("Successfully wrote to u.txt");
    expect(readFileSync(join(ctx.cwd, "u.txt")).length).toBe(6);
  });

  test("applies parallel writes to one file in call order", async () => {
    const ctx = makeContext();
    await Promise.all(Array.from({ length: 10 }, (_, i) => run(write, { path: "same.txt", content: `version ${i}` }, ctx)));
    expect(readFileSync(join(ctx.cwd, "same.txt"), "utf8")).toBe("version 9");
  });

  test("rejects an aborted call", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await errorOf(run(write, { path: "a", content: "" }, makeContext(), { signal: controller.signal }))).toBe("Operation aborted");
  });
});

describe("ls", () => {
  test("lists entries case-insensitively sorted, dotfiles included, directories marked", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "b.txt"), "");
    writeFileSync(join(ctx.cwd, "A.txt"), "");
    writeFileSync(join(ctx.cwd, ".env"), "");
    mkdirSync(join(ctx.cwd, "src"));
    symlinkSync(join(ctx.cwd, "src"), join(ctx.cwd, "link"));
    symlinkSync(join(ctx.cwd, "missing"), join(ctx.cwd, "broken"));
    const result = await run(ls, {}, ctx);
    expect(result).toEqual({ content: [{ type: "text", text: ".env\nA.txt\nb.txt\nlink/\nsrc/" }], details: undefined });
  });

  test("stops at the limit and says how to see more", async () => {
    const ctx = makeContext();
    for (const name of ["a", "b", "c"]) writeFileSync(join(ctx.cwd, name), "");
    const result = await run(ls, { path: ".", limit: 2 }, ctx);
    expect(textOf(result)).toBe("a\nb\n\n[2 entries limit reached. Use limit=4 for more]");
    expect(result.details).toEqual({ entryLimitReached: 2 });
  });

  test("says when a directory is empty", async () => {
    expect(textOf(await run(ls, { path: "." }, makeContext()))).toBe("(empty directory)");
  });

  test("reports missing paths and files with absolute paths", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "f"), "");
    expect(await errorOf(run(ls, { path: "nope" }, ctx))).toBe(`Path not found: ${join(ctx.cwd, "nope")}`);
    expect(await errorOf(run(ls, { path: "f" }, ctx))).toBe(`Not a directory: ${join(ctx.cwd, "f")}`);
  });

  test("cuts a huge listing at 50KB", async () => {
    const ctx = makeContext();
    const long = "n".repeat(200);
    for (let i = 0; i < 300; i++) writeFileSync(join(ctx.cwd, `${long}${String(i).padStart(3, "0")}`), "");
    const result = await run(ls, {}, ctx);
    expect(textOf(result).endsWith("\n\n[50.0KB limit reached]")).toBe(true);
    expect((result.details as { truncation: { truncatedBy: string } }).truncation.truncatedBy).toBe("bytes");
  });
});
