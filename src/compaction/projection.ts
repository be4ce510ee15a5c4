/**
 * The branch as a compaction sees it: entry by entry, the messages each contributes to the
 * model's context (Pi 0.87's session projection). Pure.
 *
 * With a compaction on the branch, the latest one comes first (its checkpoint and summary), then
 * the entries it kept (system messages among them left out: the checkpoint stands for them),
 * then everything after it; older compactions inside the kept part contribute nothing. An entry
 * named in `omitted` is kept in place but contributes nothing: that is how the failed attempt an
 * overflow recovery retries is left out (Pi writes a `context_edit` for it; pig writes none).
 */
import { isReplayableSystemMessage } from "../session/system-messages.ts";
import { branchSummaryMessageOf, compactionSummaryMessageOf, customMessageOf } from "../session/context.ts";
import type { AgentMessage, BranchSummaryEntry, CompactionEntry, CustomMessageEntry, SessionEntry } from "../session/format.ts";
import { messageOf } from "../session/message-of.ts";

export interface ProjectedEntry {
  readonly entry: SessionEntry;
  /** What the entry puts in the context here (none for metadata, older compactions and omitted entries). */
  readonly messages: readonly AgentMessage[];
}

/** The messages an entry stands for in a context, wherever it is (Pi's `sessionEntryToContextMessages`). */
export function contextMessagesOf(entry: SessionEntry): AgentMessage[] {
  switch (entry.type) {
    case "message": {
      const message = messageOf(entry);
      return message ? [message] : [];
    }
    case "custom_message":
      return [customMessageOf(entry as CustomMessageEntry)];
    case "branch_summary":
      return (entry as BranchSummaryEntry).summary ? [branchSummaryMessageOf(entry as BranchSummaryEntry)] : [];
    case "compaction": {
      const compaction = entry as CompactionEntry;
      const summary = compactionSummaryMessageOf(compaction);
      return isReplayableSystemMessage(compaction.systemMessage) ? [compaction.systemMessage, summary] : [summary];
    }
    default:
      return [];
  }
}

function isSystemEntry(entry: SessionEntry): boolean {
  return messageOf(entry)?.role === "system";
}

/** The entries of `branch` (root → leaf) that make up its context, in context order. */
function contextEntries(branch: readonly SessionEntry[]): SessionEntry[] {
  let at = -1;
  for (let i = branch.length - 1; i >= 0 && at < 0; i--) if (branch[i]!.type === "compaction") at = i;
  if (at < 0) return [...branch];
  const compaction = branch[at] as CompactionEntry;
  // A compaction that keeps nothing names itself, which no earlier entry matches.
  const keptFrom = branch.findIndex((entry, index) => index < at && entry.id === compaction.firstKeptEntryId);
  const kept = keptFrom < 0 ? [] : branch.slice(keptFrom, at).filter((entry) => !isSystemEntry(entry));
  return [compaction, ...kept, ...branch.slice(at + 1)];
}

/** The projection of `branch` (root → leaf, parsed). */
export function projectBranch(branch: readonly SessionEntry[], omitted: ReadonlySet<string> = new Set()): ProjectedEntry[] {
  return contextEntries(branch).map((entry, index) => ({
    entry,
    messages: omitted.has(entry.id) || (entry.type === "compaction" && index > 0) ? [] : contextMessagesOf(entry),
  }));
}

/** Whether an entry would reach the context but was left out of it here (an omitted attempt, an older compaction). */
export function isLeftOut(projected: ProjectedEntry): boolean {
  return projected.messages.length === 0 && contextMessagesOf(projected.entry).length > 0;
}
