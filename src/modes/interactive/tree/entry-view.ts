/**
 * What one session entry is in `/tree`: its kind (which decides the filters and the colour) and
 * one line of text. Tool results read as the call that made them (`[bash: npm test]`), model,
 * thinking and name changes are internal. Entries of any shape are described, never thrown on.
 * The text is the session's as written: the tree's screen makes it safe for the terminal.
 */
import { textOf } from "../../../export/html-entries.ts";
import { describeRecord } from "../../../session/describe.ts";
import type { SessionEntry } from "../../../session/format.ts";
import type { EntryRecord } from "../../../session/records.ts";
import { userMessageTitle } from "../../../session/title.ts";
import { isPlainObject } from "../../../util/plain-object.ts";
import { callSummary } from "../render/tools.ts";

export type EntryKind = "user" | "assistant" | "tool" | "shell" | "summary" | "custom" | "internal" | "other";

export interface EntryView {
  kind: EntryKind;
  text: string;
  /** A failed tool call, or an answer that ended in an error. */
  failed: boolean;
  /** An answer made of tool calls only: its calls show on their results instead. */
  callsOnly: boolean;
}

/** A tool call as an assistant message made it, found again by the result's `toolCallId`. */
export interface CallMade {
  name: string;
  args: Record<string, unknown>;
}

/** Entry types that change how the session runs rather than what was said. */
const INTERNAL_TYPES = new Set(["model_change", "thinking_level_change", "session_info", "context_edit", "custom"]);

function blocksOf(content: unknown): Record<string, unknown>[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isPlainObject) : [];
}

/** The tool-call blocks of a message's content, by call id. */
function callBlocks(content: unknown): [id: string, call: CallMade][] {
  return blocksOf(content).flatMap((block) =>
    (block.type === "toolCall" || block.type === "tool_use") && typeof block.name === "string"
      ? [[typeof block.id === "string" ? block.id : "", { name: block.name, args: isPlainObject(block.arguments) ? block.arguments : isPlainObject(block.input) ? block.input : {} }] as [string, CallMade]]
      : [],
  );
}

/** The tool calls an assistant message made, by call id. */
export function callsOf(entry: SessionEntry): [id: string, call: CallMade][] {
  if (entry.type !== "message" || !isPlainObject(entry.message) || entry.message.role !== "assistant") return [];
  return callBlocks(entry.message.content).filter(([id]) => id !== "");
}

/** `[bash: npm test]`: the tool and the essence of its arguments, as the conversation shows them. */
export function callLabel(call: CallMade): string {
  const summary = callSummary(call.name, call.args);
  return summary ? `[${call.name}: ${summary}]` : `[${call.name}]`;
}

function describeMessage(message: Record<string, unknown>, calls: ReadonlyMap<string, CallMade>): EntryView {
  const view = (kind: EntryKind, text: string, failed = false, callsOnly = false): EntryView => ({ kind, text, failed, callsOnly });
  switch (message.role) {
    case "user":
      return view("user", userMessageTitle(message));
    case "assistant": {
      const text = textOf(message.content).trim();
      const failed = message.stopReason === "error";
      if (text) return view("assistant", text, failed);
      if (failed) return view("assistant", typeof message.errorMessage === "string" && message.errorMessage ? message.errorMessage : "(error)", true);
      if (message.stopReason === "aborted") return view("assistant", "(aborted)");
      const made = callBlocks(message.content).map(([, call]) => callLabel(call));
      return made.length > 0 ? view("assistant", made.join(" "), false, true) : view("assistant", "(no content)");
    }
    case "toolResult": {
      const call = typeof message.toolCallId === "string" ? calls.get(message.toolCallId) : undefined;
      const name = typeof message.toolName === "string" ? message.toolName : "tool";
      return view("tool", call ? callLabel(call) : `[${name}]`, message.isError === true);
    }
    case "bashExecution":
      return view("shell", `! ${typeof message.command === "string" ? message.command : ""}`, typeof message.exitCode === "number" && message.exitCode !== 0);
    default:
      return view("other", String(message.role));
  }
}

/** The entry of `record` as `/tree` shows it; `calls` holds the tool calls made before it. */
export function describeForTree(record: EntryRecord, read: (record: EntryRecord) => SessionEntry | undefined, calls: ReadonlyMap<string, CallMade>): EntryView {
  const plain = (kind: EntryKind): EntryView => ({ kind, text: describeRecord(record, read), failed: false, callsOnly: false });
  const entry = read(record);
  if (!entry) return plain("other");
  try {
    if (entry.type === "message") {
      if (!isPlainObject(entry.message)) return plain("other");
      if (entry.message.role === "system") return plain("internal");
      return describeMessage(entry.message, calls);
    }
    if (INTERNAL_TYPES.has(entry.type)) return plain("internal");
    if (entry.type === "compaction" || entry.type === "branch_summary") return plain("summary");
    if (entry.type === "custom_message") return plain("custom");
    return plain("other");
  } catch {
    return plain("other");
  }
}
