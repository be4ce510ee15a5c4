/**
 * Preparing a compaction: from the branch (root → leaf) to what must be summarised, what is
 * kept, and the numbers stored with the result. Pure: the LLM calls are in compact.ts.
 */
import { branchSummaryMessageOf, buildSessionContext, customMessageOf } from "../session/context.ts";
import type { AgentMessage, BranchSummaryEntry, CompactionEntry, CustomMessageEntry, SessionEntry } from "../session/format.ts";
import { findCutPoint, messageOf } from "./cut-point.ts";
import { addFileOpsFromDetails, addFileOpsFromMessage, createFileOps, type FileOps } from "./file-tracking.ts";
import { estimateContextTokens } from "./tokens.ts";

export interface CompactionSettings {
  /** Headroom kept free in the context window; also sizes the summary's output budget. */
  reserveTokens: number;
  /** Estimated tokens of recent messages kept verbatim. */
  keepRecentTokens: number;
}

export const ALREADY_COMPACTED = "Already compacted";
export const NOTHING_TO_COMPACT = "Nothing to compact (session too small)";

/** What extensions receive as `preparation` (upstream's shape). */
export interface CompactionPreparation {
  firstKeptEntryId: string;
  /** Messages replaced by the summary (compaction entries excluded). */
  messagesToSummarize: AgentMessage[];
  /** For a split turn: the part of the turn before the cut. */
  turnPrefixMessages: AgentMessage[];
  isSplitTurn: boolean;
  /** Size of the current context (what the model sees now). */
  tokensBefore: number;
  /** The summary of the compaction this one builds on. */
  previousSummary?: string;
  fileOps: FileOps;
  settings: CompactionSettings;
}

/**
 * Why no preparation could be made although the branch does not end in a compaction:
 * `empty-branch` (nothing at all) or `nothing-to-summarize` (everything fits in
 * `keepRecentTokens`, so a summary would cover no message; `preparation` is the would-be one).
 */
export interface NothingToCompact {
  readonly nothingToCompact: true;
  readonly reason: "empty-branch" | "nothing-to-summarize";
  readonly message: typeof NOTHING_TO_COMPACT;
  readonly preparation?: CompactionPreparation;
}

export function isNothingToCompact(value: CompactionPreparation | NothingToCompact | undefined): value is NothingToCompact {
  return value !== undefined && "nothingToCompact" in value;
}

/** Whether a preparation leaves the summariser nothing to read. */
export function hasNothingToSummarize(preparation: Pick<CompactionPreparation, "messagesToSummarize" | "turnPrefixMessages">): boolean {
  return preparation.messagesToSummarize.length === 0 && preparation.turnPrefixMessages.length === 0;
}

/**
 * The message an entry contributes to a summary. Compaction entries contribute none: an
 * earlier summary goes in as `previousSummary` instead.
 */
export function summarizedMessageOf(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return messageOf(entry);
    case "custom_message":
      return customMessageOf(entry as CustomMessageEntry);
    case "branch_summary":
      return branchSummaryMessageOf(entry as BranchSummaryEntry);
    default:
      return undefined;
  }
}

function messagesIn(entries: readonly SessionEntry[], from: number, to: number): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let i = from; i < to; i++) {
    const message = summarizedMessageOf(entries[i]!);
    if (message) messages.push(message);
  }
  return messages;
}

/**
 * Plans a compaction of `branch` (root → leaf, parsed).
 *
 * Undefined when the branch already ends in a compaction (`Already compacted`). A repeated
 * compaction summarises from where the previous one's kept part began, so messages it kept are
 * not lost, and merges into its summary.
 */
export function prepareCompaction(
  branch: readonly SessionEntry[],
  settings: CompactionSettings,
): CompactionPreparation | NothingToCompact | undefined {
  const last = branch[branch.length - 1];
  if (last?.type === "compaction") return undefined;
  if (!last) return { nothingToCompact: true, reason: "empty-branch", message: NOTHING_TO_COMPACT };

  let previousIndex = -1;
  for (let i = branch.length - 1; i >= 0; i--) {
    if (branch[i]!.type === "compaction") {
      previousIndex = i;
      break;
    }
  }
  const previous = previousIndex >= 0 ? (branch[previousIndex] as CompactionEntry) : undefined;
  let boundaryStart = 0;
  if (previous) {
    const keptFrom = branch.findIndex((entry) => entry.id === previous.firstKeptEntryId);
    boundaryStart = keptFrom >= 0 ? keptFrom : previousIndex + 1;
  }

  const cut = findCutPoint(branch, boundaryStart, branch.length, settings.keepRecentTokens);
  const firstKept = branch[cut.firstKeptEntryIndex];
  if (!firstKept?.id) return { nothingToCompact: true, reason: "empty-branch", message: NOTHING_TO_COMPACT };

  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = messagesIn(branch, boundaryStart, historyEnd);
  const turnPrefixMessages = cut.isSplitTurn ? messagesIn(branch, cut.turnStartIndex, cut.firstKeptEntryIndex) : [];

  const fileOps = createFileOps();
  // Lists an extension wrote are its own business; only pig's (and Pi's) own are carried on.
  if (previous && !previous.fromHook && previous.details) addFileOpsFromDetails(previous.details, fileOps);
  for (const message of messagesToSummarize) addFileOpsFromMessage(message, fileOps);
  for (const message of turnPrefixMessages) addFileOpsFromMessage(message, fileOps);

  const preparation: CompactionPreparation = {
    firstKeptEntryId: firstKept.id,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore: estimateContextTokens(buildSessionContext(branch).messages).tokens,
    ...(previous ? { previousSummary: previous.summary } : {}),
    fileOps,
    settings,
  };
  if (hasNothingToSummarize(preparation)) {
    return { nothingToCompact: true, reason: "nothing-to-summarize", message: NOTHING_TO_COMPACT, preparation };
  }
  return preparation;
}
