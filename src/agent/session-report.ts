/**
 * What a session reports about itself: its state (RPC `get_state`), its statistics, the user
 * messages it can be forked at, and the last answer's text.
 */
import type { Model } from "../ai/types.ts";
import { contextUsage } from "../compaction/tokens.ts";
import { contentText } from "../session/convert.ts";
import type { AgentMessage, AssistantMessage, MessageEntry, ThinkingLevel, UserMessage } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import { userMessageTitle } from "../session/title.ts";
import type { CompactionSettings } from "../resources/settings-effective.ts";
import type { MessageQueue, QueueMode } from "./queue.ts";
import { sessionTotals, type SessionTotals } from "./session-stats.ts";

export interface SessionState {
  model?: Model;
  thinkingLevel: ThinkingLevel;
  isStreaming: boolean;
  isCompacting: boolean;
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  sessionFile?: string;
  sessionId: string;
  sessionName?: string;
  autoCompactionEnabled: boolean;
  messageCount: number;
  pendingMessageCount: number;
}

export interface SessionStats extends SessionTotals {
  sessionFile?: string;
  sessionId: string;
  contextUsage?: { tokens: number | null; contextWindow: number; percent: number | null };
}

/** What the reports read of the session. */
export interface ReportedSession {
  readonly store: SessionStore;
  readonly model: Model | undefined;
  /** The model whose limits count (a virtual model's: the one that answered last). */
  readonly limitsModel: Model | undefined;
  readonly thinkingLevel: ThinkingLevel;
  readonly isStreaming: boolean;
  readonly isCompacting: boolean;
  readonly steering: MessageQueue;
  readonly followUps: MessageQueue;
  readonly compaction: CompactionSettings;
  readonly messages: readonly AgentMessage[];
  readonly messageCount: number;
}

export function sessionState(session: ReportedSession): SessionState {
  const store = session.store;
  return {
    ...(session.model ? { model: session.model } : {}),
    thinkingLevel: session.thinkingLevel,
    isStreaming: session.isStreaming,
    isCompacting: session.isCompacting,
    steeringMode: session.steering.mode,
    followUpMode: session.followUps.mode,
    ...(store.path ? { sessionFile: store.path } : {}),
    sessionId: store.sessionId,
    ...(store.name ? { sessionName: store.name } : {}),
    autoCompactionEnabled: session.compaction.enabled,
    messageCount: session.messageCount,
    pendingMessageCount: session.steering.length + session.followUps.length,
  };
}

export function sessionStats(session: ReportedSession): SessionStats {
  const store = session.store;
  const totals = sessionTotals(store.tree.records, store.readEntry);
  const usage = contextUsage({ messages: session.messages, branch: store.branchRecords(), entryOf: store.materialise, model: session.limitsModel });
  return {
    ...(store.path ? { sessionFile: store.path } : {}),
    sessionId: store.sessionId,
    ...totals,
    ...(usage ? { contextUsage: usage } : {}),
  };
}

export function forkMessages(store: SessionStore): { entryId: string; text: string }[] {
  const out: { entryId: string; text: string }[] = [];
  for (const record of store.tree.records) {
    if (record.type !== "message" || record.role !== "user") continue;
    const entry = store.readEntry(record) as MessageEntry | undefined;
    if (!entry) continue;
    // A message without text (an image alone) is not offered, as upstream; the others are named
    // as typed: attached files' `<file>` markup and expanded templates left out.
    if (!contentText((entry.message as UserMessage).content)) continue;
    out.push({ entryId: record.id, text: userMessageTitle(entry.message) });
  }
  return out;
}

/**
 * The last answer's text (RPC `get_last_assistant_text`, `/copy`), by upstream 1.x's rule: an
 * answer without text that did not end normally (aborted, failed, or only calling tools) is
 * passed over for the one before; an answer that ended normally is the last one even without
 * text, which gives no text.
 */
export function lastAssistantText(messages: readonly AgentMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant") continue;
    const answer = message as AssistantMessage;
    const text = contentText(answer.content).trim();
    if (answer.stopReason !== "stop" && !text) continue;
    return text || undefined;
  }
  return undefined;
}
