/**
 * Overflow recovery without context edits (pig's design; see docs/decisions.md): the failed
 * attempt is left out of the compaction's reading of the branch, and the compaction is written
 * beside it, as a child of the entry the attempt answered, so the attempt stays in the file but
 * on no path the model reads again. Pure.
 */
import type { SessionEntry } from "../session/format.ts";
import { messageOf } from "../session/message-of.ts";

export interface RecoveryPlan {
  /** The failed attempt and whatever followed it on the branch: left out of the context. */
  omitted: ReadonlySet<string>;
  /** Where the compaction goes: the entry before the attempt (null: the attempt was the first entry). */
  parentId: string | null;
}

/** Stop reasons of an attempt an overflow recovery retries: a failed request, or one cut off at the cap. */
const FAILED: ReadonlySet<unknown> = new Set(["error", "length"]);

/**
 * The plan for a branch whose last message is the failed answer; undefined when it is not (the
 * answer was never written, so no context holds it: the compaction then goes after the leaf).
 */
export function recoveryPlan(branch: readonly SessionEntry[]): RecoveryPlan | undefined {
  let at = -1;
  for (let i = branch.length - 1; i >= 0 && at < 0; i--) if (messageOf(branch[i]!)) at = i;
  const message = at >= 0 ? messageOf(branch[at]!) : undefined;
  if (message?.role !== "assistant" || !FAILED.has((message as { stopReason?: unknown }).stopReason)) return undefined;
  return { omitted: new Set(branch.slice(at).map((entry) => entry.id)), parentId: branch[at]!.parentId ?? null };
}

/**
 * The `firstKeptEntryId` to store: Pi 0.87.1's cut when it keeps something before the attempt;
 * when its kept part would begin at the omitted attempt (nothing the model saw is kept), none,
 * so the compaction names itself and the retried request is the checkpoint and the summary.
 */
export function keptFrom(firstKeptEntryId: string, plan: RecoveryPlan | undefined): string | null {
  return plan?.omitted.has(firstKeptEntryId) ? null : firstKeptEntryId;
}
