/**
 * The branch as a compaction sees it: the one context projection (`projectContext`, the context
 * the model is sent), with the latest compaction moved to the front. Pure.
 *
 * The latest compaction comes first (its checkpoint and summary), then the entries it kept
 * (system messages among them left out: the checkpoint stands for them), then everything after
 * it; older compactions inside the kept part contribute nothing. An entry named in `omitted` is
 * kept in place but contributes nothing: that is how the failed attempt an overflow recovery
 * retries is left out. Cut points are indices into this order, so a cut never lands before the
 * summary it builds on.
 */
import { contextMessagesOf, projectContext, type ProjectedEntry } from "../session/context.ts";
import type { SessionEntry } from "../session/format.ts";
import { messageOf } from "../session/message-of.ts";

/** The projection of `branch` (root → leaf, parsed), latest compaction first. */
export function projectBranch(branch: readonly SessionEntry[], omitted: ReadonlySet<string> = new Set()): ProjectedEntry[] {
  const { entries } = projectContext(branch, omitted);
  const at = entries.findLastIndex((projected) => projected.sourceEntry.type === "compaction");
  if (at < 0) return entries;
  const kept = entries.slice(0, at).filter((projected) => messageOf(projected.sourceEntry)?.role !== "system");
  return [entries[at]!, ...kept, ...entries.slice(at + 1)];
}

/** Whether an entry would reach the context but was left out of it here (an omitted attempt, an older compaction). */
export function isLeftOut(projected: ProjectedEntry): boolean {
  return projected.messages.length === 0 && contextMessagesOf(projected.sourceEntry).length > 0;
}
