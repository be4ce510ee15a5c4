/**
 * Which session changes the interactive mode answers by showing the conversation again: the
 * ones after which the transcript on screen is not the session's any more (another file, a
 * move in the tree). Model, level, name and tool changes show in the footer and notices alone.
 */
import type { SessionChange, SessionChangeReason } from "../../agent/events.ts";

const CONVERSATION_REPLACED: ReadonlySet<SessionChangeReason> = new Set(["new", "switch", "fork", "clone", "tree"]);

export function replacesConversation(change: SessionChange): boolean {
  return CONVERSATION_REPLACED.has(change.reason);
}
