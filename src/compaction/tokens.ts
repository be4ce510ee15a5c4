/**
 * Token accounting for compaction: a cheap size estimate per message (characters / 4), the
 * context size from the last reported usage plus estimates for what came after it, and the
 * context usage a status line or `get_session_stats` shows.
 *
 * Estimates over-count on purpose: they decide when to compact and what to keep, and erring
 * towards "too big" keeps requests inside the window.
 */
import type { Model } from "../ai/types.ts";
import type { AgentMessage, SessionEntry, Usage } from "../session/format.ts";
import { currentSystemMessage } from "../session/system-messages.ts";

/** Characters counted for one image (≈ 1200 tokens), as upstream. */
const IMAGE_CHARS = 4800;

type Block = { readonly type?: unknown; readonly [key: string]: unknown };

function blocksOf(content: unknown): readonly Block[] {
  return Array.isArray(content) ? (content as Block[]).filter((b) => typeof b === "object" && b !== null) : [];
}

function textLength(block: Block): number {
  return block.type === "text" && typeof block.text === "string" ? block.text.length : 0;
}

function stringLength(value: unknown): number {
  return typeof value === "string" ? value.length : 0;
}

/** Characters of message content: its text plus a flat amount per image. */
function contentChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  return blocksOf(content).reduce((sum, block) => sum + textLength(block) + (block.type === "image" ? IMAGE_CHARS : 0), 0);
}

function assistantChars(content: unknown): number {
  let chars = 0;
  for (const block of blocksOf(content)) {
    if (block.type === "text") chars += stringLength(block.text);
    else if (block.type === "thinking") chars += stringLength(block.thinking);
    else if (block.type === "toolCall") chars += stringLength(block.name) + (JSON.stringify(block.arguments ?? {})?.length ?? 0);
  }
  return chars;
}

/**
 * Estimated tokens of one message: ceil(characters / 4). Messages of unknown roles count 0.
 * Malformed content counts what can be read rather than throwing: this runs on whatever a
 * session file holds.
 */
export function estimateTokens(message: AgentMessage): number {
  const m = message as { readonly role: string; readonly [key: string]: unknown };
  let chars: number;
  switch (m.role) {
    case "system": {
      // The prompt and the tool declarations it carries (Pi ≥ 0.87 counts them the same way).
      chars = contentChars(m.content);
      for (const section of Object.values((m.sections ?? {}) as Record<string, unknown>)) chars += stringLength(section);
      if (m.toolsAdded !== undefined) chars += JSON.stringify(m.toolsAdded)?.length ?? 0;
      break;
    }
    case "assistant":
      chars = assistantChars(m.content);
      break;
    case "user":
    case "custom":
    case "toolResult":
      chars = contentChars(m.content);
      break;
    case "bashExecution":
      chars = stringLength(m.command) + stringLength(m.output);
      break;
    case "branchSummary":
    case "compactionSummary":
      chars = stringLength(m.summary);
      break;
    default:
      return 0;
  }
  return Math.ceil(chars / 4);
}

/** Tokens of the context a reported usage describes: the total when the provider gave one, else the sum. */
export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/**
 * The usage of an assistant message that can be trusted: not aborted, not failed, and not all
 * zeros (a stream cut short before its usage arrived reports nothing, not an empty context).
 */
function trustedUsage(message: AgentMessage): Usage | undefined {
  const m = message as { role: string; stopReason?: unknown; usage?: Usage };
  if (m.role !== "assistant" || m.stopReason === "aborted" || m.stopReason === "error") return undefined;
  if (typeof m.usage !== "object" || m.usage === null) return undefined;
  return calculateContextTokens(m.usage) > 0 ? m.usage : undefined;
}

/**
 * The estimated size of a context when no reported usage describes it: the prompt and tools
 * once (all system messages replayed into the one a request sends), plus every other message.
 */
export function estimateWithoutUsage(messages: readonly AgentMessage[]): number {
  const system = currentSystemMessage(messages);
  let tokens = system ? estimateTokens(system) : 0;
  for (const message of messages) if (message.role !== "system") tokens += contextMessageTokens(message);
  return tokens;
}

