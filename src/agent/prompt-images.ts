/**
 * Images that come with input (RPC `prompt`, `steer` and `follow_up`, the SDK), made fit to send
 * as upstream does for a prompt and, since 1.x, for a queued steer or follow-up: an image in a
 * format providers do not take inline becomes a PNG, one over the size limits is scaled down
 * (setting `images.autoResize`), and what was done is said in a line after the message's text;
 * an image that cannot be used is left out, with a line saying so. The wording is upstream's.
 */
import { dimensionNote, prepareImage, type ImageMime } from "../tools/image.ts";
import type { HookImage } from "./hooks.ts";

export interface PreparedImages {
  images: HookImage[];
  /** Lines to add after the message's text, in the images' order. */
  hints: string[];
}

const INLINE_TYPES: Readonly<Record<string, ImageMime>> = {
  "image/png": "image/png",
  "image/jpeg": "image/jpeg",
  "image/jpg": "image/jpeg",
  "image/gif": "image/gif",
  "image/webp": "image/webp",
};

export const NOT_CONVERTIBLE = "[Image omitted: could not be converted to a supported inline image format.]";
export const NOT_RESIZABLE = "[Image omitted: could not be resized below the inline image size limit.]";

/** `image/png; charset=x` → `image/png`. */
function baseType(mimeType: string): string {
  return (mimeType.split(";")[0] ?? mimeType).trim().toLowerCase();
}

async function toPng(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  try {
    return await new Bun.Image(bytes).png().bytes();
  } catch {
    return undefined;
  }
}

export async function preparePromptImages(images: readonly HookImage[], autoResize: boolean): Promise<PreparedImages> {
  const prepared: PreparedImages = { images: [], hints: [] };
  for (const image of images) {
    const declared = baseType(image.mimeType);
    let bytes: Uint8Array = Buffer.from(image.data, "base64");
    let mimeType = INLINE_TYPES[declared];
    let convertedFrom: string | undefined;
    if (!mimeType) {
      const png = await toPng(bytes);
      if (!png) {
        prepared.hints.push(NOT_CONVERTIBLE);
        continue;
      }
      bytes = png;
      mimeType = "image/png";
      convertedFrom = declared;
    }
    let data = convertedFrom ? Buffer.from(bytes).toString("base64") : image.data;
    let finalType: string = mimeType;
    let note: string | undefined;
    if (autoResize) {
      const fitted = await prepareImage(bytes, mimeType);
      if (!fitted) {
        prepared.hints.push(NOT_RESIZABLE);
        continue;
      }
      data = fitted.data;
      finalType = fitted.mimeType;
      note = dimensionNote(fitted);
    }
    if (convertedFrom && convertedFrom !== finalType) prepared.hints.push(`[Image converted from ${convertedFrom} to ${finalType}.]`);
    if (note) prepared.hints.push(note);
    prepared.images.push({ type: "image", data, mimeType: finalType });
  }
  return prepared;
}

/** The message's text with the hints after it, as upstream joins them. */
export function withImageHints(text: string, hints: readonly string[]): string {
  return hints.length > 0 ? `${text}\n\n${hints.join("\n")}` : text;
}
