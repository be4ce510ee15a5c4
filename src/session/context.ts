/**
 * The context of a branch: which messages the model sees, and the model and thinking level in
 * force, as upstream Pi's `buildSessionContext` computes them.
 *
 * `planContext` is the one context projection: the model request, compaction (through
 * `projectContext`) and the boundary hooks all read the context it plans, so none of them can
 * reason about a context the model is not sent. It decides from records alone which entries
 * contribute; only the entries it needs are parsed (through `materialise`), so a caller can
 * also stream stored messages unparsed.
 */
import type {
  AgentMessage,
  BranchSummaryEntry,
  BranchSummaryMessage,
  CompactionEntry,
  CompactionSummaryMessage,
  CustomMessage,
  CustomMessageEntry,
  MessageEntry,
  ModelChangeEntry,
  SessionEntry,
  ThinkingLevelChangeEntry,
} from "./format.ts";
import type { EntryRecord } from "./records.ts";
import { messageOf } from "./message-of.ts";
import { isReplayableSystemMessage } from "./system-messages.ts";

export interface ModelRef {
  readonly provider: string;
  readonly modelId: string;
}

export interface SessionContext {
  messages: AgentMessage[];
  thinkingLevel: string;
  model: ModelRef | null;
}

/** One message of a context: a stored message entry (as written) or a message made from an entry. */
export type ContextItem =
  | { readonly kind: "stored"; readonly record: EntryRecord }
  | { readonly kind: "made"; readonly message: AgentMessage; /** The entry it was made from. */ readonly record: EntryRecord };

export interface ContextPlan {
  readonly items: readonly ContextItem[];
  /**
   * Index of the first item written after the latest compaction entry (0 without one): what
   * precedes it (the summary and the kept entries) was already in the context the compaction
   * summarised. File order, so it holds however close together the entries' clocks are.
   */
  readonly freshFrom: number;
  readonly thinkingLevel: string;
  readonly model: ModelRef | null;
  /** Whether the path has a `thinking_level_change` entry (one that failed its schema too). */
  readonly levelChanged: boolean;
  /** The path's last `model_change` entry (one that failed its schema too), as kept in memory; null without one. */
  readonly lastModelChange: SessionEntry | null;
}

/** The parsed entry of a record; undefined for a line that turns out not to be valid JSON. */
export type Materialise = (record: EntryRecord) => SessionEntry | undefined;

/**
 * Plans the context of `path` (root → leaf). An entry named in `omitted` stays in place but
 * contributes nothing: that is how a compaction leaves out the failed attempt an overflow
 * recovery retries (Pi writes a `context_edit` for it; pig writes none).
 */
