// Pi's image helpers as extensions import them from `@earendil-works/pi-coding-agent`, called
// the way pi-web-access 0.28 calls resizeImage on a fetched image.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertToPng, detectSupportedImageMimeTypeFromFile, formatDimensionNote, resizeImage } from "../../../src/extensions/compat/coding-agent.ts";
import { tempDir } from "../../helpers/tmp.ts";

const BLUE_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAD0lEQVR4nGNgYPgPQzAWADXeBfvilmCeAAAAAElFTkSuQmCC", "base64");
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

const scaled = (width: number, height: number) => new Bun.Image(BLUE_PNG).resize(width, height).png().bytes();
const sizeOf = async (base64: string) => new Bun.Image(Buffer.from(base64, "base64")).metadata();

describe("resizeImage", () => {
  test("a fetched image larger than the asked sides comes back scaled into them, with both sizes", async () => {
    const fetched = await scaled(3000, 1500);
    const resized = await resizeImage(new Uint8Array(fetched), "image/png", { maxWidth: 2000, maxHeight: 2000 });
    expect(resized).toMatchObject({ originalWidth: 3000, originalHeight: 1500, width: 2000, height: 1000, wasResized: true });
    expect(["image/png", "image/jpeg"]).toContain(resized!.mimeType);
    expect(await sizeOf(resized!.data)).toMatchObject({ width: 2000, height: 1000 });
    expect(formatDimensionNote(resized!)).toBe("[Image: original 3000x1500, displayed at 2000x1000. Multiply coordinates by 1.50 to map to original image.]");
  });

  test("an image within the limits comes back as it was, with no note", async () => {
    const resized = await resizeImage(new Uint8Array(BLUE_PNG), "image/png", { maxWidth: 2000, maxHeight: 2000 });
    expect(resized).toEqual({ data: BLUE_PNG.toString("base64"), mimeType: "image/png", originalWidth: 3, originalHeight: 2, width: 3, height: 2, wasResized: false });
    expect(formatDimensionNote(resized!)).toBeUndefined();
  });

  test("without options the read tool's limits apply (2000 px a side)", async () => {
    const resized = await resizeImage(await scaled(10, 2400), "image/png");
    expect(resized).toMatchObject({ width: 8, height: 2000, wasResized: true });
  });

  test("maxBytes bounds the base64 text: the image shrinks until it fits", async () => {
    const input = await scaled(600, 400);
    const resized = await resizeImage(input, "image/png", { maxBytes: 300, jpegQuality: 60 });
    expect(resized).not.toBeNull();
    expect(resized!.data.length).toBeLessThan(300);
    expect(resized!.width).toBeLessThan(600);
    expect(resized!.width / resized!.height).toBeCloseTo(1.5, 0);
    expect(await sizeOf(resized!.data)).toMatchObject({ width: resized!.width, height: resized!.height });
  });

  test("bytes that are no image give null, which pi-web-access reports as undecodable", async () => {
    expect(await resizeImage(new TextEncoder().encode("<html>not an image</html>"), "image/png", { maxWidth: 2000, maxHeight: 2000 })).toBeNull();
  });

  test("arguments of the wrong kind throw a TypeError naming the field", async () => {
    const bytes = new Uint8Array(BLUE_PNG);
    await expect(resizeImage(bytes, "image/png", { maxWidth: 0 })).rejects.toThrow("resizeImage: options.maxWidth: must be at least 1");
    await expect(resizeImage(bytes, "image/png", { maxHeight: "big" as unknown as number })).rejects.toThrow(TypeError);
    await expect(resizeImage(BLUE_PNG.toString("base64") as unknown as Uint8Array, "image/png")).rejects.toThrow("resizeImage: inputBytes: must be a Uint8Array");
  });
});

describe("convertToPng and detectSupportedImageMimeTypeFromFile", () => {
  test("a JPEG becomes a PNG of the same size; a PNG passes through; garbage gives null", async () => {
    const jpeg = Buffer.from(await new Bun.Image(BLUE_PNG).jpeg({ quality: 90 }).bytes()).toString("base64");
    const png = await convertToPng(jpeg, "image/jpeg");
    expect(png?.mimeType).toBe("image/png");
    expect([...Buffer.from(png!.data, "base64").subarray(0, 4)]).toEqual(PNG_SIGNATURE);
    expect(await sizeOf(png!.data)).toMatchObject({ width: 3, height: 2 });
    expect(await convertToPng("abc", "image/png")).toEqual({ data: "abc", mimeType: "image/png" });
    expect(await convertToPng(Buffer.from("nope").toString("base64"), "image/webp")).toBeNull();
  });

  test("a file's image type comes from its first bytes, not its name", async () => {
    const dir = tempDir("pig-compat-img-");
    writeFileSync(join(dir, "picture.txt"), BLUE_PNG);
    writeFileSync(join(dir, "fake.png"), "not an image");
    expect(await detectSupportedImageMimeTypeFromFile(join(dir, "picture.txt"))).toBe("image/png");
    expect(await detectSupportedImageMimeTypeFromFile(join(dir, "fake.png"))).toBeNull();
    await expect(detectSupportedImageMimeTypeFromFile(join(dir, "missing.png"))).rejects.toThrow("ENOENT");
  });
});
