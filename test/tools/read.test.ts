import { describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Model } from "../../src/ai/types.ts";
import { createReadTool } from "../../src/tools/read.ts";
import type { ToolContent } from "../../src/tools/types.ts";
import { errorOf, makeContext, run, textOf } from "./helpers.ts";
import { evalWithPermissions } from "../helpers/permissions.ts";

const read = createReadTool();
/** The 3×2 PNG Pi read in fixture 13. */
const BLUE_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAD0lEQVR4nGNgYPgPQzAWADXeBfvilmCeAAAAAElFTkSuQmCC";

function numbered(count: number): string {
  return Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");
}

function model(input: Model["input"]): Model {
  return {
    id: "m",
    name: "m",
    api: "openai-completions",
    provider: "p",
    baseUrl: "http://127.0.0.1",
    reasoning: false,
    input,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
  };
}

describe("read text", () => {
  test("returns the file as it is, without line numbers", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "notes.txt"), "alpha\nbeta\ngamma\n");
    const result = await run(read, { path: "notes.txt" }, ctx);
    expect(result.content).toEqual([{ type: "text", text: "alpha\nbeta\ngamma\n" }]);
    expect(result.details).toBeUndefined();
  });

  test("accepts @-prefixed and absolute paths", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "a.txt"), "x");
    expect(textOf(await run(read, { path: "@a.txt" }, ctx))).toBe("x");
    expect(textOf(await run(read, { path: join(ctx.cwd, "a.txt") }, ctx))).toBe("x");
  });

  test("finds a macOS screenshot name typed with a plain space before PM", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "Shot 10.00.00\u202FPM.txt"), "shot");
    expect(textOf(await run(read, { path: "Shot 10.00.00 PM.txt" }, ctx))).toBe("shot");
  });

  test("reads a window with offset and limit and says how much remains", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "f.txt"), numbered(10));
    const result = await run(read, { path: "f.txt", offset: 3, limit: 2 }, ctx);
    expect(textOf(result)).toBe("line 3\nline 4\n\n[6 more lines in file. Use offset=5 to continue.]");
    expect(result.details).toBeUndefined();
    expect(textOf(await run(read, { path: "f.txt", offset: 9 }, ctx))).toBe("line 9\nline 10");
  });

  test("stops at 2000 lines with a continuation notice", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "big.txt"), numbered(2500));
    const result = await run(read, { path: "big.txt" }, ctx);
    expect(textOf(result).endsWith("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(true);
    expect((result.details as { truncation: { truncatedBy: string } }).truncation.truncatedBy).toBe("lines");
    const next = await run(read, { path: "big.txt", offset: 2001 }, ctx);
    expect(textOf(next).startsWith("line 2001\n")).toBe(true);
  });

  test("stops at 50KB with a continuation notice", async () => {
    const ctx = makeContext();
    const line = "z".repeat(1000);
    writeFileSync(join(ctx.cwd, "wide.txt"), Array.from({ length: 100 }, () => line).join("\n"));
    const result = await run(read, { path: "wide.txt", offset: 2 }, ctx);
    expect(textOf(result).endsWith("\n\n[Showing lines 2-52 of 100 (50.0KB limit). Use offset=53 to continue.]")).toBe(true);
  });

  test("points to bash when the first line alone is over 50KB", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "min.js"), `short\n${"q".repeat(60 * 1024)}\n`);
    const result = await run(read, { path: "min.js", offset: 2 }, ctx);
    expect(textOf(result)).toBe("[Line 2 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '2p' min.js | head -c 51200]");
    expect((result.details as { truncation: { firstLineExceedsLimit: boolean } }).truncation.firstLineExceedsLimit).toBe(true);
  });

  test("rejects an offset past the end", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "f.txt"), "a\nb");
    expect(await errorOf(run(read, { path: "f.txt", offset: 5 }, ctx))).toBe("Offset 5 is beyond end of file (2 lines total)");
  });

  test("reports a missing file with the system error", async () => {
    const ctx = makeContext();
    expect(await errorOf(run(read, { path: "missing.txt" }, ctx))).toBe(
      `ENOENT: no such file or directory, access '${join(ctx.cwd, "missing.txt")}'`,
    );
  });

  test("reports an unreadable file (permissions apply, as root too)", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "secret"), "x");
    chmodSync(join(ctx.cwd, "secret"), 0);
    const message = await evalWithPermissions(
      (src) => `
        import { createReadTool } from ${src("tools/read.ts")};
        const call = createReadTool().execute("c", { path: "secret" }, new AbortController().signal, () => {}, ${JSON.stringify(ctx)});
        console.log(JSON.stringify(await call.then(() => "read it", (e) => e.message)));`,
    );
    expect(message).toContain("EACCES");
    expect(message).toContain("secret");
  });

  test("rejects an aborted call", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "f.txt"), "x");
    const controller = new AbortController();
    controller.abort();
    expect(await errorOf(run(read, { path: "f.txt" }, ctx, { signal: controller.signal }))).toBe("Operation aborted");
  });
});

