/**
 * Turns the session's events into what the person sees: their messages, the answer streaming
 * in (Markdown rendered line by line, wrapped to the terminal), thinking dimmed (or a mark where
 * it is hidden), each tool call with its result block, the output of a running command live in
 * the region above the prompt, errors once with where they came from, a retry as one updating
 * line, and a spinner saying what pig is doing.
 */
import { extensionErrorText } from "../extension-error.ts";
import type { PigEvent } from "../../agent/events.ts";
import { RETRY_CANCELLED } from "../../agent/retry.ts";
import type { AssistantMessage } from "../../ai/types.ts";
import { wrapInput } from "./input/layout.ts";
import { truncateToWidth } from "../../util/width.ts";
import { inline, MarkdownStream } from "./render/markdown.ts";
import { ToolBlocks } from "./render/tool-blocks.ts";
import { formatToolCall, formatToolResult } from "./render/tools.ts";
import { ToolCallsView } from "./tool-calls-view.ts";
import { answerEndRows, customRows, hiddenThinking, thinkingLineRows, userRows, type TranscriptStyle } from "./render/transcript.ts";
import { LineSplitter } from "../../util/line-splitter.ts";
import { ShellOutput } from "./shell-output.ts";
import { printable, printableLine } from "./render/terminal-text.ts";
import { supportsHyperlinks } from "./render/wrap.ts";
import type { Theme } from "./theme.ts";
import { AttemptCounter, delayText, readableError, whereText, type ModelLookup } from "../failure-report.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface ViewOutput {
  print(text: string): void;
  setStatus(lines: readonly string[]): void;
  /** The terminal's width, for wrapping (80 when unknown). */
  columns?(): number;
}

export interface ViewOptions {
  showThinking: boolean;
  codeBlockIndent?: string;
  models?: ModelLookup;
  /** The session's working directory, where tool paths are resolved (for write's diff). */
  cwd?: () => string;
  hyperlinks?: boolean;
}

/** How many rows of the line being written show above the prompt (the end of it, when longer). */
const LIVE_ROWS = 4;

/**
 * The line being written is redrawn at most this often: a fast stream sends a piece every few
 * ms, and wrapping and styling the line for each piece cost more than the rest of the view.
 */
const LIVE_FRAME_MS = 33;

/** A thinking block as it streams: its lines, whether any of it (or its hidden mark) was printed, its place in the answer. */
interface StreamedThinking {
  lines: LineSplitter;
  printed: boolean;
  index: number;
}

export class EventView {
  showThinking: boolean;
  /** The result blocks printed so far, numbered for `/expand N`. */
  readonly blocks = new ToolBlocks();
  private markdown: MarkdownStream | undefined;
  /** The thinking block being streamed. */
  private thinking: StreamedThinking | undefined;
  /** The answer's block (content index) whose text or thinking is being shown. */
  private streaming: number | undefined;
  /** The answer's thinking blocks already begun on screen (a block resumed after another is not introduced again). */
  private readonly thinkingShown = new Set<number>();
  private activity: string | undefined;
  private startedAt = 0;
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** A redraw of the line being written, due within LIVE_FRAME_MS. */
  private liveFrame: ReturnType<typeof setTimeout> | undefined;
  private queue: { steering: string[]; followUp: string[] } = { steering: [], followUp: [] };
  /** The answer's tool calls, each its own block. */
  private readonly tools: ToolCallsView;
  private failed: AssistantMessage | undefined;
  /** The retry chain under way: its last attempt, why, and whether the wait before it shows (counting down). */
  private retry: { attempt: number; max: number; until: number; reason: string; waiting: boolean } | undefined;
  /** A `!` command's output. */
  readonly shell = new ShellOutput({
    theme: () => this.theme,
    width: () => this.width(),
    print: (rows) => this.rows(rows),
    startSpinner: () => {
      if (this.timer) return false;
      this.startWorking("running");
      return true;
    },
    stopSpinner: () => this.stopWorking(),
  });
  private readonly codeBlockIndent: string;
  /** Where a failed answer's model lives, for the error line. */
  private readonly models: ModelLookup;
  private readonly cwd: () => string;
  private readonly hyperlinks: boolean;
  private readonly attempts = new AttemptCounter();

