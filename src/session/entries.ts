/**
 * New entries, built with the key order upstream Pi writes so pig's files look like Pi's.
 * Optional fields that are undefined are left out, as JSON.stringify would.
 */
import type {
  AgentMessage,
  BranchSummaryEntry,
  CompactionEntry,
  ContextEditEntry,
  CustomEntry,
  CustomMessageEntry,
  LabelEntry,
  MessageEntry,
  ModelChangeEntry,
  SessionHeader,
  SessionInfoEntry,
  SystemMessage,
  ThinkingLevelChangeEntry,
  Usage,
  UserContentBlock,
} from "./format.ts";
import { CURRENT_SESSION_VERSION } from "./format.ts";

export interface EntryPosition {
  readonly id: string;
  readonly parentId: string | null;
  readonly timestamp: string;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export function headerOf(id: string, timestamp: string, cwd: string, parentSession?: string): SessionHeader {
  return {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id,
    timestamp,
    cwd,
    ...optional("parentSession", parentSession),
  };
}

export function messageEntry(at: EntryPosition, message: AgentMessage): MessageEntry {
  return { type: "message", id: at.id, parentId: at.parentId, timestamp: at.timestamp, message } as MessageEntry;
}

export function modelChangeEntry(at: EntryPosition, provider: string, modelId: string): ModelChangeEntry {
  return { type: "model_change", id: at.id, parentId: at.parentId, timestamp: at.timestamp, provider, modelId };
}

export function thinkingLevelChangeEntry(
  at: EntryPosition,
  thinkingLevel: ThinkingLevelChangeEntry["thinkingLevel"],
): ThinkingLevelChangeEntry {
  return { type: "thinking_level_change", id: at.id, parentId: at.parentId, timestamp: at.timestamp, thinkingLevel };
}

/**
 * A compaction. `firstKeptEntryId` null: it keeps nothing and names itself. `systemMessage`, the
 * prompt and tools in force (replayed), is stored with the entry's own time as its timestamp.
 */
export function compactionEntry(
  at: EntryPosition,
  fields: {
    summary: string;
    firstKeptEntryId: string | null;
    tokensBefore: number;
    details?: unknown;
    usage?: Usage | undefined;
    fromHook?: boolean | undefined;
    systemMessage?: SystemMessage | undefined;
  },
): CompactionEntry {
  return {
    type: "compaction",
    id: at.id,
    parentId: at.parentId,
    timestamp: at.timestamp,
    summary: fields.summary,
    firstKeptEntryId: fields.firstKeptEntryId ?? at.id,
    tokensBefore: fields.tokensBefore,
    ...optional("details", fields.details),
    ...optional("usage", fields.usage),
    ...optional("fromHook", fields.fromHook),
    ...optional("systemMessage", fields.systemMessage ? { ...fields.systemMessage, timestamp: Date.parse(at.timestamp) } : undefined),
  };
}

export function branchSummaryEntry(
  at: EntryPosition,
  fields: { fromId: string; summary: string; details?: unknown; usage?: Usage | undefined; fromHook?: boolean | undefined },
): BranchSummaryEntry {
  return {
    type: "branch_summary",
    id: at.id,
    parentId: at.parentId,
    timestamp: at.timestamp,
    fromId: fields.fromId,
    summary: fields.summary,
    ...optional("details", fields.details),
    ...optional("usage", fields.usage),
    ...optional("fromHook", fields.fromHook),
  };
}

export function customEntry(at: EntryPosition, customType: string, data?: unknown): CustomEntry {
  return {
    type: "custom",
    customType,
    ...optional("data", data),
    id: at.id,
    parentId: at.parentId,
    timestamp: at.timestamp,
  };
}

/** Pi 0.87.1's `context_edit` (kept, not applied by pig): `replacement` null hides the target. */
export function contextEditEntry(at: EntryPosition, targetId: string, replacement: { content: unknown } | null): ContextEditEntry {
  return { type: "context_edit", id: at.id, parentId: at.parentId, timestamp: at.timestamp, targetId, replacement };
}

export function customMessageEntry(
  at: EntryPosition,
  fields: { customType: string; content: string | UserContentBlock[]; display: boolean; details?: unknown },
): CustomMessageEntry {
  return {
    type: "custom_message",
    customType: fields.customType,
    content: fields.content,
    display: fields.display,
    ...optional("details", fields.details),
    id: at.id,
    parentId: at.parentId,
    timestamp: at.timestamp,
  };
}

export function labelEntry(at: EntryPosition, targetId: string, label: string | undefined): LabelEntry {
  return {
    type: "label",
    id: at.id,
    parentId: at.parentId,
    timestamp: at.timestamp,
    targetId,
    ...optional("label", label),
  };
}

export function sessionInfoEntry(at: EntryPosition, name: string): SessionInfoEntry {
  return { type: "session_info", id: at.id, parentId: at.parentId, timestamp: at.timestamp, name };
}
