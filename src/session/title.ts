/**
 * The words a user message — and so a session — is known by: what the user typed, not what pig
 * put around it. Session lists, `/resume`, trees and the HTML export all name a message this way.
 *
 * - `typedText`, when the message has it (pig records it when the text sent differs from the
 *   text typed: a prompt template or `/skill:` expanded, `@file` mentions attached), is the answer.
 * - Otherwise the text is read: `<file name="…">` blocks of attachments are left out, and a
 *   `<skill …>` block gives the words typed after the command, else `/skill:<name>`.
 * - A message with no words of its own is named by what it carries: `[file a.ts]`, `[image]`.
 */
import { basename } from "node:path";
import { isPlainObject } from "../util/plain-object.ts";

/**
 * From the first attached file's opening tag to the last closing tag: the files come first, one
 * after another, and a file's own text may contain `</file>`, so the last one ends the run.
 */
const FILE_RUN = /<file name="[^"]*">[\s\S]*<\/file>\n?/;
const FILE_NAME = /<file name="([^"]*)">/g;
/** A `/skill:` expansion: the skill's body in one element, then the arguments after a blank line. */
const SKILL_BLOCK = /^<skill name="([^"]*)" location="[^"]*">[\s\S]*<\/skill>/;

/**
 * A message's text with its attached files taken out: their names, and the text before and
 * after the run of `<file>` blocks (empty when there are none).
 */
export function splitAttachedFiles(text: string): { files: string[]; before: string; after: string } {
  const run = FILE_RUN.exec(text);
  if (!run) return { files: [], before: text, after: "" };
  const files = [...run[0].matchAll(FILE_NAME)].map((match) => match[1]!);
  return { files, before: text.slice(0, run.index), after: text.slice(run.index + run[0].length) };
}

/** The user's own words in a message's text (see the module comment), or "" when it has none. */
export function typedWords(text: string): { words: string; files: string[] } {
  const { files, before, after } = splitAttachedFiles(text);
  let rest = (before + after).trim();
  const skill = SKILL_BLOCK.exec(rest);
  if (skill) {
    const args = rest.slice(skill[0].length).trim();
    rest = args || `/skill:${skill[1]}`;
  }
  return { words: rest, files };
}

/**
 * The text to give back to an editor for a user message (`/fork`): what was typed when pig
 * recorded it, else the text sent (the message's text blocks, as upstream gives them back).
 */
export function editableText(message: unknown, sent: string): string {
  return isPlainObject(message) && typeof message.typedText === "string" ? message.typedText : sent;
}

/**
 * What a user message is called: the words typed, else `[file …]` for attached files and
 * `[image]` (`[N images]`) for images alone; "" for a message with nothing in it. Messages of
 * any shape are read, never thrown on.
 */
export function userMessageTitle(message: unknown): string {
  if (!isPlainObject(message)) return "";
  if (typeof message.typedText === "string" && message.typedText.trim()) return message.typedText.trim();
  const content = message.content;
  const blocks: unknown[] = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  const texts: string[] = [];
  let images = 0;
  for (const block of blocks) {
    if (!isPlainObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    else if (block.type === "image") images++;
  }
  const { words, files } = typedWords(texts.join(" "));
  if (words) return words;
  if (files.length > 0) return files.map((file) => `[file ${basename(file)}]`).join(" ");
  if (images > 0) return images === 1 ? "[image]" : `[${images} images]`;
  return "";
}