describe("read files that are not text", () => {
  test("describes a binary file by its type and size instead of returning its bytes, whatever the window", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "archive.gz"), Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0x0a, 0x1b]));
    const note = "[Binary file (gzip archive, 13B): not shown, as its bytes are not text. Inspect it with bash if needed (file, strings, xxd | head).]";
    expect((await run(read, { path: "archive.gz" }, ctx)).content).toEqual([{ type: "text", text: note }]);
    expect(textOf(await run(read, { path: "archive.gz", offset: 2, limit: 1 }, ctx))).toBe(note);
  });

  test("says a file in another encoding than UTF-8 is not shown and how to read it converted", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "old.txt"), Buffer.from("caf\xe9 cr\xe8me\n", "latin1"));
    expect(textOf(await run(read, { path: "old.txt" }, ctx))).toContain("iconv -f latin1 -t utf-8 old.txt");
  });
});

describe("read images", () => {
  test("attaches a small image unchanged, data before mimeType", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "blue.png"), Buffer.from(BLUE_PNG, "base64"));
    const result = await run(read, { path: "blue.png" }, ctx);
    expect(JSON.stringify(result.content)).toBe(
      JSON.stringify([
        { type: "text", text: "Read image file [image/png]" },
        { type: "image", data: BLUE_PNG, mimeType: "image/png" },
      ]),
    );
    expect(result.details).toBeUndefined();
  });

  test("recognises images by content, not by name", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "picture.txt"), Buffer.from(BLUE_PNG, "base64"));
    writeFileSync(join(ctx.cwd, "fake.png"), "not an image");
    expect(textOf(await run(read, { path: "picture.txt" }, ctx))).toContain("Read image file [image/png]");
    expect(textOf(await run(read, { path: "fake.png" }, ctx))).toBe("not an image");
  });

  test("scales a large image into 2000x2000 and says how to map coordinates", async () => {
    const ctx = makeContext();
    const big = await new Bun.Image(Buffer.from(BLUE_PNG, "base64")).resize(3000, 1500).png().bytes();
    writeFileSync(join(ctx.cwd, "big.png"), big);
    const result = await run(read, { path: "big.png" }, ctx);
    const text = textOf(result);
    expect(text).toStartWith("Read image file [image/");
    expect(text).toContain(
      "\n[Image: original 3000x1500, displayed at 2000x1000. Multiply coordinates by 1.50 to map to original image.]",
    );
    const image = result.content[1] as Extract<ToolContent, { type: "image" }>;
    const meta = await new Bun.Image(Buffer.from(image.data ?? "", "base64")).metadata();
    expect([meta.width, meta.height]).toEqual([2000, 1000]);
  });

  test("sends only a note for an image that cannot be decoded", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "broken.png"), Buffer.concat([Buffer.from(BLUE_PNG, "base64").subarray(0, 16), Buffer.alloc(5_000_000)]));
    const result = await run(read, { path: "broken.png" }, ctx);
    expect(result.content).toEqual([
      { type: "text", text: "Read image file [image/png]\n[Image omitted: could not be resized below the inline image size limit.]" },
    ]);
  });

  test("tells a text-only model that the image will be left out", async () => {
    const ctx = makeContext(undefined, { model: model(["text"]) });
    writeFileSync(join(ctx.cwd, "blue.png"), Buffer.from(BLUE_PNG, "base64"));
    const result = await run(read, { path: "blue.png" }, ctx);
    expect(textOf(result)).toBe(
      "Read image file [image/png]\n[Current model does not support images. The image will be omitted from this request.]\n[image]",
    );
    const vision = await run(read, { path: "blue.png" }, makeContext(ctx.cwd, { model: model(["text", "image"]) }));
    expect(textOf(vision)).toBe("Read image file [image/png]\n[image]");
  });

  test("passes images through untouched when resizing is off", async () => {
    const ctx = makeContext();
    const big = await new Bun.Image(Buffer.from(BLUE_PNG, "base64")).resize(2400, 10).png().bytes();
    writeFileSync(join(ctx.cwd, "wide.png"), big);
    const result = await createReadTool({ autoResizeImages: false }).execute("id", { path: "wide.png" }, new AbortController().signal, () => {}, ctx);
    expect((result.content[1] as { data: string }).data).toBe(Buffer.from(big).toString("base64"));
  });
});
