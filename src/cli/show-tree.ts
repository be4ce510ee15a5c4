/** `pig sessions tree`: the entry tree, indented at branch points, with the active path marked. */
import type { AgentMessage, SessionEntry } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import type { TreeNode } from "../session/tree.ts";
import type { Output } from "./output.ts";
import { isPlainObject } from "../util/plain-object.ts";

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

/** A short description of an entry: its kind and the first line of its text. */
export function describeEntry(entry: SessionEntry): string {
  const e = entry as Record<string, unknown>;
  switch (entry.type) {
    case "message": {
      if (!isPlainObject(e.message)) return "message (without a message object)";
      const m = e.message as AgentMessage & Record<string, unknown>;
      const text =
        m.role === "bashExecution" ? `! ${m.command}` : m.role === "toolResult" ? `${m.toolName}: ${contentText(m.content)}` : contentText(m.content);
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

export function writeTree(out: Output, store: SessionStore): void {
  // By record, not id: with an id used twice only the entry that owns it is on the branch.
  const active = new Set(store.branchRecords());
  const leaf = store.leafId === null ? undefined : store.tree.get(store.leafId);
  const links = store.tree.links();
  const dangling = new Set(links.dangling);
  const cuts = new Set(links.cycles.map((c) => c.cut));
  out.line(`session ${store.sessionId}${store.name ? `  "${store.name}"` : ""}  ${store.path ?? ""}`);
  const walk = (nodes: TreeNode[], indent: string): void => {
    // A chain of only children stays at one indent; a branch point indents its children.
    let siblings = nodes;
    let pad = indent;
    for (;;) {
      if (siblings.length === 1) {
        const node = siblings[0]!;
        line(node, pad);
        siblings = node.children;
        continue;
      }
      siblings.forEach((node, index) => {
        const lastChild = index === siblings.length - 1;
        line(node, `${pad}${lastChild ? "└─ " : "├─ "}`);
        walk(node.children, `${pad}${lastChild ? "   " : "│  "}`);
      });
      return;
    }
  };
  const line = (node: TreeNode, prefix: string): void => {
    const record = node.record;
    const marker = active.has(record) ? "*" : " ";
    const label = node.label ? `  [${node.label}]` : "";
    const here = record === leaf ? "  ← leaf" : "";
    const damage = dangling.has(record)
      ? `  (parent ${record.parentId} missing)`
      : cuts.has(record)
        ? `  (parent cycle cut here; parent ${record.parentId})`
        : "";
    const entry = store.readEntry(record);
    const what = entry ? describeSafely(entry) : `${record.type} (line ${record.line} is not valid JSON)`;
    out.line(`${marker} ${prefix}${record.id}  ${what}${label}${damage}${here}`);
  };
  walk(store.tree.toNodes(), "");
}
