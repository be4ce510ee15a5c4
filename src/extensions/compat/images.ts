/**
 * Pi's image helpers for extensions (`resizeImage`, `formatDimensionNote`, `convertToPng`,
 * `detectSupportedImageMimeTypeFromFile`), backed by the read tool's image code and Bun's
 * built-in codecs. They run in the extension's own process, so no worker is needed to keep a
 * UI responsive.
 */
import { open } from "node:fs/promises";
import * as v from "valibot";
import { DEFAULT_IMAGE_LIMITS, detectImageMime, dimensionNote, fitImage, IMAGE_SNIFF_BYTES } from "../../tools/image.ts";

/** Upstream's `ResizedImage`. */
export interface ResizedImage {
  data: string;
  mimeType: string;
  originalWidth: number;
  originalHeight: number;
  width: number;
  height: number;
  wasResized: boolean;
}

const positive = v.optional(v.pipe(v.number(), v.finite(), v.minValue(1, "must be at least 1")));
const ResizeOptionsSchema = v.optional(
  v.looseObject({
    maxWidth: positive,
    maxHeight: positive,
    /** Upstream's limit is on the base64 text, as pig's is. */
    maxBytes: positive,
    jpegQuality: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
  }),
);

type ResizeOptions = v.InferOutput<typeof ResizeOptionsSchema>;

function checkedOptions(options: unknown): ResizeOptions {
  const parsed = v.safeParse(ResizeOptionsSchema, options);
  if (parsed.success) return parsed.output;
  const [issue] = parsed.issues;
  const path = v.getDotPath(issue);
  throw new TypeError(`resizeImage: options${path ? `.${path}` : ""}: ${issue.message}`);
}

/**
 * `inputBytes` fitted into `options` (2000×2000 and 4.5 MB of base64 unless given): unchanged
 * when it already fits, else scaled and re-encoded. `null` when the image cannot be decoded or
 * made small enough; arguments of the wrong kind throw a `TypeError` naming the field.
 */
export async function resizeImage(inputBytes: Uint8Array, mimeType: string, options?: ResizeOptions): Promise<ResizedImage | null> {
  if (!(inputBytes instanceof Uint8Array)) throw new TypeError("resizeImage: inputBytes: must be a Uint8Array");
  if (typeof mimeType !== "string") throw new TypeError("resizeImage: mimeType: must be a string");
  const given = checkedOptions(options);
  const fitted = await fitImage(inputBytes, mimeType, {
    maxWidth: given?.maxWidth ?? DEFAULT_IMAGE_LIMITS.maxWidth,
    maxHeight: given?.maxHeight ?? DEFAULT_IMAGE_LIMITS.maxHeight,
    maxBase64Bytes: given?.maxBytes ?? DEFAULT_IMAGE_LIMITS.maxBase64Bytes,
    jpegQuality: given?.jpegQuality ?? DEFAULT_IMAGE_LIMITS.jpegQuality,
  });
  if (!fitted) return null;
  const { reencoded, ...image } = fitted;
  return { ...image, wasResized: reencoded };
}

/** The coordinate note for a resized image (none when it was passed through as it was). */
export function formatDimensionNote(result: ResizedImage): string | undefined {
  if (!result?.wasResized) return undefined;
  const { originalWidth, originalHeight, width, height } = result;
  return dimensionNote({ data: result.data, mimeType: result.mimeType, resized: { originalWidth, originalHeight, width, height } });
}

/** The image as PNG (for terminals that show only PNG); `null` when it cannot be decoded. */
export async function convertToPng(base64Data: string, mimeType: string): Promise<{ data: string; mimeType: string } | null> {
  if (mimeType === "image/png") return { data: base64Data, mimeType };
  try {
    const png = await new Bun.Image(Buffer.from(base64Data, "base64")).png().bytes();
    return { data: Buffer.from(png).toString("base64"), mimeType: "image/png" };
  } catch {
    return null;
  }
}

/** The image type the file starts with, if it is one pig's read tool sends as an image. */
export async function detectSupportedImageMimeTypeFromFile(filePath: string): Promise<string | null> {
  const file = await open(filePath, "r");
  try {
    const head = Buffer.alloc(IMAGE_SNIFF_BYTES);
    const { bytesRead } = await file.read(head, 0, IMAGE_SNIFF_BYTES, 0);
    return detectImageMime(head.subarray(0, bytesRead)) ?? null;
  } finally {
    await file.close();
  }
}
