import { describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEditTool, prepareEditArguments, type EditArgs } from "../../src/tools/edit.ts";
import { validateToolArguments } from "../../src/tools/validate.ts";
import { errorOf, makeContext, run, textOf } from "./helpers.ts";

const edit = createEditTool();

function fileIn(content: string, name = "notes.txt") {
  const ctx = makeContext();
  const path = join(ctx.cwd, name);
  writeFileSync(path, content);
  return { ctx, path, read: () => readFileSync(path, "utf8") };
}

describe("edit", () => {
  test("applies several edits against the original file and reports a diff", async () => {
    const { ctx, read } = fileIn("alpha\nbeta\ngamma\n");
    const args: EditArgs = { path: "notes.txt", edits: [{ oldText: "beta", newText: "BETA" }, { oldText: "gamma", newText: "GAMMA" }] };
    const result = await run(edit, args, ctx);
    expect(textOf(result)).toBe("Successfully replaced 2 block(s) in notes.txt.");
    expect(result.details).toEqual({
      diff: " 1 alpha\n-2 beta\n-3 gamma\n+2 BETA\n+3 GAMMA",
      patch: "--- notes.txt\n+++ notes.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n-gamma\n+BETA\n+GAMMA\n",
      firstChangedLine: 2,
    });
    expect(read()).toBe("alpha\nBETA\nGAMMA\n");
  });

  test("keeps a BOM and CRLF line ends", async () => {
    const { ctx, path } = fileIn("\uFEFFone\r\ntwo\r\nthree\r\n");
    await run(edit, { path: "notes.txt", edits: [{ oldText: "one\ntwo", newText: "uno\ndos" }] }, ctx);
    expect(readFileSync(path, "utf8")).toBe("\uFEFFuno\r\ndos\r\nthree\r\n");
  });

  test("matches typographic quotes and trailing spaces loosely, changing only the matched region", async () => {
    const { ctx, read } = fileIn("title = \u201Chello\u201D   \nkeep \u2018this\u2019  \n");
    await run(edit, { path: "notes.txt", edits: [{ oldText: 'title = "hello"', newText: 'title = "bye"' }] }, ctx);
    expect(read()).toBe('title = "bye"   \nkeep \u2018this\u2019  \n');
  });

  test("fails when the text is not there, showing the closest region", async () => {
    const { ctx } = fileIn("function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n");
    const message = await errorOf(
      run(edit, { path: "notes.txt", edits: [{ oldText: "function sub(a, b) {\n    return a - c;\n}", newText: "x" }] }, ctx),
    );
    expect(message).toBe(
      "Could not find the exact text in notes.txt. The old text must match exactly including all whitespace and newlines." +
        "\nClosest match (lines 5-7):\nfunction sub(a, b) {\n  return a - b;\n}",
    );
  });

  test("gives no hint when nothing in the file is similar", async () => {
    const { ctx } = fileIn("alpha\nbeta\ngamma\n");
    expect(await errorOf(run(edit, { path: "notes.txt", edits: [{ oldText: "does-not-exist", newText: "x" }] }, ctx))).toBe(
      "Could not find the exact text in notes.txt. The old text must match exactly including all whitespace and newlines.",
    );
  });

  test("names the failing entry when there are several", async () => {
    const { ctx, read } = fileIn("alpha\nbeta\n");
    const message = await errorOf(
      run(edit, { path: "notes.txt", edits: [{ oldText: "alpha", newText: "A" }, { oldText: "zzz", newText: "Z" }] }, ctx),
    );
    expect(message).toBe("Could not find edits[1] in notes.txt. The oldText must match exactly including all whitespace and newlines.");
    expect(read()).toBe("alpha\nbeta\n");
  });

  test("refuses text that occurs more than once", async () => {
    const { ctx } = fileIn("x = 1\nx = 1\n");
    expect(await errorOf(run(edit, { path: "notes.txt", edits: [{ oldText: "x = 1", newText: "y" }] }, ctx))).toBe(
      "Found 2 occurrences of the text in notes.txt. The text must be unique. Please provide more context to make it unique.",
    );
    expect(
      await errorOf(
        run(edit, { path: "notes.txt", edits: [{ oldText: "zz", newText: "" }, { oldText: "x = 1", newText: "y" }] }, ctx),
      ),
    ).toStartWith("Could not find edits[0]");
    const ctx2 = fileIn("a\nb\nb\n").ctx;
    expect(
      await errorOf(run(edit, { path: "notes.txt", edits: [{ oldText: "a", newText: "A" }, { oldText: "b", newText: "B" }] }, ctx2)),
    ).toBe("Found 2 occurrences of edits[1] in notes.txt. Each oldText must be unique. Please provide more context to make it unique.");
  });

  test("refuses overlapping edits", async () => {
    const { ctx } = fileIn("one two three\n");
    expect(
      await errorOf(
        run(edit, { path: "notes.txt", edits: [{ oldText: "two three", newText: "2 3" }, { oldText: "one two", newText: "1 2" }] }, ctx),
      ),
    ).toBe("edits[1] and edits[0] overlap in notes.txt. Merge them into one edit or target disjoint regions.");
  });

  test("refuses empty oldText and empty edits", async () => {
    const { ctx } = fileIn("abc");
    expect(await errorOf(run(edit, { path: "notes.txt", edits: [{ oldText: "", newText: "x" }] }, ctx))).toBe(
      "oldText must not be empty in notes.txt.",
    );
    expect(
      await errorOf(run(edit, { path: "notes.txt", edits: [{ oldText: "a", newText: "x" }, { oldText: "", newText: "y" }] }, ctx)),
    ).toBe("edits[1].oldText must not be empty in notes.txt.");
    expect(await errorOf(run(edit, { path: "notes.txt", edits: [] }, ctx))).toBe(
      "Edit tool input is invalid. edits must contain at least one replacement.",
    );
  });

  test("refuses a replacement that changes nothing", async () => {
    const { ctx } = fileIn("same\n");
    expect(await errorOf(run(edit, { path: "notes.txt", edits: [{ oldText: "same", newText: "same" }] }, ctx))).toBe(
      "No changes made to notes.txt. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.",
    );
    expect(
      await errorOf(
        run(edit, { path: "notes.txt", edits: [{ oldText: "sa", newText: "sa" }, { oldText: "me", newText: "me" }] }, ctx),
      ),
    ).toBe("No changes made to notes.txt. The replacements produced identical content.");
  });

  test("reports a file it cannot open with the error code", async () => {
    const ctx = makeContext();
    expect(await errorOf(run(edit, { path: "nope.txt", edits: [{ oldText: "a", newText: "b" }] }, ctx))).toBe(
      "Could not edit file: nope.txt. Error code: ENOENT.",
    );
  });

  test("serializes parallel edits of one file so none is lost", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `item ${i}`);
    const { ctx, read } = fileIn(`${lines.join("\n")}\n`);
    symlinkSync(join(ctx.cwd, "notes.txt"), join(ctx.cwd, "alias.txt"));
    const calls = lines.map((line, i) =>
      run(edit, { path: i % 2 === 0 ? "notes.txt" : "alias.txt", edits: [{ oldText: `${line}\n`, newText: `${line} done\n` }] }, ctx),
    );
    await Promise.all(calls);
    expect(read()).toBe(lines.map((line) => `${line} done\n`).join(""));
  });

  test("rejects an aborted call without touching the file", async () => {
    const { ctx, read } = fileIn("abc");
    const controller = new AbortController();
    controller.abort();
    expect(await errorOf(run(edit, { path: "notes.txt", edits: [{ oldText: "a", newText: "b" }] }, ctx, { signal: controller.signal }))).toBe(
      "Operation aborted",
    );
    expect(read()).toBe("abc");
  });
});

describe("edit arguments", () => {
  test("accept the single-edit form of older sessions", () => {
    const prepared = prepareEditArguments({ path: "a", oldText: "x", newText: "y" });
    expect(prepared).toEqual({ path: "a", edits: [{ oldText: "x", newText: "y" }] });
    expect(validateToolArguments(edit, prepared).ok).toBe(true);
  });

  test("accept edits sent as a JSON string, appending a legacy pair", () => {
    const prepared = prepareEditArguments({ path: "a", edits: '[{"oldText":"1","newText":"2"}]', oldText: "x", newText: "y" });
    expect(prepared.edits).toEqual([
      { oldText: "1", newText: "2" },
      { oldText: "x", newText: "y" },
    ]);
  });

  test("accept and ignore unknown keys in an edit, as Pi 0.87's schema (no additionalProperties) does", () => {
    const outcome = validateToolArguments(edit, { path: "a", edits: [{ oldText: "x", newText: "y", extra: 1 }] });
    expect(outcome.ok).toBe(true);
  });
});
