/**
 * The first prompt of a non-interactive run: piped stdin, `@file` attachments and the message
 * words, as upstream builds it (files as `<file name="…">` blocks, images attached).
 */
import { existsSync, readFileSync, readSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { CliError } from "../cli/errors.ts";
import { detectImageMime, dimensionNote, prepareImage } from "../tools/image.ts";
import { isTerminal } from "../util/libc.ts";

export interface PromptInput {
  text: string;
  images: { type: "image"; data: string; mimeType: string }[];
}

/** Reads piped stdin completely; nothing when stdin is a terminal. */
export async function readPipedStdin(): Promise<string | undefined> {
  if (isTerminal(0)) return undefined;
  const text = (await readAllStdin()).trim();
  return text || undefined;
}

/** Blocking reads are the quickest way in, as pig has nothing else to do meanwhile. */
async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EOF" || code === "EBADF") break;
      if (code !== "EAGAIN") throw error;
      // stdin was left non-blocking by whoever started pig: wait for the rest instead.
      chunks.push(Buffer.from(await Bun.stdin.arrayBuffer()));
      break;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The text and images of `@file` arguments: text files inline, images attached (scaled down when
 * too large). A missing file is an error naming it.
 */
export async function readFileArgs(files: readonly string[], cwd: string): Promise<PromptInput> {
  let text = "";
  const images: PromptInput["images"] = [];
  for (const file of files) {
    const path = isAbsolute(file) ? file : resolve(cwd, file);
    if (!existsSync(path) || !statSync(path).isFile()) throw new CliError(`Error: File not found: ${path}`);
    const bytes = readFileSync(path);
    if (bytes.length === 0) continue;
    const mime = detectImageMime(bytes);
    if (mime) {
      const image = await prepareImage(bytes, mime);
      if (!image) {
        text += `<file name="${path}">[Image omitted: could not be resized below the inline image size limit.]</file>\n`;
        continue;
      }
      images.push({ type: "image", mimeType: image.mimeType, data: image.data });
      text += `<file name="${path}">${dimensionNote(image) ?? ""}</file>\n`;
    } else {
      text += `<file name="${path}">\n${bytes.toString("utf8")}\n</file>\n`;
    }
  }
  return { text, images };
}

/**
 * The prompts to send: the first joins stdin, the files and the first message; each further
 * message is its own prompt. Unlike upstream, stdin and the message are separated by a blank line.
 */
export function buildPrompts(stdin: string | undefined, files: PromptInput, messages: readonly string[]): PromptInput[] {
  const [first, ...rest] = messages;
  const head = [stdin, files.text + (first ?? "")].filter((part) => part !== undefined && part !== "").join("\n\n");
  const prompts: PromptInput[] = [];
  if (head || files.images.length > 0) prompts.push({ text: head, images: files.images });
  for (const message of rest) prompts.push({ text: message, images: [] });
  return prompts;
}
