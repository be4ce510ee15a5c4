/**
 * The one bound on what any tool's result puts before the model: at most `maxLines` lines and
 * `maxBytes` bytes of text (Pi's 2000 lines and 50 KB unless the `toolOutput` setting says
 * otherwise). The built-in tools keep within it themselves, each with a notice that says how to
 * see more; every other tool (an extension's, a program's) is cut here, from the head, with the
 * whole text kept in a private file whose path the notice gives the model.
 */
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead, type TruncationResult } from "./truncate.ts";
import { processSpillFiles, type SpillFiles } from "./spill-files.ts";
import type { ToolContent, ToolResult } from "./types.ts";

export interface OutputLimits {
  maxLines: number;
  maxBytes: number;
}

/** The limits the built-ins keep to (Pi's), and the bound when the setting gives none. */
export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES };

/** Whether a result is already cut to the limits by its tool (which says so in `details.truncation`, as the built-ins do). */
function boundByItsTool(result: ToolResult): boolean {
  const details = result.details;
  return typeof details === "object" && details !== null && "truncation" in details;
}

/** The longest prefix of `text` within `maxBytes`, never ending inside a UTF-8 sequence. */
function firstBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  let end = Math.min(maxBytes, bytes.length);
  // Continuation bytes look like 10xxxxxx: a cut before one splits a character.
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

function keptText(text: string, t: TruncationResult, limits: OutputLimits): { kept: string; shown: string } {
  if (t.firstLineExceedsLimit) {
    const line = text.split("\n", 1)[0] ?? "";
    const kept = firstBytes(line, limits.maxBytes);
    return { kept, shown: `Showing first ${formatSize(Buffer.byteLength(kept))} of line 1 (line is ${formatSize(Buffer.byteLength(line))})` };
  }
  const limit = t.truncatedBy === "bytes" ? ` (${formatSize(limits.maxBytes)} limit)` : "";
  return { kept: t.content, shown: `Showing lines 1-${t.outputLines} of ${t.totalLines}${limit}` };
}

function fullOutputNote(text: string, spillFiles: SpillFiles): string {
  try {
    return `Full output: ${spillFiles.write(text, "tool")}`;
  } catch (error) {
    return `Full output could not be saved: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * The result with its text cut to the limits and the cut noted at the end, or the result itself
 * when it fits or its tool has cut it already. Images are kept; the text blocks become one.
 */
export function boundToolResult(result: ToolResult, limits: OutputLimits, spillFiles: SpillFiles = processSpillFiles): ToolResult {
  if (boundByItsTool(result)) return result;
  const texts = result.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
  if (texts.length === 0) return result;
  const text = texts.join("\n");
  const truncation = truncateHead(text, limits);
  if (!truncation.truncated) return result;
  const { kept, shown } = keptText(text, truncation, limits);
  const bounded: ToolContent = { type: "text", text: `${kept}\n\n[${shown}. ${fullOutputNote(text, spillFiles)}]` };
  // The one text block takes the place of the first; images stay where they were.
  const first = result.content.findIndex((block) => block.type === "text");
  const content = result.content.flatMap((block, index): ToolContent[] => (index === first ? [bounded] : block.type === "text" ? [] : [block]));
  return { ...result, content };
}
