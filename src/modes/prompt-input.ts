/**
 * The first prompt of a non-interactive run: piped stdin, `@file` attachments and the message
 * words, as upstream builds it (files as `<file name="…">` blocks, images attached).
 */
import { readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { UserError } from "../runtime/errors.ts";
import { nonTextKind, notTextReason } from "../tools/file-kind.ts";
import { detectImageMime, dimensionNote, prepareImage } from "../tools/image.ts";
import { isTerminal } from "../util/libc.ts";
import { unreadableReason } from "../util/config-read.ts";

export interface PromptInput {
  text: string;
  images: { type: "image"; data: string; mimeType: string }[];
  /** What the user typed of `text`, when it holds more (piped stdin): the session's title comes from it. */
  typed?: string;
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
 * What an `@path` naming a directory is, in words after "is": a directory is not attached (its
 * files may be many, or huge); the user is shown how to name one of its files instead.
 */
function directoryReason(written: string, path: string): string {
  let entries: { name: string; file: boolean }[] = [];
  try {
    entries = readdirSync(path, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith("."))
      .map((entry) => ({ name: entry.name, file: entry.isFile() }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    // An unreadable directory: no example to give.
  }
  const dir = written.replace(/\/+$/, "");
  const file = entries.find((e) => e.file);
  if (file) return `a directory; attach files inside it, e.g. @${dir}/${file.name}`;
  if (entries.length > 0) return `a directory; attach files inside it (in ${entries.map((e) => `@${dir}/${e.name}/`).slice(0, 3).join(", ")})`;
  return "an empty directory; attach files, not directories";
}

export interface Unattachable {
  kind: "missing" | "directory" | "unreadable" | "not-text";
  /** In words: "no such file: /abs/path", "a directory; attach files inside it, e.g. @src/a.ts". */
  reason: string;
}

/** Why `@written` (at `path`) cannot be attached, or undefined when it is a file that can be. */
export function unattachable(written: string, path: string): Unattachable | undefined {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    const reason = unreadableReason(error);
    return reason ? { kind: "unreadable", reason } : { kind: "missing", reason: `no such file: ${path}` };
  }
  if (stat.isDirectory()) return { kind: "directory", reason: directoryReason(written, path) };
  if (!stat.isFile()) return { kind: "unreadable", reason: `not a regular file: ${path}` };
  return undefined;
}

/** The one-line error for an `@file` argument that cannot be attached. */
function fileArgError(written: string, problem: Unattachable): UserError {
  return new UserError(problem.kind === "directory" ? `@${written} is ${problem.reason}` : `@${written}: ${problem.reason}`);
}

/**
 * The text and images of `@file` arguments: text files inline, images attached (scaled down when
 * too large). A missing file, a directory, a file that cannot be read or one that is not text
 * (tools/file-kind.ts) is an error naming it.
 */
export async function readFileArgs(files: readonly string[], cwd: string): Promise<PromptInput> {
  let text = "";
  const images: PromptInput["images"] = [];
  for (const file of files) {
    const path = isAbsolute(file) ? file : resolve(cwd, file);
    const problem = unattachable(file, path);
    if (problem) throw fileArgError(file, problem);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw fileArgError(file, { kind: "unreadable", reason: unreadableReason(error) ?? `no such file: ${path}` });
    }
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
      // A file that is not text is refused as a mention of it in the prompt is (attachments.ts).
      const nonText = nonTextKind(bytes);
      if (nonText) throw fileArgError(file, { kind: "not-text", reason: `not ${notTextReason(nonText, bytes.length)}` });
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
  // Piped text is not the user's words: a title never shows it (it may be a file's contents).
  const typed = stdin ? (first ?? "[piped input]") : undefined;
  if (head || files.images.length > 0) prompts.push({ text: head, images: files.images, ...(typed !== undefined ? { typed } : {}) });
  for (const message of rest) prompts.push({ text: message, images: [] });
  return prompts;
}
