/**
 * Where a compaction cuts the branch: the first entry kept verbatim, chosen so that roughly
 * `keepRecentTokens` of recent context survive, never separating a tool result from its call.
 * Works on the projected branch (projection.ts): what counts is what each entry puts in the
 * context, so custom messages and branch summaries weigh what they weigh for the model.
 */
import type { AgentMessage } from "../session/format.ts";
import type { ProjectedEntry } from "../session/context.ts";
import { isLeftOut } from "./projection.ts";
import { estimateTokens } from "./tokens.ts";

export interface CutPoint {
  /** Index of the first entry kept. */
  firstKeptEntryIndex: number;
  /** For a split turn: index of the entry that started the turn the cut falls into; else -1. */
  turnStartIndex: number;
  /** The cut falls inside a turn (the kept part does not start one). */
  isSplitTurn: boolean;
}

/** Message roles the kept part may start at. A tool result never is: it must follow its call. */
const CUT_ROLES: ReadonlySet<string> = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
/** Message roles that start a turn: everything the model reads as coming from the user's side. */
const TURN_START_ROLES: ReadonlySet<string> = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

function has(projected: ProjectedEntry, roles: ReadonlySet<string>): boolean {
  return projected.sourceEntry.type !== "compaction" && projected.messages.some((message: AgentMessage) => roles.has(message.role));
}

function tokensOf(projected: ProjectedEntry): number {
  return projected.messages.reduce((sum, message) => sum + estimateTokens(message), 0);
}

/** Indices in [start, end) where the kept part may begin. */
export function findValidCutPoints(entries: readonly ProjectedEntry[], start: number, end: number): number[] {
  const points: number[] = [];
  for (let i = start; i < end; i++) if (has(entries[i]!, CUT_ROLES)) points.push(i);
  return points;
}

/** The entry that starts the turn containing `index`, scanning back to `start`; -1 when there is none. */
export function findTurnStartIndex(entries: readonly ProjectedEntry[], index: number, start: number): number {
  for (let i = index; i >= start; i--) if (has(entries[i]!, TURN_START_ROLES)) return i;
  return -1;
}

/**
 * Whether the entries after the cut are only a left-out model attempt and entries that add
 * nothing to the context: the kept part then starts after the last input the model saw, so the
 * retried request is the summary (plus what the turn still needs) and not the input again.
 */
function isOmittedAttemptSuffix(suffix: readonly ProjectedEntry[]): boolean {
  const omittedAnswer = suffix.some(
    (projected) => projected.sourceEntry.type === "message" && (projected.sourceEntry as { message?: { role?: unknown } }).message?.role === "assistant" && isLeftOut(projected),
  );
  return omittedAnswer && suffix.every((projected) => projected.sourceEntry.type !== "compaction" && projected.messages.length === 0);
}

/**
 * The cut for entries [start, end): walking back from the newest, entry sizes add up until they
 * reach `keepRecentTokens`; the cut is the first valid cut point at or after that entry (the
 * last one when none follows, so a huge last tool result keeps its call and everything earlier
 * is summarised; the first one when the budget is never reached). Past a left-out attempt at the
 * end, the cut moves onto that attempt. The cut then moves back over directly preceding entries
 * that add nothing to the context (model or thinking changes, labels…), but never past a
 * context message, a compaction or `start`.
 */
export function findCutPoint(entries: readonly ProjectedEntry[], start: number, end: number, keepRecentTokens: number): CutPoint {
  const points = findValidCutPoints(entries, start, end);
  if (points.length === 0) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };

  let cut = points[0]!;
  let reached = false;
  let kept = 0;
  for (let i = end - 1; i >= start; i--) {
    const tokens = tokensOf(entries[i]!);
    if (tokens === 0) continue;
    kept += tokens;
    if (kept >= keepRecentTokens) {
      reached = true;
      cut = points.find((point) => point >= i) ?? points[points.length - 1]!;
      break;
    }
  }
  if (reached && isOmittedAttemptSuffix(entries.slice(cut + 1, end))) cut++;

  while (cut > start) {
    const previous = entries[cut - 1]!;
    if (previous.sourceEntry.type === "compaction" || previous.messages.length > 0) break;
    cut--;
  }

  const startsTurn = has(entries[cut]!, TURN_START_ROLES);
  const turnStartIndex = startsTurn ? -1 : findTurnStartIndex(entries, cut, start);
  return { firstKeptEntryIndex: cut, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}
