/**
 * Preparing a compaction: from the branch (root → leaf) to what must be summarised, what is
 * kept, and the numbers stored with the result. Pure: the LLM calls are in compact.ts.
 */
import type { AgentMessage, CompactionEntry, SessionEntry } from "../session/format.ts";
import { findCutPoint } from "./cut-point.ts";
import { addFileOpsFromDetails, addFileOpsFromMessage, createFileOps, type FileOps } from "./file-tracking.ts";
import type { ProjectedEntry } from "../session/context.ts";
import { projectBranch } from "./projection.ts";
import { estimateContextTokens, estimateWithoutUsage } from "./tokens.ts";

/** The token budget of a compaction: the part of the compaction settings preparation reads. */
export interface CompactionBudget {
  /** Headroom kept free in the context window; also sizes the summary's output budget. */
  reserveTokens: number;
  /** Estimated tokens of recent messages kept verbatim. */
  keepRecentTokens: number;
}

export interface PrepareOptions {
  /**
   * Entries left out of the context although they are on the branch: the failed attempt an
   * overflow recovery retries. They contribute nothing, and usage reported before them is stale.
   */
  omitted?: ReadonlySet<string>;
}

export const ALREADY_COMPACTED = "Already compacted";
export const NOTHING_TO_COMPACT = "Nothing to compact (session too small)";

/** What extensions receive as `preparation` (upstream's shape). */
export interface CompactionPreparation {
  /** The first entry of the kept part (with `omitted` entries, possibly one of them). */
  firstKeptEntryId: string;
  /** Messages replaced by the summary (compaction entries and system messages excluded). */
  messagesToSummarize: AgentMessage[];
  /** For a split turn: the part of the turn before the cut. */
  turnPrefixMessages: AgentMessage[];
  isSplitTurn: boolean;
  /** Size of the current context (what the model sees now). */
  tokensBefore: number;
  /** The summary of the compaction this one builds on. */
  previousSummary?: string;
  fileOps: FileOps;
  settings: CompactionBudget;
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
 * The messages of projected entries that a summary covers: a compaction contributes none (its
 * summary goes in as `previousSummary`), and system messages are the prompt, not conversation
 * (the new compaction's checkpoint carries them).
 */
function summarizedMessages(entries: readonly ProjectedEntry[]): AgentMessage[] {
  return entries.flatMap((projected) =>
    projected.sourceEntry.type === "compaction" ? [] : projected.messages.filter((message) => message.role !== "system"),
  );
}

/**
 * The size of the context now: the last trusted usage plus estimates of what followed it, as
 * long as that usage was reported after the latest compaction and after every omitted entry;
 * otherwise it describes a context that no longer exists, and everything is estimated.
 */
function currentTokens(projected: readonly ProjectedEntry[], branch: readonly SessionEntry[], omitted: ReadonlySet<string>): number {
  const messages = projected.flatMap((p) => p.messages);
  const estimate = estimateContextTokens(messages);
  if (estimate.lastUsageIndex !== null) {
    let seen = 0;
    const source = projected.find((p) => (seen += p.messages.length) > estimate.lastUsageIndex!)?.sourceEntry;
    const usageAt = source ? branch.indexOf(source) : -1;
    let staleBefore = -1;
    branch.forEach((entry, index) => {
      if (entry.type === "compaction" || omitted.has(entry.id)) staleBefore = index;
    });
    if (usageAt > staleBefore) return estimate.tokens;
  }
  return estimateWithoutUsage(messages);
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
  settings: CompactionBudget,
  options: PrepareOptions = {},
): CompactionPreparation | NothingToCompact | undefined {
  const last = branch[branch.length - 1];
  if (last?.type === "compaction") return undefined;
  if (!last) return { nothingToCompact: true, reason: "empty-branch", message: NOTHING_TO_COMPACT };

  const omitted = options.omitted ?? new Set<string>();
  const projected = projectBranch(branch, omitted);
  // The latest compaction is projected first; older ones in its kept part contribute nothing.
  const previous = projected[0]?.sourceEntry.type === "compaction" && projected[0].messages.length > 0 ? (projected[0].sourceEntry as CompactionEntry) : undefined;
  const boundaryStart = previous ? 1 : 0;

  const cut = findCutPoint(projected, boundaryStart, projected.length, settings.keepRecentTokens);
  const firstKept = projected[cut.firstKeptEntryIndex]?.sourceEntry;
  if (!firstKept?.id) return { nothingToCompact: true, reason: "empty-branch", message: NOTHING_TO_COMPACT };

  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = summarizedMessages(projected.slice(boundaryStart, historyEnd));
  const turnPrefixMessages = cut.isSplitTurn ? summarizedMessages(projected.slice(cut.turnStartIndex, cut.firstKeptEntryIndex)) : [];

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
    tokensBefore: currentTokens(projected, branch, omitted),
    ...(previous ? { previousSummary: previous.summary } : {}),
    fileOps,
    settings,
  };
  if (hasNothingToSummarize(preparation)) {
    return { nothingToCompact: true, reason: "nothing-to-summarize", message: NOTHING_TO_COMPACT, preparation };
  }
  return preparation;
}
