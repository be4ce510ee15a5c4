/**
 * Images that come with input, made fit to send as upstream does: a large one scaled down with
 * a note, another format converted to PNG, an unusable one left out with a line saying so.
 */
import { expect, test } from "bun:test";
import { NOT_CONVERTIBLE, NOT_RESIZABLE, preparePromptImages, withImageHints } from "../../src/agent/prompt-images.ts";

/** The 3×2 PNG of fixture 13. */
const BLUE_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAD0lEQVR4nGNgYPgPQzAWADXeBfvilmCeAAAAAElFTkSuQmCC";
const png = (data: string) => ({ type: "image" as const, data, mimeType: "image/png" });

/** A 2×1 24-bit BMP, written by hand. */
function bmp(): string {
  const pixels = Buffer.from([0, 0, 255, 0, 255, 0, 0, 0]); // two pixels (BGR) and padding to 4 bytes
  const header = Buffer.alloc(54);
  header.write("BM", 0, "latin1");
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(2, 18);
  header.writeInt32LE(1, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([header, pixels]).toString("base64");
}

test("an image within the limits goes as it came, with no note", async () => {
  expect(await preparePromptImages([png(BLUE_PNG)], true)).toEqual({ images: [png(BLUE_PNG)], hints: [] });
});

test("a large image is scaled down, with the note that maps coordinates back", async () => {
  const big = Buffer.from(await new Bun.Image(Buffer.from(BLUE_PNG, "base64")).resize(3000, 2000).png().bytes()).toString("base64");
  const { images, hints } = await preparePromptImages([png(big)], true);
  const meta = await new Bun.Image(Buffer.from(images[0]!.data, "base64")).metadata();
  expect([meta.width, meta.height]).toEqual([2000, 1333]);
  expect(hints).toEqual(["[Image: original 3000x2000, displayed at 2000x1333. Multiply coordinates by 1.50 to map to original image.]"]);
  // With images.autoResize off it goes as it came.
  expect(await preparePromptImages([png(big)], false)).toEqual({ images: [png(big)], hints: [] });
});

test("another format becomes a PNG, said in a line; what cannot be read is left out, said in a line", async () => {
  const converted = await preparePromptImages([{ type: "image", data: bmp(), mimeType: "image/bmp" }], true);
  expect(converted.images.map((i) => i.mimeType)).toEqual(["image/png"]);
  expect(converted.hints).toEqual(["[Image converted from image/bmp to image/png.]"]);
  const garbage = Buffer.from("not an image at all").toString("base64");
  expect(await preparePromptImages([{ type: "image", data: garbage, mimeType: "image/x-unknown" }], true)).toEqual({ images: [], hints: [NOT_CONVERTIBLE] });
  expect(await preparePromptImages([png(garbage), png(BLUE_PNG)], true)).toEqual({ images: [png(BLUE_PNG)], hints: [NOT_RESIZABLE] });
});

test("hints follow the text after a blank line", () => {
  expect(withImageHints("look", [])).toBe("look");
  expect(withImageHints("look", ["a", "b"])).toBe("look\n\na\nb");
});
