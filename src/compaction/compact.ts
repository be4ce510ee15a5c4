/**
 * Running a prepared compaction: one summary of the history (a first one or an update of the
 * previous summary) and, when the cut splits a turn, then a second summary of that turn's
 * beginning. The requests go one after the other (a local server that takes one request at a
 * time is not asked for two), the usage of both is added up, and the file lists are appended.
 */
import type { ThinkingLevel } from "../ai/types.ts";
import { convertToLlm } from "../session/convert.ts";
import type { AgentMessage, Usage } from "../session/format.ts";
import { computeFileLists, formatFileLists, type FileLists } from "./file-tracking.ts";
import { hasNothingToSummarize, NOTHING_TO_COMPACT, type CompactionPreparation } from "./prepare.ts";
import { compactionInstructions, summaryRequestText, turnPrefixRequestText } from "./prompts.ts";
import { requestSummary, summaryFailure, summaryMaxTokens, summaryReasoning, type SummaryCall, type SummaryResponse } from "./request.ts";
import { serializeConversation } from "./serialize.ts";
import { addUsage } from "./usage.ts";

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
  /** What the summary requests cost (both of a split turn, added up); absent when the provider reported none. */
  usage?: Usage;
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

/** The history of a split turn when there is neither history to summarise nor an earlier summary. */
export const NO_PRIOR_HISTORY = "No prior history.";
export const SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n";

interface Summary {
  text: string;
  usage?: Usage | undefined;
}

function conversationText(messages: readonly AgentMessage[]): string {
  return serializeConversation(convertToLlm(messages));
}

function summaryOrThrow(response: SummaryResponse, label: string): Summary {
  if (response.kind === "aborted") throw new CompactionCancelledError();
  const failure = summaryFailure(response, label);
  if (failure !== undefined || response.kind !== "text") throw new Error(failure);
  return { text: response.text, usage: response.usage };
}

async function summarizeHistory(preparation: CompactionPreparation, options: CompactOptions): Promise<Summary> {
  const userText = summaryRequestText({
    conversation: conversationText(preparation.messagesToSummarize),
    previousSummary: preparation.previousSummary,
    instructions: compactionInstructions(preparation.previousSummary, options.customInstructions),
  });
  const response = await requestSummary(options, {
    userText,
    maxTokens: summaryMaxTokens(options.model, Math.floor(0.8 * preparation.settings.reserveTokens)),
    reasoning: summaryReasoning(options.model, options.thinkingLevel),
  });
  return summaryOrThrow(response, "Summarization");
}

async function summarizeTurnPrefix(preparation: CompactionPreparation, options: CompactOptions): Promise<Summary> {
  // The earlier summary and the user's focus belong to the history request, not this one.
  const response = await requestSummary(options, {
    userText: turnPrefixRequestText(conversationText(preparation.turnPrefixMessages)),
    maxTokens: summaryMaxTokens(options.model, Math.floor(0.5 * preparation.settings.reserveTokens)),
    reasoning: summaryReasoning(options.model, options.thinkingLevel),
  });
  return summaryOrThrow(response, "Turn prefix summarization");
}

/**
 * A split turn: the history first (or, with nothing new before the turn, the previous summary
 * as it stands), then the turn's beginning, joined under the split-turn heading.
 */
async function summarizeSplitTurn(preparation: CompactionPreparation, options: CompactOptions): Promise<Summary> {
  const history: Summary =
    preparation.messagesToSummarize.length > 0
      ? await summarizeHistory(preparation, options)
      : { text: preparation.previousSummary ?? NO_PRIOR_HISTORY };
  if (options.signal?.aborted) throw new CompactionCancelledError();
  const prefix = await summarizeTurnPrefix(preparation, options);
  return { text: history.text + SPLIT_TURN_SEPARATOR + prefix.text, usage: addUsage(history.usage, prefix.usage) };
}

/**
 * Summarises a preparation. Throws `Summarization failed: …` / `Turn prefix summarization
 * failed: …` (also when an answer stopped at its output cap), `… attempted to call a tool`,
 * `CompactionCancelledError` when aborted, and refuses (without a request) a preparation that
 * has nothing to summarise.
 */
export async function compact(preparation: CompactionPreparation, options: CompactOptions): Promise<CompactionResult> {
  if (hasNothingToSummarize(preparation)) throw new Error(NOTHING_TO_COMPACT);
  if (options.signal?.aborted) throw new CompactionCancelledError();
  const summary =
    preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0
      ? await summarizeSplitTurn(preparation, options)
      : await summarizeHistory(preparation, options);
  const lists = computeFileLists(preparation.fileOps);
  return {
    summary: summary.text + formatFileLists(lists),
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    ...(summary.usage ? { usage: summary.usage } : {}),
    details: lists,
  };
}
