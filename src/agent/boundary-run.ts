/**
 * Asking the hooks at a session boundary — the end of a turn, the moment a run would settle —
 * and carrying out what they answer: their entries are appended to the session (each one
 * announced as `entry_appended`), and one more model request runs when they ask for it and
 * the context allows it (it must not end with the model's own answer, unless messages wait).
 */
import type { AssistantMessage } from "../ai/types.ts";
import type { AgentMessage, ToolResultMessage } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import { commitDrafts, previewBoundary, type BoundaryKind } from "./boundary.ts";
import type { Conversation } from "./conversation.ts";
import type { PigEvent, SessionChangeReason } from "./events.ts";
import type { ActivityOutcome, AgentHooks, BoundaryHookResult, BoundaryPreview } from "./hooks.ts";

export interface BoundaryHost {
  readonly hooks: AgentHooks;
  readonly store: SessionStore;
  readonly conversation: Conversation;
  /** Queued steering and follow-up messages. */
  pending(): AgentMessage[];
  entryIdOf(message: AgentMessage): string | undefined;
  emit(event: PigEvent): void;
  changed(reason: SessionChangeReason): void;
  report(error: { extensionPath: string; event: string; error: string }): void;
}

export function outcomeOf(answer: AssistantMessage | undefined): ActivityOutcome {
  return answer?.stopReason === "aborted" ? "aborted" : answer?.stopReason === "error" ? "error" : "completed";
}

/** The hooks' answer at the end of a turn; true when they want one more request and it can run. */
export async function turnBoundary(
  host: BoundaryHost,
  turnIndex: number,
  answer: AssistantMessage,
  toolResults: ToolResultMessage[],
  signal: AbortSignal,
): Promise<boolean> {
  if (!host.hooks.listens("turn_end")) return false;
  const messageEntryId = host.entryIdOf(answer);
  if (!messageEntryId) {
    host.report({ extensionPath: "<boundary>", event: "turn_end", error: "turn_end could not resolve the persisted assistant entry ID" });
    return false;
  }
  const toolResultEntryIds = toolResults.flatMap((result) => host.entryIdOf(result) ?? []);
  const event = { turnIndex, message: answer, toolResults, messageEntryId, toolResultEntryIds, outcome: outcomeOf(answer) };
  return settle(host, "turn_end", (preview) => host.hooks.turnEnd(event, preview, signal), false, signal);
}

/** The hooks' answer when a run would settle; true when the run goes on (they asked, or messages wait). */
export async function settleBoundary(host: BoundaryHost, outcome: ActivityOutcome, signal: AbortSignal): Promise<boolean> {
  if (!host.hooks.listens("agent_before_settle")) return false;
  return settle(host, "agent_before_settle", (preview) => host.hooks.beforeSettle({ outcome }, preview, signal), true, signal);
}

async function settle(
  host: BoundaryHost,
  kind: BoundaryKind,
  ask: (preview: BoundaryPreview) => Promise<BoundaryHookResult | undefined>,
  queuedContinues: boolean,
  signal: AbortSignal,
): Promise<boolean> {
  const preview: BoundaryPreview = (drafts) => previewBoundary({ branch: host.store.getBranch(), drafts, pending: host.pending(), kind });
  const result = await ask(preview);
  if (result && result.entries.length > 0) commit(host, kind, result);
  if (signal.aborted) return false;
  const wanted = (result?.continue ?? false) || (queuedContinues && host.pending().length > 0);
  if (!wanted) return false;
  if (!preview([]).canContinue) {
    if (result?.continue) host.report({ extensionPath: "<boundary>", event: kind, error: `${kind} requested continuation without runnable model context` });
    return false;
  }
  return true;
}

function commit(host: BoundaryHost, kind: BoundaryKind, result: BoundaryHookResult): void {
  let written: ReturnType<typeof commitDrafts>;
  try {
    written = commitDrafts(host.store, result.entries);
  } catch (error) {
    host.report({ extensionPath: "<boundary>", event: kind, error: `Invalid boundary entries: ${(error as Error).message}` });
    return;
  }
  host.conversation.reload();
  if (written.compacted) host.changed("compaction");
  for (const id of written.ids) {
    const entry = host.store.getEntry(id);
    if (entry) host.emit({ type: "entry_appended", entry });
  }
}
