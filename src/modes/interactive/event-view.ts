/**
 * Turns the session's events into what the person sees: their messages, the answer streaming
 * in (Markdown rendered line by line), thinking dimmed, one line per tool call with a preview of
 * its result, errors in red, and a spinner with the elapsed time while pig works.
 */
import type { PigEvent } from "../../agent/events.ts";
import { RETRY_CANCELLED } from "../../agent/retry.ts";
import type { AssistantMessage } from "../../ai/types.ts";
import type { AgentMessage, BashExecutionMessage } from "../../session/format.ts";
import type { ToolResult } from "../../tools/types.ts";
import { wrapInput } from "./input/layout.ts";
import { inline, MarkdownStream } from "./render/markdown.ts";
import { formatToolCall, formatToolResult } from "./render/tools.ts";
import type { Theme } from "./theme.ts";
import { AttemptCounter, delayText, readableError, whereText, type ModelLookup } from "../failure-report.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface ViewOutput {
  print(text: string): void;
  setStatus(lines: readonly string[]): void;
  /** The terminal's width, for wrapping the line being written (80 when unknown). */
  columns?(): number;
}

/** Lines of a `!` command's output shown as they arrive; beyond them, the end is shown when it finishes. */
const BASH_LIVE_LINES = 200;
const BASH_TAIL_LINES = 20;

/** How many rows of the line being written show above the prompt (the end of it, when longer). */
const LIVE_ROWS = 4;

export class EventView {
  showThinking: boolean;
  private markdown: MarkdownStream | undefined;
  private thinkingOpen = false;
  private activity: string | undefined;
  private startedAt = 0;
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private queue: { steering: string[]; followUp: string[] } = { steering: [], followUp: [] };
  private readonly running = new Map<string, string>();
  private last: { name: string; result: ToolResult; isError: boolean } | undefined;
  private bashPending = "";
  private bashPrinted = 0;
  private bashCapped = false;
  private bashOwnsSpinner = false;

  constructor(
    private readonly out: ViewOutput,
    /** Replaced when the user picks another theme; what is printed from then on uses it. */
    public theme: Theme,
    options: { showThinking: boolean; codeBlockIndent?: string; models?: ModelLookup },
  ) {
    this.showThinking = options.showThinking;
    this.codeBlockIndent = options.codeBlockIndent ?? "  ";
    this.models = options.models ?? (() => undefined);
  }

  private readonly codeBlockIndent: string;
  /** Where a failed answer's model lives, for the error line. */
  private readonly models: ModelLookup;
  private readonly attempts = new AttemptCounter();

