/**
 * Printing a session's active branch when it is opened (`-c`, `--session`, `/resume`, `/tree`,
 * `/fork`, `/clone`), as it looked while it happened. Only the last screens are rendered: the
 * branch is walked from its leaf backwards, entries are read from the file as they are needed,
 * and the count of what stays above is taken from the entry index without parsing those lines.
 */
import type { AssistantMessage } from "../../ai/types.ts";
import type { SessionEntry } from "../../session/format.ts";
import type { EntryRecord } from "../../session/records.ts";
import type { ToolResult } from "../../tools/types.ts";
import { ToolBlocks } from "./render/tool-blocks.ts";
import {
  assistantRows,
  bashCommandRows,
  customRows,
  summaryRows,
  toolRows,
  userRows,
  type TranscriptStyle,
} from "./render/transcript.ts";

/** The part of a session store a replay reads. */
export interface ReplaySource {
  branchRecords(): EntryRecord[];
  readEntry(record: EntryRecord): SessionEntry | undefined;
}

export interface Replay {
  rows: string[];
  /** Messages of the branch above the first one shown. */
  hiddenMessages: number;
  /** Messages shown. */
  shownMessages: number;
}

/** What rendering an entry needs of the ones before it. */
interface ReplayContext {
  /** The tool calls of the answers seen so far, for their results' call lines. */
  calls: Map<string, { name: string; args: Record<string, unknown> }>;
  /** A message came before: the settings a session starts with are not shown. */
  talked: boolean;
  /** No message comes after: settings recorded then (the level noted on opening) are not shown. */
  settled: boolean;
}

function noteToolCalls(answer: AssistantMessage, context: ReplayContext): void {
  for (const block of answer.content) {
    if (block.type === "toolCall") context.calls.set(block.id, { name: block.name, args: (block.arguments ?? {}) as Record<string, unknown> });
  }
}

function summary(title: string, text: unknown, s: TranscriptStyle, blocks: ToolBlocks): string[] {
  return summaryRows(title, text as string, s, blocks.expandedAll);
}

const compacted = (tokensBefore: unknown) => `Compacted ${tokensBefore} tokens into a summary:`;
const BRANCH_LEFT = "Summary of the branch left behind:";

/** What one entry prints: its rows and, for a tool result, its block's number (its first row is the call line). */
interface EntryView {
  rows: string[];
  block?: number;
}

function entryView(entry: SessionEntry, s: TranscriptStyle, blocks: ToolBlocks, context: ReplayContext): EntryView {
  if (entry.type === "message" && (entry as { message: { role: string } }).message.role === "toolResult") {
    const rows = entryRows(entry, s, blocks, context);
    return { rows, block: blocks.count };
  }
  return { rows: entryRows(entry, s, blocks, context) };
}

/** The rows one entry prints (none for bookkeeping entries: labels, names, extension state). */
function entryRows(entry: SessionEntry, s: TranscriptStyle, blocks: ToolBlocks, context: ReplayContext): string[] {
  const t = s.theme;
  const e = entry as SessionEntry & Record<string, unknown>;
  switch (entry.type) {
    case "message": {
      const m = e.message as Record<string, unknown> & { role: string };
      // The prompt and tools the session declares are not part of the conversation shown.
      if (m.role === "system") return [];
      context.talked = true;
      switch (m.role) {
        case "user":
          return userRows(m.content as string, s);
        case "assistant":
          noteToolCalls(m as unknown as AssistantMessage, context);
          return assistantRows(m as unknown as AssistantMessage, s);
        case "toolResult": {
          const call = context.calls.get(m.toolCallId as string);
          const result: ToolResult = { content: m.content as ToolResult["content"], details: m.details };
          return toolRows({ name: m.toolName as string, args: call?.args ?? {}, result, isError: m.isError === true }, blocks, s, true);
        }
        case "bashExecution":
          return bashCommandRows(m as never, s, blocks.expandedAll);
        case "custom":
          return m.display ? customRows(m.customType as string, m.content as string, s) : [];
        case "compactionSummary":
          return summary(compacted(m.tokensBefore), m.summary, s, blocks);
        case "branchSummary":
          return summary(BRANCH_LEFT, m.summary, s, blocks);
        default:
          return [];
      }
    }
    case "compaction":
      return summary(compacted(e.tokensBefore), e.summary, s, blocks);
    case "branch_summary":
      return summary(BRANCH_LEFT, e.summary, s, blocks);
    case "custom_message":
      return e.display ? customRows(e.customType as string, e.content as string, s) : [];
    // A switch made during the conversation shows as it did; the settings a session starts with do not.
    // (and neither do the ones recorded after the last message, such as the level noted on opening).
    case "model_change":
      return context.talked && !context.settled ? [t.fg("muted", `Model: ${e.provider}/${e.modelId}`)] : [];
    case "thinking_level_change":
      return context.talked && !context.settled ? [t.fg("muted", `Thinking level: ${e.thinkingLevel}`)] : [];
    default:
      return [];
  }
}

