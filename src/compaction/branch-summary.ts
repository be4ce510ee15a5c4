/**
 * The summary of a branch left by tree navigation: what the user explored there, so the
 * conversation that continues elsewhere still knows about it.
 */
import type { Model } from "../ai/types.ts";
import { convertToLlm } from "../session/convert.ts";
import type { SessionEntry, Usage } from "../session/format.ts";
import { prepareBranchEntries } from "./branch-entries.ts";
import { computeFileLists, formatFileLists, type FileLists } from "./file-tracking.ts";
import { branchSummaryInstructions, summaryRequestText } from "./prompts.ts";
import { requestSummary, summaryFailure, summaryMaxTokens, type SummaryCall } from "./request.ts";
import { serializeConversation } from "./serialize.ts";

/** Stored before the model's text, so the summary reads as a report on a side trip. */
export const BRANCH_SUMMARY_PREAMBLE =
  "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n";
export const NO_CONTENT_TO_SUMMARIZE = "No content to summarize";
/** Output budget of a branch summary (less when the model cannot write that much). */
export const BRANCH_SUMMARY_MAX_TOKENS = 4096;

export interface BranchSummaryOptions extends SummaryCall {
  customInstructions?: string | undefined;
  /** With `customInstructions`: use them instead of the default instructions. */
  replaceInstructions?: boolean | undefined;
  /** `branchSummary.reserveTokens`: the budget is the context window minus this. */
  reserveTokens: number;
}

export type BranchSummaryOutcome =
  | {
      kind: "summary";
      /** The text to store in the `branch_summary` entry (preamble and file lists included). */
      summary: string;
      details: FileLists;
      /** What the request cost, when one was made and the provider reported it. */
      usage?: Usage;
      /** False when there was nothing to summarise and no request was sent. */
      requested: boolean;
    }
  | { kind: "aborted" }
  | { kind: "error"; message: string };

/** The summariser's input budget for `model`. */
export function branchSummaryBudget(model: Pick<Model, "contextWindow">, reserveTokens: number): number {
  return (model.contextWindow || 128000) - reserveTokens;
}

/**
 * Summarises `entries` (oldest first, as collected). Nothing to read gives the summary
 * `No content to summarize` without a request. A failed request is returned, not thrown, so
 * the caller decides how navigation reports it.
 */
export async function generateBranchSummary(entries: readonly SessionEntry[], options: BranchSummaryOptions): Promise<BranchSummaryOutcome> {
  const prepared = prepareBranchEntries(entries, branchSummaryBudget(options.model, options.reserveTokens));
  if (prepared.messages.length === 0) {
    return { kind: "summary", summary: NO_CONTENT_TO_SUMMARIZE, details: { readFiles: [], modifiedFiles: [] }, requested: false };
  }
  const userText = summaryRequestText({
    conversation: serializeConversation(convertToLlm(prepared.messages)),
    instructions: branchSummaryInstructions(options.customInstructions, options.replaceInstructions),
  });
  // No reasoning option: a branch summary is short and runs while the user waits to move on.
  const response = await requestSummary(options, { userText, maxTokens: summaryMaxTokens(options.model, BRANCH_SUMMARY_MAX_TOKENS) });
  if (response.kind === "aborted") return response;
  if (response.kind !== "text") return { kind: "error", message: summaryFailure(response, "Branch summarization") ?? "Branch summarization failed" };
  const lists = computeFileLists(prepared.fileOps);
  return {
    kind: "summary",
    summary: BRANCH_SUMMARY_PREAMBLE + response.text + formatFileLists(lists),
    details: lists,
    ...(response.usage ? { usage: response.usage } : {}),
    requested: true,
  };
}
