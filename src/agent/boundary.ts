/**
 * Session boundaries (upstream's `turn_end` and `agent_before_settle` results): entries a hook
 * asks to append when a turn ends or a run would settle, the context those entries would make,
 * and whether one more model request could run on it. The preview is pure; `commitDrafts`
 * writes the drafts to the store.
 */
import { estimateTokens } from "../compaction/tokens.ts";
import { projectContext } from "../session/context.ts";
import { convertToLlm } from "../session/convert.ts";
import type { AgentMessage, SessionEntry } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import type { BoundaryContext, BoundaryDraft } from "./hooks.ts";

export type BoundaryKind = "turn_end" | "agent_before_settle";

/** A draft as the entry it would be, placed after `parentId` (ids are the preview's own). */
function draftEntry(draft: BoundaryDraft, id: string, parentId: string | null, timestamp: string): SessionEntry {
  const at = { id, parentId, timestamp };
  switch (draft.type) {
    case "custom":
      return { type: "custom", ...at, customType: draft.customType, ...(draft.data !== undefined ? { data: draft.data } : {}) } as SessionEntry;
    case "custom_message":
      return {
        type: "custom_message",
        ...at,
        customType: draft.customType,
        content: draft.content,
        display: draft.display,
        ...(draft.details !== undefined ? { details: draft.details } : {}),
      } as SessionEntry;
    case "context_edit":
      return { type: "context_edit", ...at, targetId: draft.targetId, replacement: draft.replacement } as SessionEntry;
    case "compaction":
      return {
        type: "compaction",
        ...at,
        summary: draft.summary,
        firstKeptEntryId: draft.firstKeptEntryId ?? id,
        tokensBefore: 0,
        ...(draft.details !== undefined ? { details: draft.details } : {}),
        fromHook: true,
      } as SessionEntry;
  }
}

/**
 * Throws, naming the draft, when one refers to an entry that is not on the branch: such a draft
 * cannot be appended.
 */
export function checkDrafts(branch: readonly SessionEntry[], drafts: readonly BoundaryDraft[]): void {
  const ids = new Set(branch.map((entry) => entry.id));
  drafts.forEach((draft, index) => {
    if (draft.type === "context_edit" && !ids.has(draft.targetId)) {
      throw new Error(`entries[${index}]: context_edit target ${draft.targetId} is not on the active branch`);
    }
    if (draft.type === "compaction" && draft.firstKeptEntryId !== null && !ids.has(draft.firstKeptEntryId)) {
      throw new Error(`entries[${index}]: compaction firstKeptEntryId ${draft.firstKeptEntryId} is not on the active branch`);
    }
  });
}

export interface PreviewInput {
  /** The active branch, root to leaf. */
  branch: readonly SessionEntry[];
  drafts: readonly BoundaryDraft[];
  /** Queued steering and follow-up messages. */
  pending: readonly AgentMessage[];
  kind: BoundaryKind;
}

/** The context with the drafts appended (upstream's boundary context preview). */
export function previewBoundary(input: PreviewInput): BoundaryContext {
  checkDrafts(input.branch, input.drafts);
  const now = new Date().toISOString();
  let parentId = input.branch.at(-1)?.id ?? null;
  const drafted = input.drafts.map((draft, index) => {
    const entry = draftEntry(draft, `draft-${index}`, parentId, now);
    parentId = entry.id;
    return entry;
  });
  const projection = projectContext([...input.branch, ...drafted]);
  const llmMessages = convertToLlm(projection.messages);
  const finalRole = llmMessages.at(-1)?.role;
  const runnable = llmMessages.some((message) => (message.role as string) !== "system") && finalRole !== "assistant";
  const queued = input.pending.length > 0;
  return {
    contextEntries: projection.entries,
    contextMessages: projection.messages,
    llmMessages,
    pendingMessages: [...input.pending],
    canContinue: runnable || (input.kind === "turn_end" ? queued : finalRole === "assistant" && queued),
  };
}

/** Appends the drafts, in order, to the session; returns the ids written and whether one was a compaction. */
export function commitDrafts(store: SessionStore, drafts: readonly BoundaryDraft[]): { ids: string[]; compacted: boolean } {
  checkDrafts(store.getBranch(), drafts);
  const ids: string[] = [];
  let compacted = false;
  for (const draft of drafts) {
    switch (draft.type) {
      case "custom":
        ids.push(store.appendCustomEntry(draft.customType, draft.data));
        break;
      case "custom_message":
        ids.push(store.appendCustomMessageEntry(draft.customType, draft.content, draft.display, draft.details));
        break;
      case "context_edit":
        ids.push(store.appendContextEdit(draft.targetId, draft.replacement));
        break;
      case "compaction": {
        const tokensBefore = store.buildContext().messages.reduce((sum, message) => sum + estimateTokens(message), 0);
        ids.push(store.appendCompaction(draft.summary, draft.firstKeptEntryId, tokensBefore, draft.details, true, draft.usage));
        compacted = true;
        break;
      }
    }
  }
  return { ids, compacted };
}