  /** Prints a user message as it enters the conversation. */
  private userLine(message: AgentMessage): void {
    const content = (message as { content?: unknown }).content;
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content.map((b: { type?: string; text?: string }) => (b.type === "text" ? b.text : "[image]")).join(" ")
          : "";
    // Attached files show as their names, not their contents.
    const shown = text.replace(/<file name="([^"]*)">[\s\S]*?<\/file>\n?/g, (_, name: string) => `[file ${name}]\n`);
    this.out.print(`${this.theme.fg("accent", "›")} ${this.theme.bold(shown)}\n`);
  }

  handle(event: PigEvent): void {
    const t = this.theme;
    this.attempts.observe(event);
    switch (event.type) {
      case "agent_start":
        this.startWorking("waiting for the model");
        break;
      case "agent_end":
        this.stopWorking();
        break;
      case "message_start":
        if (event.message.role === "user") this.userLine(event.message);
        break;
      case "message_update": {
        const e = event.assistantMessageEvent;
        this.activity = "writing";
        if (e.type === "text_start") this.markdown = new MarkdownStream(t, (text) => this.out.print(text), { codeBlockIndent: this.codeBlockIndent });
        else if (e.type === "text_delta") {
          this.markdown?.push(e.delta);
          // The line so far shows above the prompt until it is complete and printed.
          this.render();
        }
        else if (e.type === "text_end") {
          this.markdown?.end();
          this.markdown = undefined;
          this.render();
        } else if (e.type === "thinking_start" && this.showThinking) {
          this.thinkingOpen = true;
          this.out.print(t.italic(t.fg("thinkingText", "thinking: ")));
        } else if (e.type === "thinking_delta" && this.thinkingOpen) this.out.print(t.italic(t.fg("thinkingText", e.delta)));
        else if (e.type === "thinking_end" && this.thinkingOpen) {
          this.thinkingOpen = false;
          this.out.print("\n");
        }
        break;
      }
      case "message_end":
        if (event.message.role === "assistant") this.answerEnd(event.message as AssistantMessage);
        break;
      case "tool_execution_start":
        this.running.set(event.toolCallId, event.toolName);
        this.activity = `running ${event.toolName}`;
        this.out.print(`${formatToolCall(event.toolName, event.args, t)}\n`);
        break;
      case "tool_execution_end":
        this.running.delete(event.toolCallId);
        this.last = { name: event.toolName, result: event.result, isError: event.isError };
        this.out.print(`${formatToolResult(event.toolName, event.result, event.isError, t).join("\n")}\n`);
        this.activity = this.running.size > 0 ? `running ${[...this.running.values()].join(", ")}` : "waiting for the model";
        break;
      case "queue_update":
        this.queue = { steering: event.steering, followUp: event.followUp };
        this.render();
        break;
      case "compaction_start":
        this.startWorking(event.reason === "manual" ? "compacting" : `compacting (${event.reason})`);
        break;
      case "compaction_end":
        if (event.errorMessage) this.out.print(`${t.fg("error", event.errorMessage)}\n`);
        else if (event.result) this.out.print(`${t.fg("muted", `Compacted ${event.result.tokensBefore} tokens into a summary.`)}\n`);
        else if (event.aborted) this.out.print(`${t.fg("warning", "Compaction cancelled.")}\n`);
        if (!event.willRetry) this.stopWorking();
        break;
      case "auto_retry_start":
        // The error itself was just shown with the failed answer.
        this.out.print(`${t.fg("warning", `Retrying in ${delayText(event.delayMs)} (retry ${event.attempt}/${event.maxAttempts})`)}\n`);
        break;
      case "auto_retry_end":
        if (!event.success && event.finalError === RETRY_CANCELLED) this.out.print(`${t.fg("warning", "Retry cancelled.")}\n`);
        else if (!event.success) {
          const attempts = event.attempt + 1;
          this.out.print(`${t.fg("error", `Gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${readableError(event.finalError ?? "")}`)}\n`);
        }
        break;
      case "thinking_level_changed":
        this.out.print(`${t.fg("muted", `Thinking level: ${event.level}`)}\n`);
        break;
      case "session_info_changed":
        this.out.print(`${t.fg("muted", `Session name: ${event.name ?? "(none)"}`)}\n`);
        break;
      default:
        break;
    }
  }

  private answerEnd(answer: AssistantMessage): void {
    const t = this.theme;
    this.markdown?.end();
    this.markdown = undefined;
    if (this.thinkingOpen) {
      this.thinkingOpen = false;
      this.out.print("\n");
    }
    if (answer.stopReason === "error") {
      const error = readableError(answer.errorMessage ?? "the request failed");
      this.out.print(`${t.fg("error", `Error: ${error}`)}\n${t.fg("muted", `  ${whereText(answer, this.models)}, attempt ${this.attempts.attempts}`)}\n`);
    }
    else if (answer.stopReason === "aborted") this.out.print(`${t.fg("warning", "(aborted)")}\n`);
    else if (answer.stopReason === "length") this.out.print(`${t.fg("warning", "(the answer hit the output limit)")}\n`);
  }

  /** Prints a user shell command's result (`!cmd`). */
  /**
   * A `!` command's output as it arrives, whole lines at a time, with a spinner meanwhile.
   * `bashFinished` then prints what is left and how it ended.
   */
  bashStarted(): void {
    this.bashPending = "";
    this.bashPrinted = 0;
    this.bashCapped = false;
    // The agent's spinner, if it is working too, stays; otherwise this one shows the command runs.
    this.bashOwnsSpinner = !this.timer;
    if (this.bashOwnsSpinner) this.startWorking("running");
  }

  bashOutput(text: string): void {
    const all = this.bashPending + text;
    const cut = all.lastIndexOf("\n");
    if (cut < 0) {
      this.bashPending = all;
      return;
    }
    this.bashPending = all.slice(cut + 1);
    this.printBashLines(all.slice(0, cut).split("\n"));
  }

  /** The command ended (`message`), or could not start (undefined). */
  bashFinished(message: BashExecutionMessage | undefined): void {
    if (this.bashOwnsSpinner) this.stopWorking();
    this.bashOwnsSpinner = false;
    if (this.bashPending && !this.bashCapped) this.printBashLines([this.bashPending]);
    this.bashPending = "";
    if (!message) return;
    if (this.bashCapped) {
      // Only the start was shown live: the end of the output follows.
      const tail = message.output.replace(/\n+$/, "").split("\n").slice(-BASH_TAIL_LINES);
      this.out.print(`${this.theme.fg("dim", `  … the last ${tail.length} lines:`)}\n`);
      this.out.print(`${tail.map((l) => `  ${this.theme.fg("border", "│")} ${l}`).join("\n")}\n`);
      this.bashStatus(message);
    } else if (this.bashPrinted === 0) this.bashResult(message);
    else this.bashStatus(message);
  }

  private printBashLines(lines: string[]): void {
    if (this.bashCapped) return;
    const room = BASH_LIVE_LINES - this.bashPrinted;
    const shown = lines.slice(0, room);
    this.bashPrinted += shown.length;
    if (shown.length > 0) this.out.print(`${shown.map((l) => `  ${this.theme.fg("border", "│")} ${l}`).join("\n")}\n`);
    if (lines.length > room) {
      this.bashCapped = true;
      this.out.print(`${this.theme.fg("dim", "  … more output; its end is shown when the command finishes")}\n`);
    }
  }

  bashResult(message: BashExecutionMessage): void {
    const t = this.theme;
    const lines = message.output.replace(/\n+$/, "").split("\n");
    this.out.print(`${lines.map((l) => `  ${t.fg("border", "│")} ${l}`).join("\n")}\n`);
    this.bashStatus(message);
  }

  private bashStatus(message: BashExecutionMessage): void {
    const t = this.theme;
    if (message.cancelled) this.out.print(`${t.fg("warning", "  (cancelled)")}\n`);
    else if (message.exitCode) this.out.print(`${t.fg("error", `  exit code ${message.exitCode}`)}\n`);
    if (message.truncated && message.fullOutputPath) this.out.print(`${t.fg("dim", `  full output: ${message.fullOutputPath}`)}\n`);
  }

  /** Ctrl+O: the last tool result in full. */
  expandLast(): void {
    if (!this.last) return;
    this.out.print(`${formatToolResult(this.last.name, this.last.result, this.last.isError, this.theme, true).join("\n")}\n`);
  }

  private startWorking(activity: string): void {
    this.activity = activity;
    if (this.timer) return;
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
    this.render();
  }

  private render(): void {
    const t = this.theme;
    const lines: string[] = [];
    const queued = [...this.queue.steering.map((q) => `steer: ${q}`), ...this.queue.followUp.map((q) => `follow-up: ${q}`)];
    if (queued.length > 0) {
      lines.push(t.fg("muted", `${queued.length} queued (Alt+Up to edit):`));
      for (const q of queued) lines.push(t.fg("muted", `  ${q.split("\n")[0]!.slice(0, 70)}`));
    }
    const pending = this.markdown?.pending;
    if (pending) {
      // Wrapped as the prompt wraps its input; the end of a long line, when it is longer.
      const rows = wrapInput(pending, 0, Math.max(1, (this.out.columns?.() ?? 80) - 1)).rows.slice(-LIVE_ROWS);
      lines.push(...rows.map((row) => inline(row, t)));
    }
    if (this.activity && this.timer) {
      const seconds = Math.floor((Date.now() - this.startedAt) / 1000);
      lines.push(`${t.fg("accent", SPINNER[this.frame]!)} ${t.fg("muted", `${this.activity} ${seconds}s · Esc to stop`)}`);
    }
    this.out.setStatus(lines);
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
