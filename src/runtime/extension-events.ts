/**
 * What extensions hear of a running session, in upstream's event names and shapes: the agent's
 * events as they happen, and the session events around a start, a replacement (/new, /resume,
 * /fork, /clone: the extensions stay, the session changes), a compaction, a tree move and model or
 * thinking-level changes. Events a handler can change (message_end, tool_call, turn_end, …) go
 * through the agent's hooks instead, so they are not repeated here.
 */
import type { AgentSession } from "../agent/session.ts";
import type { ExtensionHost } from "../extensions/host/host.ts";
import type { Model } from "../ai/types.ts";

/** Where events go: the current host (a reload replaces it; the forwarding stays). */
export type EventTarget = Pick<ExtensionHost, "ask" | "notify" | "sendStateNow">;

const REPLACE_REASON = { new: "new", switch: "resume", fork: "fork", clone: "fork" } as const;

/** `reason`: `reload` when the extensions start after the session did (a Piglet switch). */
export async function forwardSessionEvents(session: AgentSession, host: EventTarget, reason: "startup" | "reload" = "startup"): Promise<void> {
  let turnIndex = 0;
  let model: Model | undefined = session.model;
  let level = session.thinkingLevel;
  let leaf = session.store.leafId;
  // Awaited, as upstream awaits its handlers: what an extension sets up for the session (active
  // tools, a restored state) is in place before the first prompt.
  await host.ask("session_start", { reason });
  // A replacement, in upstream's order: session_before_* (the agent's hooks) let it through;
  // session_shutdown goes to the old session, awaited (what a handler appends lands in the old
  // file); the store is replaced (subscribers get `session.replaced` then); the new state is
  // sent; then session_start, which sees the new session file and log.
  session.onReplace({
    before: async (change) => {
      const reason = REPLACE_REASON[change.reason];
      await host.ask("session_shutdown", { reason, ...(change.targetSessionFile ? { targetSessionFile: change.targetSessionFile } : {}) });
    },
    after: async (change) => {
      const reason = REPLACE_REASON[change.reason];
      leaf = session.store.leafId;
      host.sendStateNow();
      await host.ask("session_start", { reason, ...(change.previousSessionFile ? { previousSessionFile: change.previousSessionFile } : {}) });
    },
  });
  session.observe((event) => {
    const { type, ...payload } = event as { type: string } & Record<string, unknown>;
    switch (type) {
      case "agent_start":
        turnIndex = 0;
        host.notify(type, {});
        return;
      case "agent_end":
        host.notify(type, { messages: payload.messages });
        return;
      case "turn_start":
        host.notify(type, { turnIndex, timestamp: Date.now() });
        return;
      case "turn_end":
        // Asked through the agent's turn boundary hook (its handlers may add entries and continue).
        turnIndex++;
        return;
      case "compaction_end": {
        // A failed or cancelled compaction (a good one is `session_compact`, from the store).
        const failed = payload as { reason: string; errorMessage?: string; aborted: boolean; willRetry: boolean };
        if (!failed.aborted && failed.errorMessage === undefined) return;
        host.notify("session_compact_failed", {
          reason: failed.reason,
          ...(failed.errorMessage !== undefined ? { errorMessage: failed.errorMessage } : {}),
          aborted: failed.aborted,
          willRetry: failed.willRetry,
          fromExtension: session.compactionFromExtension,
        });
        return;
      }
      case "message_start":
      case "message_update":
      case "tool_execution_start":
      case "tool_execution_update":
      case "tool_execution_end":
      case "agent_settled":
        host.notify(type, payload);
        return;
      default:
    }
  });
  session.onSessionChange((change) => {
    const store = session.store;
    switch (change.reason) {
      case "new":
      case "switch":
      case "fork":
      case "clone":
        // session_shutdown and session_start are sent around the replacement (onReplace above).
        leaf = store.leafId;
        return;
      case "model": {
        const next = session.model;
        if (next && (next.provider !== model?.provider || next.id !== model?.id)) {
          host.notify("model_select", { model: next, previousModel: model, source: "set" });
        }
        model = next;
        return;
      }
      case "thinking_level": {
        if (session.thinkingLevel !== level) host.notify("thinking_level_select", { level: session.thinkingLevel, previousLevel: level });
        level = session.thinkingLevel;
        return;
      }
      case "tree": {
        host.notify("session_tree", { newLeafId: store.leafId, oldLeafId: leaf });
        leaf = store.leafId;
        return;
      }
      case "compaction": {
        const entry = store.tree.records.at(-1);
        if (entry?.type === "compaction") host.notify("session_compact", { compactionEntry: store.getEntry(entry.id), fromExtension: Boolean((entry.value as { fromHook?: boolean } | undefined)?.fromHook) });
        leaf = store.leafId;
        return;
      }
      case "session_name":
        host.notify("session_info_changed", { name: store.name });
        return;
      default:
        leaf = store.leafId;
    }
  });
}