export function planContext(path: readonly EntryRecord[], materialise: Materialise, omitted: ReadonlySet<string> = new Set()): ContextPlan {
  let thinkingLevel = "off";
  const modelSources: number[] = [];
  let compactionAt = -1;
  let levelChanged = false;
  let lastModelChange: EntryRecord | undefined;
  // Plain loops over the path, here and below: a long session's path is walked once, as it
  // opens, before the JIT has compiled this (a call per entry cost more than the work).
  for (let index = 0; index < path.length; index++) {
    const record = path[index]!;
    if (record.type === "thinking_level_change") levelChanged = true;
    else if (record.type === "model_change") lastModelChange = record;
    if (record.invalid) continue;
    switch (record.type) {
      case "thinking_level_change":
        thinkingLevel = (materialise(record) as ThinkingLevelChangeEntry | undefined)?.thinkingLevel ?? thinkingLevel;
        break;
      case "model_change":
        modelSources.push(index);
        break;
      case "message":
        if (record.role === "assistant") modelSources.push(index);
        break;
      case "compaction":
        compactionAt = index;
        break;
    }
  }

  const items: ContextItem[] = [];
  const contributes = omitted.size === 0 ? (record: EntryRecord): boolean => !record.invalid : (record: EntryRecord): boolean => !record.invalid && !omitted.has(record.id);
  const emit = (record: EntryRecord): void => {
    if (!contributes(record)) return;
    if (record.type === "message") {
      items.push({ kind: "stored", record });
    } else if (record.type === "custom_message" || record.type === "branch_summary") {
      const entry = materialise(record);
      for (const message of entry ? contextMessagesOf(entry) : []) items.push({ kind: "made", message, record });
    }
  };

  let freshFrom = 0;
  const compaction = compactionAt >= 0 ? (materialise(path[compactionAt]!) as CompactionEntry | undefined) : undefined;
  if (compaction) {
    const record = path[compactionAt]!;
    // The checkpoint (Pi ≥ 0.87) stands for every system message before the compaction; kept
    // ones are not replayed again. A compaction that keeps nothing names itself as first kept.
    if (contributes(record)) for (const message of contextMessagesOf(compaction)) items.push({ kind: "made", message, record });
    const keptFrom = path.findIndex((record, index) => index < compactionAt && record.id === compaction.firstKeptEntryId);
    if (keptFrom >= 0) {
      for (const record of path.slice(keptFrom, compactionAt)) if (!(record.type === "message" && record.role === "system")) emit(record);
    }
    freshFrom = items.length;
    for (let index = compactionAt + 1; index < path.length; index++) emit(path[index]!);
  } else {
    for (let index = 0; index < path.length; index++) emit(path[index]!);
  }

  // The latest source that can be read names the model; looked up only when asked for (a plan
  // made for its items alone never reads that message back).
  let model: ModelRef | null | undefined;
  return {
    items,
    freshFrom,
    thinkingLevel,
    levelChanged,
    lastModelChange: lastModelChange?.value ?? null,
    get model(): ModelRef | null {
      if (model !== undefined) return model;
      model = null;
      for (let i = modelSources.length - 1; i >= 0 && model === null; i--) {
        const entry = materialise(path[modelSources[i]!]!);
        if (entry) model = modelOf(entry);
      }
      return model;
    },
  };
}

function modelOf(entry: SessionEntry): ModelRef | null {
  if (entry.type === "model_change") {
    const change = entry as ModelChangeEntry;
    return { provider: change.provider, modelId: change.modelId };
  }
  const message = (entry as MessageEntry).message as { provider?: unknown; model?: unknown };
  return { provider: message.provider as string, modelId: message.model as string };
}

/** The messages of planned items, in order (none for a line that cannot be read back). */
export function resolveItems(items: readonly ContextItem[], materialise: Materialise): AgentMessage[] {
  return items.flatMap((item) => (item.kind === "made" ? [item.message] : ((materialise(item.record) as MessageEntry | undefined)?.message ?? [])));
}

/** Resolves a plan into messages. */
export function resolvePlan(plan: ContextPlan, materialise: Materialise): SessionContext {
  return {
    messages: resolveItems(plan.items, materialise),
    thinkingLevel: plan.thinkingLevel,
    model: plan.model,
  };
}

function timeOf(iso: string): number {
  return new Date(iso).getTime();
}

export function customMessageOf(entry: CustomMessageEntry): CustomMessage {
  return {
    role: "custom",
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    ...(entry.details !== undefined ? { details: entry.details } : {}),
    timestamp: timeOf(entry.timestamp),
  };
}

export function branchSummaryMessageOf(entry: BranchSummaryEntry): BranchSummaryMessage {
  return { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: timeOf(entry.timestamp) };
}

export function compactionSummaryMessageOf(entry: CompactionEntry): CompactionSummaryMessage {
  return {
    role: "compactionSummary",
    summary: entry.summary,
    tokensBefore: entry.tokensBefore,
    timestamp: timeOf(entry.timestamp),
  };
}

/**
 * The messages an entry stands for in a context, wherever it is (Pi's
 * `sessionEntryToContextMessages`); the context decides where, and whether, they count.
 */
export function contextMessagesOf(entry: SessionEntry): AgentMessage[] {
  switch (entry.type) {
    case "message": {
      const message = messageOf(entry);
      return message ? [message] : [];
    }
    case "custom_message":
      return [customMessageOf(entry as CustomMessageEntry)];
    case "branch_summary":
      return (entry as BranchSummaryEntry).summary ? [branchSummaryMessageOf(entry as BranchSummaryEntry)] : [];
    case "compaction": {
      const compaction = entry as CompactionEntry;
      const summary = compactionSummaryMessageOf(compaction);
      return isReplayableSystemMessage(compaction.systemMessage) ? [compaction.systemMessage, summary] : [summary];
    }
    default:
      return [];
  }
}

