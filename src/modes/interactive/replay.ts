/**
 * Printing a session's active branch when it is opened (`-c`, `--session`, `/resume`, `/tree`,
 * `/fork`, `/clone`), as it looked while it happened. Only the last screens are rendered: the
 * branch is walked from its leaf backwards, entries are read from the file as they are needed,
 * and the count of what stays above is taken from the entry index without parsing those lines.
 * Each entry shown is read and rendered once: the walk back renders it as it will be shown.
 */
import type { AssistantMessage } from "../../ai/types.ts";
import type { SessionEntry } from "../../session/format.ts";
import type { EntryRecord } from "../../session/records.ts";
import type { ToolResult } from "../../tools/types.ts";
import { ToolBlocks } from "./render/tool-blocks.ts";
import type { ToolBlock } from "./render/tools.ts";
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

function noteToolCalls(answer: AssistantMessage, calls: ReplayContext["calls"]): void {
  for (const block of answer.content) {
    if (block.type === "toolCall") calls.set(block.id, { name: block.name, args: (block.arguments ?? {}) as Record<string, unknown> });
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

const isToolResult = (entry: SessionEntry): boolean => entry.type === "message" && (entry as { message: { role: string } }).message.role === "toolResult";

function entryView(entry: SessionEntry, s: TranscriptStyle, blocks: ToolBlocks, context: ReplayContext): EntryView {
  if (isToolResult(entry)) {
    const rows = entryRows(entry, s, blocks, context);
    return { rows, block: blocks.count };
  }
  return { rows: entryRows(entry, s, blocks, context) };
}

/** What an entry tells the ones after it: a message was said, and the tool calls an answer made. */
function noteEntry(entry: SessionEntry, context: ReplayContext): void {
  if (entry.type !== "message") return;
  const m = (entry as { message: { role: string } }).message;
  if (m.role === "system") return;
  context.talked = true;
  if (m.role === "assistant") noteToolCalls(m as unknown as AssistantMessage, context.calls);
}

/**
 * What an entry's rows take from the entries around it: a result, its call's arguments; a
 * settings change, whether it is shown. Rows drawn with the same are the same rows.
 */
function dependency(entry: SessionEntry, context: ReplayContext): unknown {
  if (isToolResult(entry)) return context.calls.get((entry as { message: { toolCallId?: unknown } }).message.toolCallId as string)?.args;
  if (entry.type === "model_change" || entry.type === "thinking_level_change") return context.talked && !context.settled;
  return undefined;
}

/** The rows one entry prints (none for bookkeeping entries: labels, names, extension state); what it tells the next ones is noteEntry's. */
function entryRows(entry: SessionEntry, s: TranscriptStyle, blocks: ToolBlocks, context: ReplayContext): string[] {
  const t = s.theme;
  const e = entry as SessionEntry & Record<string, unknown>;
  switch (entry.type) {
    case "message": {
      const m = e.message as Record<string, unknown> & { role: string };
      // The prompt and tools the session declares are not part of the conversation shown.
      if (m.role === "system") return [];
      switch (m.role) {
        case "user":
          return userRows(m.content as string, s);
        case "assistant":
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

/** How far back the answer holding a result's call is looked for. */
const CALL_REACH = 64;

/** The index of the last answer in the `CALL_REACH` records before `at`, if any. */
function answerBefore(records: readonly EntryRecord[], at: number): number | undefined {
  for (let i = at - 1; i >= 0 && i >= at - CALL_REACH; i--) {
    const record = records[i]!;
    if (record.type === "message" && record.role === "assistant") return i;
  }
  return undefined;
}

/** The tool calls of the answer at `index` (none when there is none, or it cannot be read). */
function callsOf(read: (index: number) => SessionEntry | undefined, index: number | undefined): ReplayContext["calls"] {
  const calls: ReplayContext["calls"] = new Map();
  const entry = index === undefined ? undefined : read(index);
  if (entry) noteToolCalls((entry as unknown as { message: AssistantMessage }).message, calls);
  return calls;
}

/** The context for rendering from `start` on: the tool calls of the answer just before it, so the first results shown have their calls. */
function contextAt(read: (index: number) => SessionEntry | undefined, records: EntryRecord[], start: number, messagesBefore: number): ReplayContext {
  return { calls: callsOf(read, answerBefore(records, start)), talked: messagesBefore > 0, settled: false };
}

/** An entry rendered on the walk back, with what its rows took from around it. */
interface Drawn {
  view: EntryView;
  dependsOn: unknown;
  /** A result's block, numbered by its place in the branch. */
  block?: ToolBlock;
}

/** A message of the conversation: what the user and the agent said, not the prompt declarations. */
const isMessage = (r: EntryRecord): boolean => r.type === "message" && r.role !== "system";
const isResultRecord = (r: EntryRecord): boolean => r.type === "message" && r.role === "toolResult";

/** What the branch holds: its messages, its tool results (each a numbered block of the view), where its messages start and end. */
export interface BranchCount {
  messages: number;
  results: number;
  firstMessage: number;
  lastMessage: number;
}

/** The branch `records` counted in one walk. */
export function countBranch(records: readonly EntryRecord[]): BranchCount {
  let messages = 0;
  let results = 0;
  let firstMessage = -1;
  let lastMessage = -1;
  // A plain loop: a long branch is walked once as it opens, before the JIT compiled this.
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (isResultRecord(record)) results++;
    if (!isMessage(record)) continue;
    messages++;
    if (firstMessage < 0) firstMessage = i;
    lastMessage = i;
  }
  return { messages, results, firstMessage, lastMessage };
}

/**
 * The last `budget` rows of the branch (at least its last entry, cut from the top when that
 * alone is taller), numbering the tool blocks shown in `blocks` by their place in the branch.
 */
export function replayBranch(source: ReplaySource, s: TranscriptStyle, budget: number, blocks: ToolBlocks, counted?: BranchCount): Replay {
  const records = source.branchRecords();
  const branch = counted ?? countBranch(records);
  const messages = branch.messages;
  blocks.clear();
  if (budget <= 0) {
    blocks.skip(branch.results);
    return { rows: [], hiddenMessages: messages, shownMessages: 0 };
  }
  // Each line is read once, whichever pass asks first.
  const entries = new Map<number, SessionEntry | undefined>();
  const read = (index: number): SessionEntry | undefined => {
    if (!entries.has(index)) entries.set(index, source.readEntry(records[index]!));
    return entries.get(index);
  };
  // Backwards: how far up the budget reaches, each entry rendered as it will be shown: a result
  // with the calls of the answer above it and numbered by its place in the branch (the results
  // above counted, not read), so `/expand N` means the same block live, in any replay and after
  // Alt+O; a settings change shown when a message came before it and another comes after.
  const { firstMessage, lastMessage } = branch;
  let resultsBefore = branch.results;
  let messagesBefore = messages;
  const drawn = new Map<number, Drawn>();
  let start = records.length;
  let rows = 0;
  while (start > 0 && rows < budget) {
    start--;
    const record = records[start]!;
    if (isResultRecord(record)) resultsBefore--;
    if (isMessage(record)) messagesBefore--;
    const entry = read(start);
    if (!entry) continue;
    const numbering = new ToolBlocks();
    numbering.expandedAll = blocks.expandedAll;
    numbering.skip(resultsBefore);
    const around: ReplayContext = {
      calls: isToolResult(entry) ? callsOf(read, answerBefore(records, start)) : new Map(),
      talked: firstMessage >= 0 && firstMessage < start,
      settled: start > lastMessage,
    };
    const view = entryView(entry, s, numbering, around);
    drawn.set(start, { view, dependsOn: dependency(entry, around), ...(view.block !== undefined ? { block: numbering.get(view.block)! } : {}) });
    rows += view.rows.length;
  }
  // Forwards: the rows in order. An entry drawn on the way back with what it has here is used as
  // drawn; one whose surroundings turn out otherwise (a call further up, an unreadable message)
  // is rendered again.
  blocks.skip(resultsBefore);
  const tail = records.slice(start);
  const context = contextAt(read, records, start, messagesBefore);
  const perEntry: EntryView[] = [];
  tail.forEach((_, i) => {
    const entry = read(start + i);
    // After the last message of what is shown (of the branch, or none shown at all).
    context.settled = start + i > lastMessage;
    if (!entry) {
      perEntry.push({ rows: [] });
      return;
    }
    const early = drawn.get(start + i);
    if (early && early.dependsOn === dependency(entry, context) && (early.view.block === undefined || early.view.block === blocks.count + 1)) {
      if (early.block) blocks.add(early.block);
      perEntry.push(early.view);
    } else perEntry.push(entryView(entry, s, blocks, context));
    noteEntry(entry, context);
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
