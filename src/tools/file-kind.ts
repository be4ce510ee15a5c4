/**
 * Whether a file's bytes are text, and when they are not, what they are in words ("ELF
 * executable", "zip archive"). The one rule for every place that shows or sends a file's
 * contents: the `read` tool, `@file` arguments and `@path` mentions. Bytes that are not text
 * are described, never dumped: they would mean nothing to the model and flood the terminal.
 */
import { formatSize } from "./truncate.ts";

/** How much of a file's start decides: enough for every signature below and a fair sample of its text. */
export const KIND_SNIFF_BYTES = 8192;

interface Signature {
  at: number;
  bytes: readonly number[];
  name: string;
  /** Short or printable enough to start a text file: names a file only when its bytes are not text anyway. */
  weak?: true;
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/**
 * Formats whose start says what they are; the ones a text file could begin with by chance are
 * marked weak. Images pig sends as images are detected before this
 * (tools/image.ts); the others are named here.
 */
const SIGNATURES: readonly Signature[] = [
  { at: 0, bytes: [0x7f, ...ascii("ELF")], name: "ELF executable" },
  { at: 0, bytes: [0xfe, 0xed, 0xfa, 0xce], name: "Mach-O executable" },
  { at: 0, bytes: [0xfe, 0xed, 0xfa, 0xcf], name: "Mach-O executable" },
  { at: 0, bytes: [0xce, 0xfa, 0xed, 0xfe], name: "Mach-O executable" },
  { at: 0, bytes: [0xcf, 0xfa, 0xed, 0xfe], name: "Mach-O executable" },
  { at: 0, bytes: [0x00, ...ascii("asm")], name: "WebAssembly module" },
  { at: 0, bytes: ascii("%PDF-"), name: "PDF document" },
  { at: 0, bytes: [...ascii("PK"), 0x03, 0x04], name: "zip archive" },
  { at: 0, bytes: [...ascii("PK"), 0x05, 0x06], name: "zip archive" },
  { at: 0, bytes: [0x1f, 0x8b], name: "gzip archive" },
  { at: 0, bytes: ascii("BZh"), name: "bzip2 archive", weak: true },
  { at: 0, bytes: [0xfd, ...ascii("7zXZ"), 0x00], name: "xz archive" },
  { at: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd], name: "zstd archive" },
  { at: 0, bytes: [...ascii("7z"), 0xbc, 0xaf, 0x27, 0x1c], name: "7-zip archive" },
  { at: 257, bytes: ascii("ustar"), name: "tar archive", weak: true },
  { at: 0, bytes: [...ascii("SQLite format 3"), 0x00], name: "SQLite database" },
  { at: 0, bytes: ascii("BM"), name: "BMP image", weak: true },
  { at: 0, bytes: [...ascii("II*"), 0x00], name: "TIFF image" },
  { at: 0, bytes: [...ascii("MM"), 0x00, 0x2a], name: "TIFF image" },
  { at: 0, bytes: [0x00, 0x00, 0x01, 0x00], name: "ICO image" },
  { at: 4, bytes: ascii("ftyp"), name: "MP4/QuickTime media", weak: true },
  { at: 0, bytes: ascii("OggS"), name: "Ogg media", weak: true },
  { at: 0, bytes: ascii("fLaC"), name: "FLAC audio", weak: true },
  { at: 0, bytes: ascii("ID3"), name: "MP3 audio", weak: true },
  { at: 0, bytes: ascii("RIFF"), name: "RIFF media (WAV/AVI)", weak: true },
  { at: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3], name: "Matroska/WebM media" },
  { at: 0, bytes: ascii("wOFF"), name: "WOFF font", weak: true },
  { at: 0, bytes: ascii("wOF2"), name: "WOFF2 font", weak: true },
  { at: 0, bytes: [0x00, 0x01, 0x00, 0x00, 0x00], name: "TrueType font" },
  { at: 0, bytes: [0xca, 0xfe, 0xba, 0xbe], name: "Java class or universal Mach-O binary" },
  { at: 0, bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], name: "Microsoft Office (OLE) document" },
  { at: 0, bytes: [0xff, 0xfe], name: "UTF-16 text (little-endian)" },
  { at: 0, bytes: [0xfe, 0xff], name: "UTF-16 text (big-endian)" },
];

function matches(head: Uint8Array, signature: Signature): boolean {
  if (head.length < signature.at + signature.bytes.length) return false;
  return signature.bytes.every((byte, i) => head[signature.at + i] === byte);
}

/** Whether `head` is valid UTF-8, a character cut off at its end allowed (the sample may end inside one). */
function isUtf8(head: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** A file that is not text: binary (of a known format or not), or else text in another encoding than UTF-8. */
export interface NonText {
  binary: boolean;
  format?: string;
}

/**
 * What a file whose first bytes are `head` is, when it is not text; undefined for text. Text
 * means UTF-8 (ASCII included) without NULs, as git and grep decide, and not of a format known
 * to be binary.
 */
export function nonTextKind(head: Uint8Array): NonText | undefined {
  const sample = head.subarray(0, KIND_SNIFF_BYTES);
  const signature = SIGNATURES.find((s) => matches(sample, s));
  if (signature && !signature.weak) return { binary: true, format: signature.name };
  if (!sample.includes(0) && isUtf8(sample)) return undefined;
  if (signature) return { binary: true, format: signature.name };
  // Mostly printable bytes that are not UTF-8: text in another encoding (Latin-1, Windows-1252).
  return looksLikeLegacyText(sample) ? { binary: false } : { binary: true };
}

/** Why a file is not sent as text, after "not …": `a text file (ELF executable, 1.0KB)`. */
export function notTextReason(kind: NonText, size: number): string {
  if (!kind.binary) return `UTF-8 text (${formatSize(size)}, in Latin-1 or another encoding)`;
  return `a text file (${kind.format ? `${kind.format}, ` : "binary, "}${formatSize(size)})`;
}

/** What `read` returns for a file that is not text, to the model and the screen: what it is and how to look further. */
export function notTextNote(path: string, kind: NonText, size: number): string {
  if (!kind.binary) {
    return `[Not UTF-8 text (${formatSize(size)}, in Latin-1 or another encoding): not shown. Read it converted with bash, e.g. iconv -f latin1 -t utf-8 ${path}]`;
  }
  const what = kind.format ? `${kind.format}, ${formatSize(size)}` : formatSize(size);
  return `[Binary file (${what}): not shown, as its bytes are not text. Inspect it with bash if needed (file, strings, xxd | head).]`;
}

/** Few control characters and no NUL: a text file written in a legacy encoding rather than binary data. */
function looksLikeLegacyText(sample: Uint8Array): boolean {
  if (sample.includes(0)) return false;
  let control = 0;
  for (const byte of sample) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) control++;
  return control * 100 <= sample.length;
}
