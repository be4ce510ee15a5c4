/**
 * Tree navigation, the pure part: which entries of the branch being left get summarised, which
 * of their messages fit the summariser's budget, and where the leaf lands afterwards.
 */
import { branchSummaryMessageOf, compactionSummaryMessageOf, customMessageOf } from "../session/context.ts";
import type {
  AgentMessage,
  BranchSummaryEntry,
  CompactionEntry,
  CustomMessageEntry,
  SessionEntry,
} from "../session/format.ts";
import { messageOf } from "../session/message-of.ts";
import { addFileOpsFromDetails, addFileOpsFromMessage, createFileOps, type FileOps } from "./file-tracking.ts";
import { estimateTokens } from "./tokens.ts";

/** What the walk needs of a tree node: parsed entries and store records both fit. */
export interface TreeLink {
  readonly id: string;
  readonly parentId?: string | null | undefined;
}

export type Lookup<T extends TreeLink> = (id: string) => T | undefined;

/** A lookup over a plain list of entries (the latest entry wins a duplicate id). */
export function lookupOf<T extends TreeLink>(entries: readonly T[]): Lookup<T> {
  const byId = new Map(entries.map((entry) => [entry.id, entry] as const));
  return (id) => byId.get(id);
}

/** Nodes from `id` up to the root (leaf first); a parent loop ends the walk. */
function ancestry<T extends TreeLink>(get: Lookup<T>, id: string): T[] {
  const chain: T[] = [];
  const seen = new Set<string>();
  for (let node = get(id); node && !seen.has(node.id); node = node.parentId ? get(node.parentId) : undefined) {
    seen.add(node.id);
    chain.push(node);
  }
  return chain;
}

export interface BranchCollection<T> {
  /** Entries of the branch left behind, oldest first (compactions included). */
  entries: T[];
  /** The deepest entry on both the old leaf's and the target's path; null when they share none. */
  commonAncestorId: string | null;
}

/**
 * The entries left behind when moving from `oldLeafId` to `targetId`: from the old leaf up to,
 * not including, the deepest entry the two paths share. Nothing without an old leaf.
 */
export function collectEntriesForBranchSummary<T extends TreeLink>(
  get: Lookup<T>,
  oldLeafId: string | null,
  targetId: string,
): BranchCollection<T> {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const oldPath = ancestry(get, oldLeafId);
  const onOldPath = new Set(oldPath.map((node) => node.id));
  // The target's ancestry is leaf first, so the first shared node is the deepest.
  const commonAncestorId = ancestry(get, targetId).find((node) => onOldPath.has(node.id))?.id ?? null;
  const entries: T[] = [];
  for (const node of oldPath) {
    if (node.id === commonAncestorId) break;
    entries.push(node);
  }
  return { entries: entries.reverse(), commonAncestorId };
}

/** The message an entry contributes to a branch summary; tool results are left out (their call says enough). */
export function branchMessageOf(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message": {
      const message = messageOf(entry);
      return message?.role === "toolResult" ? undefined : message;
    }
    case "custom_message":
      return customMessageOf(entry as CustomMessageEntry);
    case "branch_summary":
      return branchSummaryMessageOf(entry as BranchSummaryEntry);
    case "compaction":
      return compactionSummaryMessageOf(entry as CompactionEntry);
    default:
      return undefined;
  }
}

export interface PreparedBranch {
  /** The messages to summarise, oldest first. */
  messages: AgentMessage[];
  fileOps: FileOps;
  totalTokens: number;
}

/**
 * The newest messages of `entries` that fit `tokenBudget` (0 or less: no limit). A summary
 * entry (compaction or branch summary) that does not fit is still taken while less than 90 %
 * of the budget is used: it stands for a lot of history. File operations come from every
 * earlier branch summary and from each message the walk reaches.
 */
export function prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget = 0): PreparedBranch {
  const messages: AgentMessage[] = [];
  const fileOps = createFileOps();
  let totalTokens = 0;

  for (const entry of entries) {
    const summary = entry as BranchSummaryEntry;
    if (entry.type === "branch_summary" && !summary.fromHook && summary.details) addFileOpsFromDetails(summary.details, fileOps);
  }

  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    const message = branchMessageOf(entry);
    if (!message) continue;
    addFileOpsFromMessage(message, fileOps);
    const tokens = estimateTokens(message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      const isSummary = entry.type === "compaction" || entry.type === "branch_summary";
      if (isSummary && totalTokens < tokenBudget * 0.9) {
        messages.unshift(message);
        totalTokens += tokens;
      }
      break;
    }
    messages.unshift(message);
    totalTokens += tokens;
  }
  return { messages, fileOps, totalTokens };
}

export interface NavigationTarget {
  /** The new leaf: null puts it before the first entry. */
  leafId: string | null;
  /** For a user or custom message: its text, to put back in the editor for re-editing. */
  editorText?: string;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((block: { type?: unknown; text?: unknown }) => (block?.type === "text" && typeof block.text === "string" ? [block.text] : []))
    .join("");
}

/**
 * Where navigating to `entry` leaves the leaf. Choosing a user message (or custom message)
 * means "redo this prompt": the leaf goes to its parent and its text returns to the editor.
 * Any other entry becomes the leaf itself.
 */
export function navigationTarget(entry: SessionEntry): NavigationTarget {
  const message = messageOf(entry);
  if (message?.role === "user") return { leafId: entry.parentId ?? null, editorText: textOf(message.content) };
  if (entry.type === "custom_message") return { leafId: entry.parentId ?? null, editorText: textOf((entry as CustomMessageEntry).content) };
  return { leafId: entry.id };
}
