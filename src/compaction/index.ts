/** Compaction and branch summaries: the public API of src/compaction. */
export {
  calculateContextTokens,
  contextUsage,
  estimateContextTokens,
  estimateTokens,
  estimateWithoutUsage,
  type BranchItem,
  type ContextEstimate,
  type ContextUsage,
  type ContextUsageInput,
} from "./tokens.ts";
export {
  addFileOpsFromDetails,
  addFileOpsFromMessage,
  computeFileLists,
  createFileOps,
  formatFileLists,
  type FileLists,
  type FileOps,
} from "./file-tracking.ts";
export { findCutPoint, findTurnStartIndex, findValidCutPoints, type CutPoint } from "./cut-point.ts";
export { contextMessagesOf, type ProjectedEntry } from "../session/context.ts";
export { projectBranch } from "./projection.ts";
export {
  ALREADY_COMPACTED,
  hasNothingToSummarize,
  isNothingToCompact,
  NOTHING_TO_COMPACT,
  prepareCompaction,
  type CompactionPreparation,
  type CompactionBudget,
  type NothingToCompact,
  type PrepareOptions,
} from "./prepare.ts";
export { serializeConversation, TOOL_RESULT_MAX_CHARS } from "./serialize.ts";
export {
  BRANCH_SUMMARY_INSTRUCTIONS,
  branchSummaryInstructions,
  compactionInstructions,
  INITIAL_INSTRUCTIONS,
  SUMMARIZER_SYSTEM_PROMPT,
  summaryRequestText,
  TURN_PREFIX_INSTRUCTIONS,
  turnPrefixRequestText,
  UPDATE_INSTRUCTIONS,
} from "./prompts.ts";
export {
  requestSummary,
  summaryFailure,
  summaryMaxTokens,
  summaryReasoning,
  type ProviderOptions,
  type SummaryCall,
  type SummaryRetry,
  type SummaryRetryEvents,
  type SummaryResponse,
} from "./request.ts";
export { addUsage } from "./usage.ts";
export {
  compact,
  COMPACTION_CANCELLED,
  CompactionCancelledError,
  isCompactionCancelled,
  NO_PRIOR_HISTORY,
  SPLIT_TURN_SEPARATOR,
  type CompactionDetails,
  type CompactionResult,
  type CompactOptions,
} from "./compact.ts";
export {
  branchMessageOf,
  collectEntriesForBranchSummary,
  lookupOf,
  navigationTarget,
  prepareBranchEntries,
  type BranchCollection,
  type Lookup,
  type NavigationTarget,
  type PreparedBranch,
  type TreeLink,
} from "./branch-entries.ts";
export {
  BRANCH_SUMMARY_MAX_TOKENS,
  BRANCH_SUMMARY_PREAMBLE,
  branchSummaryBudget,
  generateBranchSummary,
  NO_CONTENT_TO_SUMMARIZE,
  type BranchSummaryOptions,
  type BranchSummaryOutcome,
} from "./branch-summary.ts";