  constructor(
    private readonly out: ViewOutput,
    /** Replaced when the user picks another theme; what is printed from then on uses it. */
    public theme: Theme,
    options: ViewOptions,
  ) {
    this.showThinking = options.showThinking;
    this.codeBlockIndent = options.codeBlockIndent ?? "  ";
    this.models = options.models ?? (() => undefined);
    this.cwd = options.cwd ?? (() => process.cwd());
    this.hyperlinks = options.hyperlinks ?? supportsHyperlinks();
    this.tools = new ToolCallsView({ theme: () => this.theme, width: () => this.width(), print: (rows) => this.rows(rows), cwd: this.cwd }, this.blocks);
  }

  /** Columns to fit printed rows to (one less than the terminal, so no row leaves the cursor pending). */
  width(): number {
    return Math.max(20, (this.out.columns?.() ?? 80) - 1);
  }

  style(): TranscriptStyle {
    return { theme: this.theme, width: this.width(), showThinking: this.showThinking, codeBlockIndent: this.codeBlockIndent, hyperlinks: this.hyperlinks };
  }

  private rows(rows: readonly string[]): void {
    if (rows.length > 0) this.out.print(`${rows.join("\n")}\n`);
  }

  handle(event: PigEvent): void {
    const t = this.theme;
    this.attempts.observe(event);
    if (this.failed && ["message_start", "tool_execution_start"].includes(event.type)) this.reportFailure();
    // A run that failed may go on at once with a retry or, when the context overflowed, with a
    // compaction: either says so itself. Otherwise the error is reported once the run has settled.
    if (this.failed && event.type === "agent_end") setTimeout(() => this.reportFailure(), 0);
    if (event.type === "compaction_start" && event.reason === "overflow") this.failed = undefined;
    else if (this.failed && event.type === "compaction_start") this.reportFailure();
    switch (event.type) {
      case "agent_start":
        this.startWorking("waiting for the model");
        break;
      case "agent_end":
        this.tools.settle();
        this.stopWorking();
        break;
      case "message_start":
        if (event.message.role === "user") this.rows(userRows((event.message as { content: string }).content, this.style()));
        // An extension's message meant to be seen (sendMessage with display), as the transcript shows it.
        if (event.message.role === "custom" && event.message.display) this.rows(customRows(String(event.message.customType), event.message.content as string, this.style()));
        // A new answer's blocks count from 0 again: whatever an answer that never ended left open is finished.
        if (event.message.role === "assistant") this.finishStreamedBlock();
        if (event.message.role === "assistant" && this.retry?.waiting) {
          this.retry.waiting = false;
          this.activity = "waiting for the model";
        }
        break;
      case "message_update":
        this.answerUpdate(event.assistantMessageEvent);
        break;
      case "message_end":
        if (event.message.role === "assistant") this.answerEnd(event.message as AssistantMessage);
        break;
      case "tool_execution_start":
        // A call another tool made (`ctx.executeTool`) belongs to its parent's block: the calling tool reports it.
        if (event.parentToolCallId !== undefined) break;
        this.tools.started(event.toolCallId, event.toolName, event.args);
        this.activity = `running ${this.tools.running().join(", ")}`;
        this.render();
        break;
      case "tool_execution_update": {
        if (event.parentToolCallId !== undefined) break;
        const text = event.partialResult.content.map((b) => (b.type === "text" ? b.text : "")).join("");
        const total = (event.partialResult.details as { truncation?: { totalLines?: unknown } } | undefined)?.truncation?.totalLines;
        if (this.tools.updated(event.toolCallId, text, typeof total === "number" ? total : undefined)) this.render();
        break;
      }
      case "tool_execution_end": {
        if (event.parentToolCallId !== undefined) break;
        this.tools.ended(event.toolCallId, event.result, event.isError);
        const running = this.tools.running();
        this.activity = running.length > 0 ? `running ${running.join(", ")}` : "waiting for the model";
        this.render();
        break;
      }
      case "queue_update":
        this.queue = { steering: event.steering, followUp: event.followUp };
        this.render();
        break;
      case "compaction_start":
        this.startWorking(event.reason === "manual" ? "compacting" : `compacting (${event.reason})`);
        break;
      case "compaction_end":
        // A manual compaction's outcome is told by /compact itself, once.
        if (event.reason !== "manual") {
          if (event.errorMessage) this.out.print(`${t.fg("error", printable(`Compaction failed: ${event.errorMessage}`))}\n`);
          else if (event.result) this.out.print(`${t.fg("muted", `Compacted ${event.result.tokensBefore} tokens into a summary (${event.reason === "overflow" ? "the context overflowed" : "the context was nearly full"}).`)}\n`);
          else if (event.aborted) this.out.print(`${t.fg("warning", "Compaction cancelled.")}\n`);
        }
        if (!event.willRetry) this.stopWorking();
        break;
      case "auto_retry_start":
        // One line above the prompt, counting down; the failed answer is not reported as an error.
        this.failed = undefined;
        this.retry = { attempt: event.attempt, max: event.maxAttempts, until: Date.now() + event.delayMs, reason: printableLine(readableError(event.errorMessage).replace(/\s*\n\s*/g, " ")), waiting: true };
        this.startWorking("retrying");
        break;
      case "auto_retry_end": {
        const retry = this.retry;
        this.retry = undefined;
        if (event.success && retry) {
          const n = retry.attempt;
          this.out.print(`${t.fg("dim", `(retried ${n === 1 ? "once" : `${n} times`} after: ${retry.reason})`)}\n`);
        } else if (!event.success && event.finalError === RETRY_CANCELLED) {
          this.reportFailure();
          this.out.print(`${t.fg("warning", `Retry cancelled${retry ? ` (the last attempt failed: ${retry.reason})` : ""}.`)}\n`);
        } else if (!event.success) this.reportFailure(event.attempt + 1);
        this.render();
        break;
      }
      // A level change is told by what made it (Shift+Tab, a model switch), in one line with it.
      case "session_info_changed":
        this.out.print(`${t.fg("muted", printable(`Session name: ${event.name ?? "(none)"}`))}\n`);
        break;
      case "extension_error":
        this.out.print(`${t.fg("error", printable(extensionErrorText(event)))}\n`);
        break;
      case "entry_appended":
        // A session boundary's custom message to be seen (other entries are state, not transcript).
        if (event.entry.type === "custom_message" && (event.entry as { display?: unknown }).display === true) {
          const entry = event.entry as { customType: string; content: unknown };
          this.rows(customRows(entry.customType, entry.content as string, this.style()));
        }
        break;
      default:
        break;
    }
  }

