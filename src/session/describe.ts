/**
 * One line about an entry, for trees (`pig sessions tree`, `/tree`, RPC `get_tree`): its kind
 * and the first line of its text. Entries of any shape are described, never thrown on.
 */
import type { AgentMessage, SessionEntry } from "./format.ts";
import type { EntryRecord } from "./records.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { userMessageTitle } from "./title.ts";

const PREVIEW = 60;

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim()) ?? "";
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}…` : line;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const text = content.find((b: { type?: string }) => b.type === "text") as { text?: string } | undefined;
  if (text?.text) return text.text;
  const call = content.find((b: { type?: string }) => b.type === "toolCall" || b.type === "tool_use") as { name?: string } | undefined;
  return call ? `→ ${call.name}` : "";
}

/** What a system message declares or changes: its sections by name, then tools added (+) and removed (−). */
function systemChanges(m: Record<string, unknown>): string {
  const parts: string[] = [];
  if (m.replace === true) parts.push("starts over:");
  if (contentText(m.content)) parts.push("instructions");
  const sections = isPlainObject(m.sections) ? Object.entries(m.sections) : [];
  if (sections.length > 0) parts.push(sections.map(([name, text]) => (text === null ? `−${name}` : name)).join(", "));
  const names = (list: unknown, sign: string) => (Array.isArray(list) ? list.flatMap((t: { name?: unknown }) => (typeof t?.name === "string" ? [`${sign}${t.name}`] : [])) : []);
  const tools = [...names(m.toolsAdded, "+"), ...names(m.toolsRemoved, "−")];
  if (tools.length > 0) parts.push(`tools ${tools.join(" ")}`);
  return parts.length > 0 ? parts.join(" · ") : "(no change)";
}

/** A short description of an entry: its kind and the first line of its text. */
export function describeEntry(entry: SessionEntry): string {
  const e = entry as Record<string, unknown>;
  switch (entry.type) {
    case "message": {
      if (!isPlainObject(e.message)) return "message (without a message object)";
      const m = e.message as AgentMessage & Record<string, unknown>;
      if (m.role === "system") return `prompt  ${systemChanges(m)}`;
      const text =
        m.role === "bashExecution"
          ? `! ${m.command}`
          : m.role === "toolResult"
            ? `${m.toolName}: ${contentText(m.content)}`
            : m.role === "user"
              ? userMessageTitle(m)
              : contentText(m.content);
      const state = m.role === "assistant" && (m.stopReason === "error" || m.stopReason === "aborted") ? ` (${m.stopReason})` : "";
      return `${m.role}${state}  ${firstLine(text)}`;
    }
    case "model_change":
      return `model → ${e.provider}/${e.modelId}`;
    case "thinking_level_change":
      return `thinking → ${e.thinkingLevel}`;
    case "compaction":
      return `compaction  ${firstLine(String(e.summary ?? ""))}`;
    case "branch_summary":
      return `branch summary  ${firstLine(String(e.summary ?? ""))}`;
    case "custom":
      return `custom ${e.customType}`;
    case "custom_message":
      return `custom message ${e.customType}  ${firstLine(contentText(e.content))}`;
    case "label":
      return e.label ? `label ${e.targetId} = ${e.label}` : `label ${e.targetId} cleared`;
    case "session_info":
      return `name → ${e.name ?? ""}`;
    case "context_edit":
      return `context edit  ${e.replacement === null ? "hides" : "replaces"} ${e.targetId} (pig does not apply it)`;
    case "usage": {
      const usage = isPlainObject(e.usage) ? (e.usage as { totalTokens?: unknown }) : {};
      return `usage ${e.kind}  ${e.provider}/${e.model} ${typeof usage.totalTokens === "number" ? `${usage.totalTokens} tokens` : ""}`.trimEnd();
    }
    default:
      return `${entry.type} (unknown entry type)`;
  }
}

/** `describeEntry` for entries of any shape: a damaged one is said to be so, never thrown on. */
export function describeSafely(entry: SessionEntry): string {
  try {
    return describeEntry(entry);
  } catch {
    return `${String(entry.type)} (damaged: its fields are not what the type needs)`;
  }
}

/** The description of a record, read with `read`; a line that cannot be read is said to be so. */
export function describeRecord(record: EntryRecord, read: (record: EntryRecord) => SessionEntry | undefined): string {
  const entry = read(record);
  return entry ? describeSafely(entry) : `${record.type} (line ${record.line} is not valid JSON)`;
}
