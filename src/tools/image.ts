/**
 * Images for the read tool: recognised by their first bytes (only the four formats every vision
 * API takes), and shrunk with Bun's built-in codecs when they are larger than providers accept
 * inline: more than 2000 px on a side, or 4.5 MB once base64-encoded. Extensions ask for other
 * limits through the same code (Pi's `resizeImage`).
 */

export type ImageMime = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

export const MAX_IMAGE_SIDE = 2000;
export const MAX_IMAGE_BASE64_BYTES = 4.5 * 1024 * 1024;

/** What an image may be once prepared: sides in pixels, size once base64-encoded. */
export interface ImageLimits {
  maxWidth: number;
  maxHeight: number;
  maxBase64Bytes: number;
  /** The first JPEG quality tried; lower ones follow when the image is still too large. */
  jpegQuality: number;
}

export const DEFAULT_IMAGE_LIMITS: Readonly<ImageLimits> = {
  maxWidth: MAX_IMAGE_SIDE,
  maxHeight: MAX_IMAGE_SIDE,
  maxBase64Bytes: MAX_IMAGE_BASE64_BYTES,
  jpegQuality: 80,
};

/** JPEG qualities tried after the first, in order. */
const LOWER_JPEG_QUALITIES = [85, 70, 55, 40];

/** Enough of the file to recognise any of the supported formats. */
export const IMAGE_SNIFF_BYTES = 4100;

function startsWith(bytes: Uint8Array, prefix: number[], at = 0): boolean {
  return prefix.every((b, i) => bytes[at + i] === b);
}

/** The image type the bytes start with, if it is one of the supported four. */
export function detectImageMime(bytes: Uint8Array): ImageMime | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return "image/gif";
  }
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}

export function base64Length(byteCount: number): number {
  return Math.ceil(byteCount / 3) * 4;
}

export interface PreparedImage {
  data: string;
  mimeType: string;
  /** Set when the image was scaled down, for the coordinate note. */
  resized?: { originalWidth: number; originalHeight: number; width: number; height: number };
}

/** An image fitted to limits, with its sizes before and after. */
export interface FittedImage {
  data: string;
  mimeType: string;
  originalWidth: number;
  originalHeight: number;
  width: number;
  height: number;
  /** Whether `data` was encoded anew (scaled, or only re-encoded to meet the byte limit). */
  reencoded: boolean;
}

/** Fits `width`×`height` into the limits, keeping the aspect ratio. */
function fitInside(width: number, height: number, limits: ImageLimits): { width: number; height: number } {
  const scale = Math.min(1, limits.maxWidth / width, limits.maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

async function encodeAt(bytes: Uint8Array, width: number, height: number, limits: ImageLimits): Promise<{ data: string; mimeType: string } | undefined> {
  const qualities = [...new Set([limits.jpegQuality, ...LOWER_JPEG_QUALITIES])];
  const attempts: Array<{ mimeType: string; run: () => Promise<Uint8Array> }> = [
    { mimeType: "image/png", run: () => new Bun.Image(bytes).resize(width, height).png().bytes() },
    ...qualities.map((quality) => ({
      mimeType: "image/jpeg",
      run: () => new Bun.Image(bytes).resize(width, height).jpeg({ quality }).bytes(),
    })),
  ];
  for (const attempt of attempts) {
    const out = await attempt.run();
    if (base64Length(out.length) < limits.maxBase64Bytes) {
      return { data: Buffer.from(out).toString("base64"), mimeType: attempt.mimeType };
    }
  }
  return undefined;
}

/**
 * The image within `limits`: unchanged when it already is, else scaled down (a quarter off each
 * side per step) and re-encoded as the smallest of PNG and JPEG that fits. `undefined` when it
 * cannot be decoded or made small enough.
 */
export async function fitImage(bytes: Uint8Array, mimeType: string, limits: ImageLimits = DEFAULT_IMAGE_LIMITS): Promise<FittedImage | undefined> {
  let meta: { width: number; height: number };
  try {
    meta = await new Bun.Image(bytes).metadata();
  } catch {
    return undefined;
  }
  const original = { originalWidth: meta.width, originalHeight: meta.height };
  const fitsSides = meta.width <= limits.maxWidth && meta.height <= limits.maxHeight;
  if (fitsSides && base64Length(bytes.length) < limits.maxBase64Bytes) {
    return { data: Buffer.from(bytes).toString("base64"), mimeType, ...original, width: meta.width, height: meta.height, reencoded: false };
  }
  let { width, height } = fitInside(meta.width, meta.height, limits);
  try {
    for (;;) {
      const encoded = await encodeAt(bytes, width, height, limits);
      if (encoded) return { ...encoded, ...original, width, height, reencoded: true };
      if (width === 1 && height === 1) return undefined;
      width = Math.max(1, Math.floor(width * 0.75));
      height = Math.max(1, Math.floor(height * 0.75));
    }
  } catch {
    return undefined;
  }
}

/**
 * The image as it should be sent to a provider: within the default limits. `undefined` when it
 * cannot be decoded or made small enough.
 */
export async function prepareImage(bytes: Uint8Array, mimeType: ImageMime): Promise<PreparedImage | undefined> {
  const fitted = await fitImage(bytes, mimeType);
  if (!fitted) return undefined;
  const { data, originalWidth, originalHeight, width, height } = fitted;
  // Re-encoded only for the byte limit at the same size: nothing to map back.
  if (width === originalWidth && height === originalHeight) return { data, mimeType: fitted.mimeType };
  return { data, mimeType: fitted.mimeType, resized: { originalWidth, originalHeight, width, height } };
}

/** Tells the model how to map coordinates on a scaled image back to the original. */
export function dimensionNote(image: PreparedImage): string | undefined {
  const r = image.resized;
  if (!r) return undefined;
  const factor = (r.originalWidth / r.width).toFixed(2);
  return `[Image: original ${r.originalWidth}x${r.originalHeight}, displayed at ${r.width}x${r.height}. Multiply coordinates by ${factor} to map to original image.]`;
}
