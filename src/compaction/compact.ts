/**
 * Running a prepared compaction: one summary of the history (a first one or an update of the
 * previous summary) and, when the cut splits a turn, a second summary of that turn's beginning,
 * both requested at once. The file lists are appended to the result.
 */
import type { ThinkingLevel } from "../ai/types.ts";
import { convertToLlm } from "../session/convert.ts";
import type { AgentMessage } from "../session/format.ts";
import { computeFileLists, formatFileLists, type FileLists } from "./file-tracking.ts";
import { hasNothingToSummarize, NOTHING_TO_COMPACT, type CompactionPreparation } from "./prepare.ts";
import { compactionInstructions, summaryRequestText, TURN_PREFIX_INSTRUCTIONS } from "./prompts.ts";
import { requestSummary, summaryReasoning, type SummaryCall, type SummaryResponse } from "./request.ts";
import { serializeConversation } from "./serialize.ts";

export interface CompactOptions extends SummaryCall {
  /** The user's focus for the summary (`/compact <text>`). */
  customInstructions?: string | undefined;
  /** The session's thinking level: used for the summaries on reasoning models. */
  thinkingLevel?: ThinkingLevel | undefined;
}

export type CompactionDetails = FileLists;

/** What is stored as the compaction entry. */
export interface CompactionResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details: CompactionDetails;
}

export const COMPACTION_CANCELLED = "Compaction cancelled";

/** The compaction was aborted (signal) before its summary was complete. */
export class CompactionCancelledError extends Error {
  constructor() {
    super(COMPACTION_CANCELLED);
    this.name = "CompactionCancelledError";
  }
}

export function isCompactionCancelled(error: unknown): error is CompactionCancelledError {
  return error instanceof CompactionCancelledError;
}

/** Placeholder history when a split turn is all there is to summarise. */
export const NO_PRIOR_HISTORY = "No prior history.";
export const SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n";

function conversationText(messages: readonly AgentMessage[]): string {
  return serializeConversation(convertToLlm(messages));
}

function textOrThrow(response: SummaryResponse, failure: string): string {
  if (response.kind === "aborted") throw new CompactionCancelledError();
  if (response.kind === "error") throw new Error(`${failure}: ${response.message || "Unknown error"}`);
  return response.text;
}

async function summarizeHistory(preparation: CompactionPreparation, options: CompactOptions, call: SummaryCall): Promise<string> {
  const userText = summaryRequestText({
    conversation: conversationText(preparation.messagesToSummarize),
    previousSummary: preparation.previousSummary,
    instructions: compactionInstructions(preparation.previousSummary, options.customInstructions),
  });
  const response = await requestSummary(call, {
    userText,
    maxTokens: Math.floor(0.8 * preparation.settings.reserveTokens),
    reasoning: summaryReasoning(options.model, options.thinkingLevel),
  });
  return textOrThrow(response, "Summarization failed");
}

async function summarizeTurnPrefix(preparation: CompactionPreparation, options: CompactOptions, call: SummaryCall): Promise<string> {
  // The earlier summary and the user's focus belong to the history request, not this one.
  const userText = summaryRequestText({
    conversation: conversationText(preparation.turnPrefixMessages),
    instructions: TURN_PREFIX_INSTRUCTIONS,
  });
  const response = await requestSummary(call, {
    userText,
    maxTokens: Math.floor(0.5 * preparation.settings.reserveTokens),
    reasoning: summaryReasoning(options.model, options.thinkingLevel),
  });
  return textOrThrow(response, "Turn prefix summarization failed");
}

/** Both summaries of a split turn at once; when one fails the other is cancelled, not waited for. */
async function summarizeSplitTurn(preparation: CompactionPreparation, options: CompactOptions): Promise<string> {
  const local = new AbortController();
  const forward = (): void => local.abort();
  if (options.signal?.aborted) local.abort();
  options.signal?.addEventListener("abort", forward, { once: true });
  const call: SummaryCall = { ...options, signal: local.signal };
  const cancelOthersOnFailure = <T>(promise: Promise<T>): Promise<T> =>
    promise.catch((error: unknown) => {
      local.abort();
      throw error;
    });
  try {
    const [history, prefix] = await Promise.all([
      preparation.messagesToSummarize.length > 0
        ? cancelOthersOnFailure(summarizeHistory(preparation, options, call))
        : Promise.resolve(NO_PRIOR_HISTORY),
      cancelOthersOnFailure(summarizeTurnPrefix(preparation, options, call)),
    ]);
    return history + SPLIT_TURN_SEPARATOR + prefix;
  } finally {
    options.signal?.removeEventListener("abort", forward);
  }
}

/**
 * Summarises a preparation. Throws `Summarization failed: …` / `Turn prefix summarization
 * failed: …` when the model fails, `CompactionCancelledError` when aborted, and refuses (without
 * a request) a preparation that has nothing to summarise.
 */
export async function compact(preparation: CompactionPreparation, options: CompactOptions): Promise<CompactionResult> {
  if (hasNothingToSummarize(preparation)) throw new Error(NOTHING_TO_COMPACT);
  if (options.signal?.aborted) throw new CompactionCancelledError();
  const summary =
    preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0
      ? await summarizeSplitTurn(preparation, options)
      : await summarizeHistory(preparation, options, options);
  const lists = computeFileLists(preparation.fileOps);
  return {
    summary: summary + formatFileLists(lists),
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    details: lists,
  };
}
