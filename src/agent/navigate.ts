/**
 * Moving to another point of the session tree (`/tree`, RPC `navigate_tree`), optionally leaving
 * a summary of the branch being left. Going to a user message puts the leaf on its parent and
 * hands its text back for the editor, as upstream.
 */
import { branchSummarySettings } from "../resources/settings-effective.ts";
import type { SessionEntry, Usage } from "../session/format.ts";
import type { Model } from "../ai/types.ts";
import type { SummaryCall } from "../compaction/index.ts";
import type { SessionStore } from "../session/store.ts";
import { PromptError } from "./errors.ts";
import type { SessionChange, SummarySource } from "./events.ts";
import type { AgentHooks } from "./hooks.ts";

/** What a move in the tree needs of the session. */
export interface TreeSession {
  readonly store: SessionStore;
  readonly isStreaming: boolean;
  readonly hooks: AgentHooks;
  readonly model: Model | undefined;
  summaryCall(signal: AbortSignal, source?: SummarySource): Promise<SummaryCall | undefined>;
  /** Rebuilds the model's context from the file once the leaf moved. */
  reloadContext(): void;
  changed(reason: SessionChange["reason"]): void;
}

export interface NavigateOptions {
  summarize?: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  /** A label for where the navigation lands (the summary entry, or the target). */
  label?: string;
  /** `branchSummary.reserveTokens` (default: the settings default). */
  reserveTokens?: number;
  signal?: AbortSignal;
}

export interface NavigateResult {
  /** Text of the user message navigated to, for the editor. */
  editorText?: string;
  cancelled: boolean;
  aborted?: boolean;
  summaryEntryId?: string;
}

/**
 * Moves the leaf to `targetId`. The tree hook may cancel the move, give the summary itself, or
 * change the instructions and label; `signal` stops a summary being made (the move is then
 * cancelled).
 */
export async function navigateTree(session: TreeSession, targetId: string, options: NavigateOptions = {}): Promise<NavigateResult> {
  const store = session.store;
  const oldLeaf = store.leafId;
  if (targetId === oldLeaf) return { cancelled: false };
  const target = store.getEntry(targetId);
  if (!target) throw new PromptError(`Entry ${targetId} not found`);
  if (session.isStreaming) throw new PromptError("Cannot move in the tree while the agent is running.");
  // The branch-summary modules are loaded by the first move, not by every run.
  const { collectEntriesForBranchSummary, generateBranchSummary, navigationTarget } = await import("../compaction/index.ts");

  let summary: { text: string; details: unknown; usage?: Usage | undefined; fromHook?: boolean } | undefined;
  // The walk follows the tree's links: a line that cannot be read stands in as a bare link
  // (it has nothing to summarise), so the paths still meet where they really meet.
  const linkOf = (id: string): SessionEntry | undefined => {
    const record = store.tree.get(id);
    if (!record) return undefined;
    return store.readEntry(record) ?? ({ type: "unreadable", id: record.id, parentId: record.parentId, timestamp: record.timestamp } as SessionEntry);
  };
  const { entries, commonAncestorId } = collectEntriesForBranchSummary(linkOf, oldLeaf, targetId);
  let { customInstructions, replaceInstructions, label } = options;
  const signal = options.signal ?? new AbortController().signal;
  const hooked = await session.hooks.sessionBeforeTree({
    preparation: {
      targetId,
      oldLeafId: oldLeaf,
      commonAncestorId: commonAncestorId ?? null,
      entriesToSummarize: entries as SessionEntry[],
      userWantsSummary: Boolean(options.summarize),
      ...(customInstructions !== undefined ? { customInstructions } : {}),
      ...(replaceInstructions !== undefined ? { replaceInstructions } : {}),
      ...(label !== undefined ? { label } : {}),
    },
    signal,
  });
  if (hooked?.cancel) return { cancelled: true };
  if (hooked?.customInstructions !== undefined) customInstructions = hooked.customInstructions;
  if (hooked?.replaceInstructions !== undefined) replaceInstructions = hooked.replaceInstructions;
  if (hooked?.label !== undefined) label = hooked.label;
  if (options.summarize && hooked?.summary) {
    summary = { text: hooked.summary.summary, details: hooked.summary.details, fromHook: true };
  } else if (options.summarize) {
    if (!session.model) throw new PromptError("No model available for summarization");
    if (entries.length > 0) {
      const call = await session.summaryCall(signal, { source: "branchSummary" });
      if (!call) throw new PromptError(`No API key found for ${session.model.provider}.`);
      const outcome = await generateBranchSummary(entries as SessionEntry[], {
        ...call,
        ...(customInstructions ? { customInstructions } : {}),
        ...(replaceInstructions ? { replaceInstructions: true } : {}),
        reserveTokens: options.reserveTokens ?? branchSummarySettings({}).reserveTokens,
      });
      if (outcome.kind === "aborted") return { cancelled: true, aborted: true };
      if (outcome.kind === "error") throw new PromptError(outcome.message);
      summary = { text: outcome.summary, details: outcome.details, usage: outcome.usage };
    }
  }

  const { leafId, editorText } = navigationTarget(target);
  let summaryEntryId: string | undefined;
  if (summary) {
    // What the summary cost is stored with it (Pi ≥ 0.87), so session totals count it.
    summaryEntryId = store.branchWithSummary(leafId, summary.text, summary.details, summary.fromHook ?? false, summary.usage);
    if (label) store.appendLabelChange(summaryEntryId, label);
  } else {
    if (leafId === null) store.resetLeaf();
    else store.branch(leafId);
    // As upstream, the label entry is appended where the navigation landed (and becomes the leaf).
    if (label) store.appendLabelChange(targetId, label);
  }
  session.reloadContext();
  session.changed("tree");
  return { ...(editorText !== undefined ? { editorText } : {}), cancelled: false, ...(summaryEntryId ? { summaryEntryId } : {}) };
}