// The estimates of the context's messages, which are not changed once in the context: the check
// before every request adds up kept figures instead of measuring every message again. Only the
// two context-wide sums below use it, never a message still streaming.
const estimated = new WeakMap<object, number>();

function contextMessageTokens(message: AgentMessage): number {
  let tokens = estimated.get(message);
  if (tokens === undefined) {
    tokens = estimateTokens(message);
    estimated.set(message, tokens);
  }
  return tokens;
}

export interface ContextEstimate {
  tokens: number;
  /** Tokens reported by the last trusted usage (0 without one). */
  usageTokens: number;
  /** Estimated tokens of the messages after that usage (all messages without one). */
  trailingTokens: number;
  lastUsageIndex: number | null;
}

/**
 * The context size of `messages`: the last trusted usage plus estimates of the messages after
 * it; without any usage, the estimate of everything.
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): ContextEstimate {
  let index = messages.length - 1;
  let usage: Usage | undefined;
  for (; index >= 0; index--) {
    usage = trustedUsage(messages[index]!);
    if (usage) break;
  }
  if (!usage) {
    const all = messages.reduce((sum, message) => sum + contextMessageTokens(message), 0);
    return { tokens: all, usageTokens: 0, trailingTokens: all, lastUsageIndex: null };
  }
  const usageTokens = calculateContextTokens(usage);
  let trailingTokens = 0;
  for (let i = index + 1; i < messages.length; i++) trailingTokens += contextMessageTokens(messages[i]!);
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: index };
}

export interface ContextUsage {
  /** null: unknown until the model answers after the latest compaction. */
  tokens: number | null;
  contextWindow: number;
  percent: number | null;
}

/** What `contextUsage` needs of a branch item: a parsed entry, or a store record (parsed on demand). */
export interface BranchItem {
  readonly type: string;
  readonly invalid?: true;
}

export interface ContextUsageInput<T extends BranchItem> {
  /** The messages the model currently sees (the agent's state). */
  messages: readonly AgentMessage[];
  /** The branch root → leaf: parsed entries, or records with `entryOf`. */
  branch: readonly T[];
  /** Parses a branch item; default: the item is already a parsed entry. */
  entryOf?: (item: T) => SessionEntry;
  model: Pick<Model, "contextWindow"> | undefined;
}

/**
 * The context usage for a status display. Undefined without a model or a context window.
 *
 * After a compaction, the last usage describes the context before it, so the size is unknown
 * (null) until an assistant that answered after the latest compaction reports a usage above 0.
 * Only message entries after the compaction are parsed.
 */
export function contextUsage<T extends BranchItem>(input: ContextUsageInput<T>): ContextUsage | undefined {
  const contextWindow = input.model?.contextWindow ?? 0;
  if (contextWindow <= 0) return undefined;
  const entryOf = input.entryOf ?? ((item: T) => item as unknown as SessionEntry);
  const branch = input.branch;
  let compactionAt = -1;
  for (let i = branch.length - 1; i >= 0; i--) {
    if (branch[i]!.type === "compaction" && !branch[i]!.invalid) {
      compactionAt = i;
      break;
    }
  }
  if (compactionAt >= 0 && !hasUsageAfter(branch, compactionAt, entryOf)) {
    return { tokens: null, contextWindow, percent: null };
  }
  const { tokens } = estimateContextTokens(input.messages);
  return { tokens, contextWindow, percent: (tokens / contextWindow) * 100 };
}

/** Whether the newest trusted assistant after `from` reported a usage above 0. */
function hasUsageAfter<T extends BranchItem>(branch: readonly T[], from: number, entryOf: (item: T) => SessionEntry): boolean {
  for (let i = branch.length - 1; i > from; i--) {
    const item = branch[i]!;
    if (item.type !== "message" || item.invalid) continue;
    const role = (item as { role?: unknown }).role;
    if (typeof role === "string" && role !== "assistant") continue;
    const message = (entryOf(item) as { message?: AgentMessage }).message;
    if (!message || message.role !== "assistant") continue;
    const usage = trustedUsage(message);
    // The newest answer that is neither aborted nor failed decides, as upstream.
    if (usage) return calculateContextTokens(usage) > 0;
    const stop = (message as { stopReason?: unknown }).stopReason;
    if (stop !== "aborted" && stop !== "error") return false;
  }
  return false;
}