/** The context for rendering from `start` on: the tool calls of the answer just before it, so the first results shown have their calls. */
function contextAt(source: ReplaySource, records: EntryRecord[], start: number, messagesBefore: number): ReplayContext {
  const context: ReplayContext = { calls: new Map(), talked: messagesBefore > 0, settled: false };
  for (let i = start - 1; i >= 0 && i >= start - 64; i--) {
    const record = records[i]!;
    if (record.type !== "message") continue;
    if (record.role === "assistant") {
      const entry = source.readEntry(record);
      if (entry) noteToolCalls((entry as unknown as { message: AssistantMessage }).message, context);
      break;
    }
  }
  return context;
}

/** How many tool results `records` hold (each is a numbered block of the view). */
const toolResultsIn = (records: readonly EntryRecord[]): number => records.filter((r) => r.type === "message" && r.role === "toolResult").length;

/** A message of the conversation: what the user and the agent said, not the prompt declarations. */
export const isConversationMessage = (r: EntryRecord): boolean => r.type === "message" && r.role !== "system";
const isMessage = isConversationMessage;

/**
 * The last `budget` rows of the branch (at least its last entry, cut from the top when that
 * alone is taller), numbering the tool blocks shown in `blocks` by their place in the branch.
 */
export function replayBranch(source: ReplaySource, s: TranscriptStyle, budget: number, blocks: ToolBlocks): Replay {
  const records = source.branchRecords();
  const messages = records.filter(isMessage).length;
  blocks.clear();
  if (budget <= 0) {
    blocks.skip(toolResultsIn(records));
    return { rows: [], hiddenMessages: messages, shownMessages: 0 };
  }
  // Backwards: how far up the budget reaches (a scratch numbering; the real one comes next).
  const scratch = new ToolBlocks();
  scratch.expandedAll = blocks.expandedAll;
  const scratchContext: ReplayContext = { calls: new Map(), talked: true, settled: false };
  const entries: (SessionEntry | undefined)[] = [];
  let start = records.length;
  let rows = 0;
  while (start > 0 && rows < budget) {
    start--;
    const entry = source.readEntry(records[start]!);
    entries[start] = entry;
    if (entry) rows += entryRows(entry, s, scratch, scratchContext).length;
  }
  // Forwards: the rows themselves, tool blocks numbered by their place in the whole branch (the
  // results above are counted, not read), so `/expand N` means the same block live, in any
  // replay and after Alt+O.
  blocks.skip(toolResultsIn(records.slice(0, start)));
  const tail = records.slice(start);
  const context = contextAt(source, records, start, messages - tail.filter(isMessage).length);
  const perEntry: EntryView[] = [];
  const lastMessage = tail.findLastIndex(isMessage);
  tail.forEach((_, i) => {
    const entry = entries[start + i];
    context.settled = i > lastMessage;
    perEntry.push(entry ? entryView(entry, s, blocks, context) : { rows: [] });
  });
  // Whole entries above the budget are dropped; the first one shown is cut from the top when the
  // rest leave it less room than it takes.
  let total = perEntry.reduce((n, e) => n + e.rows.length, 0);
  let first = 0;
  while (first < perEntry.length - 1 && total - perEntry[first]!.rows.length >= budget) total -= perEntry[first++]!.rows.length;
  const shown = perEntry.slice(first);
  if (total > budget) shown[0] = cutFromTop(shown[0]!, total - budget, s);
  const shownMessages = tail.slice(first).filter(isMessage).length;
  return { rows: shown.flatMap((e) => e.rows), hiddenMessages: messages - shownMessages, shownMessages };
}

/**
 * An entry without its first `over` rows, and a line saying so in their place: a tool block
 * keeps its call line above that line, which names the block for `/expand N`.
 */
function cutFromTop(entry: EntryView, over: number, s: TranscriptStyle): EntryView {
  const head = entry.block !== undefined ? entry.rows.slice(0, 1) : [];
  const body = entry.rows.slice(head.length);
  // The line saying what is cut takes a row too.
  const cut = Math.min(body.length, over + 1);
  const what = `… ${cut} earlier row${cut === 1 ? "" : "s"}${entry.block !== undefined ? ` · /expand ${entry.block}` : ""}`;
  return { ...entry, rows: [...head, `  ${s.theme.fg("dim", what)}`, ...body.slice(cut)] };
}
