/**
 * Session totals as Pi 0.87 counts them: every message entry of the file (all branches, and what
 * compaction summarised away), and the usage of everything that was billed — answers, tool
 * results that report usage, compaction and branch summaries, and `usage` entries (cache
 * warming and the like, which are never context).
 */
import type { SessionEntry, Usage } from "../session/format.ts";
import type { EntryRecord } from "../session/records.ts";

export interface SessionTotals {
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  toolResults: number;
  totalMessages: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  cost: number;
}

function usageOf(value: unknown): Usage | undefined {
  if (!value || typeof value !== "object") return undefined;
  const u = value as Partial<Usage>;
  return typeof u.input === "number" && typeof u.output === "number" ? (u as Usage) : undefined;
}

/** Totals over `records` (file order), reading only the entries that carry counts or usage. */
export function sessionTotals(records: readonly EntryRecord[], read: (record: EntryRecord) => SessionEntry | undefined): SessionTotals {
  const totals: SessionTotals = {
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    toolResults: 0,
    totalMessages: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    cost: 0,
  };
  const add = (usage: Usage | undefined): void => {
    if (!usage) return;
    const t = totals.tokens;
    t.input += usage.input;
    t.output += usage.output;
    t.cacheRead += usage.cacheRead ?? 0;
    t.cacheWrite += usage.cacheWrite ?? 0;
    t.total = t.input + t.output + t.cacheRead + t.cacheWrite;
    totals.cost += usage.cost?.total ?? 0;
  };
  for (const record of records) {
    if (record.invalid) continue;
    if (record.type === "usage" || record.type === "compaction" || record.type === "branch_summary") {
      add(usageOf((read(record) as { usage?: unknown } | undefined)?.usage));
      continue;
    }
    if (record.type !== "message") continue;
    totals.totalMessages++;
    if (record.role === "user") totals.userMessages++;
    else if (record.role === "toolResult") {
      totals.toolResults++;
      add(usageOf((read(record) as { message?: { usage?: unknown } } | undefined)?.message?.usage));
    } else if (record.role === "assistant") {
      totals.assistantMessages++;
      const message = (read(record) as { message?: { content?: unknown; usage?: unknown } } | undefined)?.message;
      if (Array.isArray(message?.content)) totals.toolCalls += message.content.filter((b: { type?: unknown }) => b?.type === "toolCall").length;
      add(usageOf(message?.usage));
    }
  }
  return totals;
}

/** The cost of the answers by the model that gave them (`provider/id`), in the order each first answered. */
export function costByModel(records: readonly EntryRecord[], read: (record: EntryRecord) => SessionEntry | undefined): [string, number][] {
  const costs = new Map<string, number>();
  for (const record of records) {
    if (record.invalid || record.type !== "message" || record.role !== "assistant") continue;
    const message = (read(record) as { message?: { provider?: unknown; model?: unknown; usage?: unknown } } | undefined)?.message;
    const usage = usageOf(message?.usage);
    if (!message || !usage) continue;
    const name = `${String(message.provider)}/${String(message.model)}`;
    costs.set(name, (costs.get(name) ?? 0) + (usage.cost?.total ?? 0));
  }
  return [...costs];
}