  /**
   * A provider may end an answer's blocks only when the whole answer ends (OpenAI-compatible
   * servers do): the view goes by the block each event belongs to, and a block another one
   * follows is finished on screen then, so what was printed stays in the answer's order.
   */
  private answerUpdate(e: Extract<PigEvent, { type: "message_update" }>["assistantMessageEvent"]): void {
    const t = this.theme;
    if (e.type === "text_start" || e.type === "text_delta") {
      this.activity = "writing";
      this.streamInto(e.contentIndex);
      this.markdown ??= new MarkdownStream(t, (text) => this.out.print(text), { codeBlockIndent: this.codeBlockIndent, width: () => this.width(), hyperlinks: this.hyperlinks });
      if (e.type === "text_delta") this.markdown.push(e.delta);
      // The line so far shows above the prompt until it is complete and printed.
      this.renderSoon();
    } else if (e.type === "thinking_start" || e.type === "thinking_delta") {
      this.activity = "thinking";
      this.streamInto(e.contentIndex);
      const index = e.contentIndex;
      const thinking = (this.thinking ??= { lines: new LineSplitter(), printed: this.thinkingShown.has(index), index });
      if (e.type === "thinking_delta") {
        if (this.showThinking) this.thinkingLines(thinking, thinking.lines.push(e.delta));
        else if (!thinking.printed) {
          this.thinkingShown.add(index);
          thinking.printed = true;
          this.out.print(`${hiddenThinking(t)}\n`);
        }
      }
      this.renderSoon();
    } else if (e.type === "toolcall_start") this.streamInto(e.contentIndex);
    else if ((e.type === "text_end" || e.type === "thinking_end") && this.streaming === e.contentIndex) this.finishStreamedBlock();
  }

  /** Events of block `index` arrive: the block shown so far, if another, is finished first. */
  private streamInto(index: number): void {
    if (this.streaming !== index) this.finishStreamedBlock();
    this.streaming = index;
  }

  /** The block being shown is finished on screen: its last line printed. */
  private finishStreamedBlock(): void {
    this.streaming = undefined;
    this.markdown?.end();
    this.markdown = undefined;
    if (this.thinking) this.endThinking();
    this.render();
  }

  /** Thinking prints a whole (wrapped) line at a time, like the answer. */
  private thinkingLines(thinking: StreamedThinking, lines: readonly string[]): void {
    const rows = lines.flatMap((line, i) => thinkingLineRows(line, !thinking.printed && i === 0, this.theme, this.width()));
    if (lines.length > 0) {
      thinking.printed = true;
      this.thinkingShown.add(thinking.index);
    }
    this.rows(rows);
  }

