/**
 * Which files a summarised stretch of conversation read or changed, taken from the `read`,
 * `write` and `edit` tool calls, and carried from one summary to the next through the entry's
 * `details` so a file stays listed after the messages that touched it are gone.
 */
import * as v from "valibot";
import { canonicalBlock } from "../session/convert.ts";
import { NestedToolCallsSchema, type AgentMessage } from "../session/format.ts";

export interface FileOps {
  readonly read: Set<string>;
  readonly written: Set<string>;
  readonly edited: Set<string>;
}

/** The file lists stored in a compaction's or branch summary's `details`. */
export interface FileLists {
  readFiles: string[];
  modifiedFiles: string[];
}

export function createFileOps(): FileOps {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

function addFileOp(name: string, args: unknown, ops: FileOps): void {
  if (typeof args !== "object" || args === null) return;
  const path = (args as { path?: unknown }).path;
  if (typeof path !== "string" || path === "") return;
  if (name === "read") ops.read.add(path);
  else if (name === "write") ops.written.add(path);
  else if (name === "edit") ops.edited.add(path);
}

/**
 * Adds the paths of an assistant message's `read` / `write` / `edit` calls (string `path` only),
 * and of those a tool made through `ctx.executeTool`, recorded on its result (`nestedCalls`, Pi 1.x).
 */
export function addFileOpsFromMessage(message: AgentMessage, ops: FileOps): void {
  if (message.role === "toolResult") {
    const parsed = v.safeParse(NestedToolCallsSchema, (message as { nestedCalls?: unknown }).nestedCalls);
    if (parsed.success) for (const call of parsed.output.calls) addFileOp(call.name, call.arguments, ops);
    return;
  }
  if (message.role !== "assistant") return;
  const content = (message as { content?: unknown }).content;
  if (!Array.isArray(content)) return;
  for (const raw of content) {
    if (typeof raw !== "object" || raw === null || typeof (raw as { type?: unknown }).type !== "string") continue;
    // `tool_use` blocks (another writer's spelling) count as tool calls, as everywhere in pig.
    const block = canonicalBlock(raw as { type: string });
    if (block?.type === "toolCall") addFileOp(block.name, block.arguments, ops);
  }
}

const StoredListsSchema = v.looseObject({
  readFiles: v.optional(v.unknown()),
  modifiedFiles: v.optional(v.unknown()),
});

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * Seeds `ops` from the `details` of an earlier summary written by pig or Pi (callers skip
 * extension-written ones): read files stay read, modified files count as edited.
 */
export function addFileOpsFromDetails(details: unknown, ops: FileOps): void {
  const parsed = v.safeParse(StoredListsSchema, details);
  if (!parsed.success) return;
  for (const path of stringsOf(parsed.output.readFiles)) ops.read.add(path);
  for (const path of stringsOf(parsed.output.modifiedFiles)) ops.edited.add(path);
}

/** Sorted lists: every written or edited file, and the files that were only read. */
export function computeFileLists(ops: FileOps): FileLists {
  const modified = new Set([...ops.edited, ...ops.written]);
  return {
    readFiles: [...ops.read].filter((path) => !modified.has(path)).sort(),
    modifiedFiles: [...modified].sort(),
  };
}

/** The block appended to a summary: empty when no file was touched. */
export function formatFileLists(lists: FileLists): string {
  const sections: string[] = [];
  if (lists.readFiles.length > 0) sections.push(`<read-files>\n${lists.readFiles.join("\n")}\n</read-files>`);
  if (lists.modifiedFiles.length > 0) sections.push(`<modified-files>\n${lists.modifiedFiles.join("\n")}\n</modified-files>`);
  return sections.length === 0 ? "" : `\n\n${sections.join("\n\n")}`;
}
