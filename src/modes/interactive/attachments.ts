/**
 * `@path` mentions in a submitted prompt attach the files they name, as `@file` arguments do on
 * the command line: a text file goes in as a `<file name="…">` block before the message, an
 * image as an attachment. The mention itself stays in the text. Folders, missing files, binary
 * files and text files over the size limit are not attached, and each is reported with why (the
 * model can still look for them with its tools).
 */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { readFileArgs, unattachable, type PromptInput } from "../prompt-input.ts";
import { KIND_SNIFF_BYTES, nonTextKind, notTextReason } from "../../tools/file-kind.ts";
import { detectImageMime } from "../../tools/image.ts";

/** Text files larger than this are left as mentions. */
export const MAX_ATTACHED_TEXT_BYTES = 256 * 1024;

export interface Attached {
  /** The `<file>` blocks to put before the message (empty when nothing was attached), and images. */
  files: PromptInput;
  /** Paths attached, as written in the prompt. */
  attached: string[];
  /** Mentions of files that were not attached, with why. */
  skipped: { path: string; reason: string }[];
}

/** The `@…` mentions of `text`: `@path` up to whitespace, or `@"a path with spaces"`. */
export function mentionedPaths(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/(?:^|\s)@(?:"([^"]+)"|(\S+))/g)) {
    const path = match[1] ?? match[2];
    if (path) out.push(path);
  }
  return out;
}

/** The files `text` mentions, read for sending; the caller puts `files.text` before the (expanded) message. */
export async function attachMentions(text: string, cwd: string): Promise<Attached> {
  const files: string[] = [];
  const attached: string[] = [];
  const skipped: { path: string; reason: string }[] = [];
  for (const mention of mentionedPaths(text)) {
    // A mention at the end of a sentence: "look at @src/app.ts." names src/app.ts.
    const trimmed = mention.replace(/[.,;:!?)\]}'"]+$/, "");
    const candidates = [mention, trimmed];
    const found = candidates.find((p) => p && existsSync(isAbsolute(p) ? p : resolve(cwd, p)));
    // What is not there is said, naming where pig looked: most often a slip in the path.
    const written = found ?? (trimmed || mention);
    const path = isAbsolute(written) ? written : resolve(cwd, written);
    const problem = unattachable(written, path);
    if (problem) {
      if (!skipped.some((s) => s.path === written)) skipped.push({ path: written, reason: problem.reason });
      continue;
    }
    const stat = statSync(path);
    if (files.includes(path)) continue;
    const head = readHead(path);
    const image = detectImageMime(head) !== undefined;
    // The same rule as `@file` arguments and `read` (tools/file-kind.ts), before the size: what a file is matters more.
    const nonText = image ? undefined : nonTextKind(head);
    if (nonText) {
      skipped.push({ path: written, reason: `not ${notTextReason(nonText, stat.size)}` });
      continue;
    }
    if (!image && stat.size > MAX_ATTACHED_TEXT_BYTES) {
      skipped.push({ path: written, reason: `larger than ${MAX_ATTACHED_TEXT_BYTES / 1024} KB` });
      continue;
    }
    files.push(path);
    attached.push(written);
  }
  if (files.length === 0) return { files: { text: "", images: [] }, attached, skipped };
  return { files: await readFileArgs(files, cwd), attached, skipped };
}

/** The first bytes of a file, enough to recognise an image or a binary file. */
function readHead(path: string): Uint8Array {
  const head = Buffer.alloc(KIND_SNIFF_BYTES);
  const fd = openSync(path, "r");
  try {
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}
