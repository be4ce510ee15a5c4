/**
 * Where a compaction cuts the branch: the first entry kept verbatim, chosen so that roughly
 * `keepRecentTokens` of recent messages survive, never separating a tool result from its call.
 */
import type { AgentMessage, SessionEntry } from "../session/format.ts";
import { estimateTokens } from "./tokens.ts";

export interface CutPoint {
  /** Index of the first entry kept. */
  firstKeptEntryIndex: number;
  /** For a split turn: index of the entry that started the turn the cut falls into; else -1. */
  turnStartIndex: number;
  /** The cut falls inside a turn (the kept part does not start at a user message). */
  isSplitTurn: boolean;
}

/** Message roles an entry may be cut at. A tool result never is: it must follow its call. */
const CUT_ROLES: ReadonlySet<string> = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/** Entry types (other than `message`) that reach the model as user messages. */
const USER_LIKE_ENTRIES: ReadonlySet<string> = new Set(["branch_summary", "custom_message"]);

export function messageOf(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type !== "message") return undefined;
  const message = (entry as { message?: unknown }).message;
  return typeof message === "object" && message !== null && typeof (message as { role?: unknown }).role === "string"
    ? (message as AgentMessage)
    : undefined;
}

function roleOf(entry: SessionEntry): string | undefined {
  return messageOf(entry)?.role;
}

function isCutPoint(entry: SessionEntry): boolean {
  if (USER_LIKE_ENTRIES.has(entry.type)) return true;
  const role = roleOf(entry);
  return role !== undefined && CUT_ROLES.has(role);
}

/** Indices in [start, end) where the kept part may begin. */
export function findValidCutPoints(entries: readonly SessionEntry[], start: number, end: number): number[] {
  const points: number[] = [];
  for (let i = start; i < end; i++) if (isCutPoint(entries[i]!)) points.push(i);
  return points;
}

/**
 * The entry that starts the turn containing `index`, scanning back to `start`: a user or bash
 * message, or an entry that reaches the model as a user message. -1 when there is none.
 */
export function findTurnStartIndex(entries: readonly SessionEntry[], index: number, start: number): number {
  for (let i = index; i >= start; i--) {
    const entry = entries[i]!;
    if (USER_LIKE_ENTRIES.has(entry.type)) return i;
    const role = roleOf(entry);
    if (role === "user" || role === "bashExecution") return i;
  }
  return -1;
}

/**
 * The cut for entries [start, end): walking back from the newest, message sizes add up until
 * they reach `keepRecentTokens`; the cut is the first valid cut point at or after that entry
 * (the first valid one if the budget is never reached). The cut then moves back over directly
 * preceding non-message entries (model or thinking changes, labels…) so they stay with the
 * kept part, but never past a message, a compaction or `start`.
 */
export function findCutPoint(entries: readonly SessionEntry[], start: number, end: number, keepRecentTokens: number): CutPoint {
  const points = findValidCutPoints(entries, start, end);
  if (points.length === 0) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };

  let cut = points[0]!;
  let kept = 0;
  for (let i = end - 1; i >= start; i--) {
    const message = messageOf(entries[i]!);
    // Only message entries count: custom messages and summaries are cut points but add nothing here.
    if (!message) continue;
    kept += estimateTokens(message);
    if (kept >= keepRecentTokens) {
      // Upstream keeps everything when no cut point follows (a huge last tool result), so the
      // compaction frees nothing; cutting at the last point before it keeps the call and its result.
      cut = points.find((point) => point >= i) ?? points[points.length - 1]!;
      break;
    }
  }

  while (cut > start) {
    const previous = entries[cut - 1]!;
    if (previous.type === "compaction" || previous.type === "message") break;
    cut--;
  }

  const startsWithUser = roleOf(entries[cut]!) === "user";
  const turnStartIndex = startsWithUser ? -1 : findTurnStartIndex(entries, cut, start);
  return { firstKeptEntryIndex: cut, turnStartIndex, isSplitTurn: !startsWithUser && turnStartIndex !== -1 };
}