/**
 * Upstream's `buildSessionContext(entries, leafId)` over parsed entries: `leafId` null gives an
 * empty context, undefined (or unknown) falls back to the last entry.
 */
export function buildSessionContext(entries: readonly SessionEntry[], leafId?: string | null): SessionContext {
  if (leafId === null) return { messages: [], thinkingLevel: "off", model: null };
  const records = new Map<string, EntryRecord>();
  let last: EntryRecord | undefined;
  entries.forEach((entry, index) => {
    const record = recordOf(entry, index);
    records.set(entry.id, record);
    last = record;
  });
  const leaf = (leafId ? records.get(leafId) : undefined) ?? last;
  if (!leaf) return { messages: [], thinkingLevel: "off", model: null };
  const path: EntryRecord[] = [];
  const seen = new Set<string>();
  for (let current: EntryRecord | undefined = leaf; current && !seen.has(current.id); ) {
    seen.add(current.id);
    path.push(current);
    current = current.parentId ? records.get(current.parentId) : undefined;
  }
  path.reverse();
  return resolvePlan(planContext(path, materialiseParsed), materialiseParsed);
}

/** A parsed entry as a record of the tree (its value is the entry itself). */
function recordOf(entry: SessionEntry, index: number): EntryRecord {
  const message = (entry as { message?: { role?: unknown } }).message;
  return {
    line: index + 2,
    type: entry.type,
    id: entry.id,
    parentId: entry.parentId,
    timestamp: entry.timestamp,
    ...(typeof message?.role === "string" ? { role: message.role } : {}),
    value: entry,
    source: { kind: "text", text: "" },
  };
}

const materialiseParsed: Materialise = (record) => record.value as SessionEntry;

/** One entry of a projected context and the messages it gives the model (none for state-only entries). */
export interface ProjectedEntry {
  sourceEntry: SessionEntry;
  messages: AgentMessage[];
}

/** A branch projected through `planContext`: the span its context covers, entry by entry, and its messages. */
export interface Projection {
  /**
   * Each entry of the span the context covers (from the latest compaction's first kept entry
   * on, or from the compaction itself when it keeps nothing), in branch order, with the
   * messages it contributes.
   */
  entries: ProjectedEntry[];
  /** The context's messages, in the order the model reads them. */
  messages: AgentMessage[];
}

/**
 * Upstream's session projection over a branch (root → leaf, parsed), made by `planContext`,
 * so it is the context the model is sent. Context edits are not applied (pig keeps them, as
 * written); entries named in `omitted` contribute nothing.
 */
export function projectContext(branch: readonly SessionEntry[], omitted: ReadonlySet<string> = new Set()): Projection {
  const path = branch.map(recordOf);
  const plan = planContext(path, materialiseParsed, omitted);
  const byRecord = new Map<EntryRecord, AgentMessage[]>();
  const messages: AgentMessage[] = [];
  for (const item of plan.items) {
    const message = item.kind === "made" ? item.message : messageOf(item.record.value as SessionEntry);
    if (!message) continue;
    messages.push(message);
    const list = byRecord.get(item.record);
    if (list) list.push(message);
    else byRecord.set(item.record, [message]);
  }
  const compactionAt = path.findLastIndex((record) => record.type === "compaction");
  const kept = compactionAt >= 0 ? (path[compactionAt]!.value as CompactionEntry).firstKeptEntryId : undefined;
  const keptAt = kept ? path.findIndex((record, index) => index < compactionAt && record.id === kept) : -1;
  const from = compactionAt < 0 ? 0 : keptAt >= 0 ? keptAt : compactionAt;
  const entries = path.slice(from).map((record) => ({ sourceEntry: record.value as SessionEntry, messages: byRecord.get(record) ?? [] }));
  return { entries, messages };
}
