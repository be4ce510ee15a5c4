/** Hand-made branches for compaction tests: entries with ids e1, e2, … chained by parentId. */
import type { AgentMessage, SessionEntry } from "../../src/session/format.ts";

const USAGE0 = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

export function userMsg(text: string): AgentMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp: 1 };
}

export function assistantMsg(
  content: string | Record<string, unknown>[],
  extra: { totalTokens?: number; stopReason?: string } = {},
): AgentMessage {
  return {
    role: "assistant",
    content: typeof content === "string" ? [{ type: "text", text: content }] : content,
    api: "openai-completions",
    provider: "fake",
    model: "fake-model",
    usage: { ...USAGE0, totalTokens: extra.totalTokens ?? 0 },
    stopReason: extra.stopReason ?? "stop",
    timestamp: 1,
  } as AgentMessage;
}

export function toolCall(name: string, args: Record<string, unknown>, id = `call_${name}`): Record<string, unknown> {
  return { type: "toolCall", id, name, arguments: args };
}

export function toolResult(text: string, toolName = "read"): AgentMessage {
  return { role: "toolResult", toolCallId: "call", toolName, content: [{ type: "text", text }], isError: false, timestamp: 1 };
}

/** A text of `tokens` estimated tokens (4 characters each). */
export function sized(tokens: number, fill = "x"): string {
  return fill.repeat(tokens * 4);
}

type Draft = Record<string, unknown> & { type: string };

/** Chains drafts into entries: ids e1… (unless given), each the child of the one before. */
export function chain(...drafts: Draft[]): SessionEntry[] {
  let parentId: string | null = null;
  return drafts.map((draft, index) => {
    const id = typeof draft.id === "string" ? draft.id : `e${index + 1}`;
    const entry = { ...draft, id, parentId, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString() } as SessionEntry;
    parentId = id;
    return entry;
  });
}

export const m = (message: AgentMessage, id?: string): Draft => ({ type: "message", message, ...(id ? { id } : {}) });
export const modelChange = (): Draft => ({ type: "model_change", provider: "fake", modelId: "fake-model" });
export const thinking = (): Draft => ({ type: "thinking_level_change", thinkingLevel: "off" });
export const label = (targetId: string): Draft => ({ type: "label", targetId, label: "x" });
export const customMessage = (text: string): Draft => ({ type: "custom_message", customType: "note", content: text, display: true });
export const branchSummary = (summary: string, details?: unknown): Draft => ({ type: "branch_summary", fromId: "root", summary, ...(details ? { details } : {}) });
export const compaction = (summary: string, firstKeptEntryId: string, details?: unknown, fromHook?: boolean): Draft => ({
  type: "compaction",
  summary,
  firstKeptEntryId,
  tokensBefore: 100,
  ...(details ? { details } : {}),
  ...(fromHook !== undefined ? { fromHook } : {}),
});

export { fakeModel } from "../helpers/fake-model.ts";