  private endThinking(): void {
    const thinking = this.thinking;
    const last = thinking?.lines.take();
    if (thinking && last && this.showThinking) this.thinkingLines(thinking, [last]);
    this.thinking = undefined;
  }

  private answerEnd(answer: AssistantMessage): void {
    this.finishStreamedBlock();
    this.thinkingShown.clear();
    // An error waits: a retry that follows replaces it with its own line.
    if (answer.stopReason === "error") this.failed = answer;
    else this.rows(answerEndRows(answer, this.theme));
  }

  private reportFailure(attempts = this.attempts.attempts): void {
    const answer = this.failed;
    this.failed = undefined;
    if (!answer) return;
    const where = `${whereText(answer, this.models)}${attempts > 1 ? `, gave up after ${attempts} attempts` : ""}`;
    this.rows(answerEndRows({ stopReason: "error", errorMessage: readableError(answer.errorMessage ?? "the request failed") }, this.theme, where));
  }

  /** Ctrl+O: the last tool result in full; false when there is none yet. */
  expandLast(): boolean {
    return this.expand(this.blocks.count);
  }

  /** `/expand N`: block N in full, under a line naming it. False when there is no such block. */
  expand(number: number): boolean {
    const block = this.blocks.get(number);
    if (!block) return false;
    const t = this.theme;
    this.rows([t.fg("muted", `Result ${number} in full:`), formatToolCall(block.name, block.args, t, this.width()), ...formatToolResult(block, t, { expanded: true, width: this.width() })]);
    return true;
  }

  private startWorking(activity: string): void {
    this.activity = activity;
    if (this.timer) {
      this.render();
      return;
    }
    this.startedAt = Date.now();
    this.timer = setInterval(() => {
      this.frame = (this.frame + 1) % SPINNER.length;
      this.render();
    }, 120);
    this.render();
  }

  private stopWorking(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.activity = undefined;
    if (this.retry) this.retry.waiting = false;
    this.render();
  }

  /** Redraws within a frame: the pieces of a stream that arrive meanwhile are drawn once. */
  private renderSoon(): void {
    this.liveFrame ??= setTimeout(() => this.render(), LIVE_FRAME_MS);
  }

  private render(): void {
    if (this.liveFrame !== undefined) clearTimeout(this.liveFrame);
    this.liveFrame = undefined;
    const t = this.theme;
    const width = this.width();
    const lines: string[] = [];
    const queued = [...this.queue.steering.map((q) => `steer: ${q}`), ...this.queue.followUp.map((q) => `follow-up: ${q}`)];
    if (queued.length > 0) {
      lines.push(t.fg("muted", `${queued.length} queued (Alt+Up to edit):`));
      for (const q of queued) lines.push(t.fg("muted", truncateToWidth(`  ${printableLine(q.split("\n")[0]!)}`, width)));
    }
    lines.push(...this.tools.liveRows());
    const pending = this.markdown?.pending ?? (this.showThinking ? this.thinking?.lines.pending : undefined);
    if (pending) {
      // Wrapped as the prompt wraps its input; the end of a long line, when it is longer.
      // Only the end is wrapped: a line that grows long would cost more at every delta.
      const tail = pending.length > LIVE_ROWS * width * 4 ? pending.slice(-LIVE_ROWS * width * 2) : pending;
      const rows = wrapInput(printableLine(tail), 0, width).rows.slice(-LIVE_ROWS);
      lines.push(...rows.map((row) => (this.markdown ? inline(row, t) : t.italic(t.fg("thinkingText", row)))));
    }
    if (this.activity && this.timer) {
      const seconds = Math.floor((Date.now() - this.startedAt) / 1000);
      const spinner = t.fg("accent", SPINNER[this.frame]!);
      if (this.retry?.waiting) {
        const left = Math.max(0, this.retry.until - Date.now());
        const what = left > 0 ? `retrying in ${left < 1000 ? delayText(left) : `${Math.ceil(left / 1000)}s`}` : "retrying";
        lines.push(truncateToWidth(`${spinner} ${t.fg("warning", `${what} (${this.retry.attempt}/${this.retry.max})`)} ${t.fg("muted", `· ${this.retry.reason} · Esc to stop`)}`, width));
      } else lines.push(`${spinner} ${t.fg("muted", `${this.activity} ${seconds}s · Esc to stop`)}`);
    }
    this.out.setStatus(lines);
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.liveFrame !== undefined) clearTimeout(this.liveFrame);
    this.liveFrame = undefined;
  }
}
