/**
 * Pi's `copyToClipboard(text)` for extensions: the platform's clipboard tool, as `/copy` finds
 * it. An extension's process has no terminal (its output goes nowhere), so there is no OSC 52
 * fallback here: when no tool takes the text the promise rejects, as upstream's does when it
 * cannot copy.
 */
import { CLIPBOARD_TOOL_HINT, clipboardTools, copyToClipboard as copyWith } from "../../util/clipboard.ts";

/** Resolves once a tool has the text; rejects with "Clipboard unavailable: …" otherwise. */
export async function copyToClipboard(text: string): Promise<void> {
  if (typeof text !== "string") throw new TypeError("copyToClipboard: text: must be a string");
  const { tool, tried } = await copyWith(text, clipboardTools);
  if (tool) return;
  throw new Error(tried.length > 0 ? `Clipboard unavailable: ${tried.join(", ")} failed` : `Clipboard unavailable: no clipboard tool found (${CLIPBOARD_TOOL_HINT})`);
}
