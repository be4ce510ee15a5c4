/**
 * The tool calls of the answer being run, each its own block in call order, the order the
 * session keeps their results in (so `/expand N` numbers them live as the replay does). Several
 * calls may run at once and end in any order: the first call not yet printed has its call line
 * in the scrollback and its output live above the prompt; each later one shows there as a call
 * line with its own output (or that it is done). A block is printed whole (call line, result,
 * how long it took when that tells something) once it and every call before it have ended.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { generateDiffString } from "../../tools/edit-diff.ts";
import { builtinPresentation } from "../../tools/index.ts";
import { resolveToCwd } from "../../tools/paths.ts";
import type { ToolResult } from "../../tools/types.ts";
import type { ToolBlocks } from "./render/tool-blocks.ts";
import { elapsedText, formatToolCall, formatToolResult, liveOutputRows, type ToolBlock } from "./render/tools.ts";
import { stringWidth, truncateToWidth } from "../../util/width.ts";
import type { Theme } from "./theme.ts";

/** Rows of running tools' output shown above the prompt, shared by the calls running at once. */
const LIVE_ROWS = 8;
/** At most this many rows for the calls above the prompt, however many run at once. */
const MAX_LIVE_ROWS = 16;
/** A call that took this long says so under its result, even on its own. */
const SLOW_MS = 1000;
/** A file write replaces is read for its diff only up to this size. */
const DIFF_MAX_BYTES = 1024 * 1024;

export interface ToolCallsHost {
  theme(): Theme;
  width(): number;
  print(rows: readonly string[]): void;
  /** The session's working directory, where tool paths are resolved (for write's diff). */
  cwd(): string;
}

interface Call {
  id: string;
  name: string;
  args: Record<string, unknown>;
  startedAt: number;
  /** What a write is replacing (undefined for a new file or one too big to compare). */
  previous?: string;
  output?: string;
  /** All the lines the command wrote so far, when it sends only the last ones. */
  totalLines?: number;
  /** Its call line is in the scrollback. */
  announced: boolean;
  /** Other calls of the answer were under way with it: how long each took tells them apart. */
  alongside: boolean;
  ended?: { result: ToolResult; isError: boolean; ms: number };
}

export class ToolCallsView {
  /** Calls announced and not printed whole yet, in call order. */
  private calls: Call[] = [];

  constructor(
    private readonly host: ToolCallsHost,
    private readonly blocks: ToolBlocks,
  ) {}

  started(id: string, name: string, args: Record<string, unknown>): void {
    const alongside = this.calls.length > 0;
    for (const call of this.calls) call.alongside = true;
    this.calls.push({ id, name, args, startedAt: Date.now(), previous: this.previousContent(name, args), announced: false, alongside });
    this.printReady();
  }

  /** A running call's output so far; whether it shows. */
  updated(id: string, output: string, totalLines: number | undefined): boolean {
    const call = this.calls.find((c) => c.id === id);
    if (!call || call.ended || !output) return false;
    call.output = output;
    call.totalLines = totalLines;
    return true;
  }

  ended(id: string, result: ToolResult, isError: boolean): void {
    const call = this.calls.find((c) => c.id === id);
    if (!call) return;
    call.ended = { result, isError, ms: Date.now() - call.startedAt };
    this.printReady();
  }

  /**
   * The run is over: what ended is printed; a call that never reported its end (the run was
   * stopped under it) keeps its call line.
   */
  settle(): void {
    for (const call of this.calls) {
      if (call.ended) this.printBlock(call);
      else if (!call.announced) this.host.print([this.callLine(call)]);
    }
    this.calls = [];
  }

  /** The names of the calls still running. */
  running(): string[] {
    return this.calls.filter((c) => !c.ended).map((c) => c.name);
  }

  /** What shows above the prompt: the first call's output under its printed call line, then each later call. */
  liveRows(): string[] {
    const t = this.host.theme();
    const width = this.host.width();
    const withOutput = this.calls.filter((c) => !c.ended && c.output).length;
    const share = Math.max(2, Math.floor(LIVE_ROWS / Math.max(1, withOutput)));
    const rows: string[] = [];
    for (const call of this.calls) {
      if (!call.announced) rows.push(this.callLine(call));
      if (call.ended) rows.push(`  ${this.endedText(call.ended)}`);
      else if (call.output) rows.push(...liveOutputRows(call.output, t, width, share, call.totalLines));
    }
    return rows.length <= MAX_LIVE_ROWS ? rows : this.compactRows();
  }

  /** Too many calls at once for their output to fit: one line each (and how many more), so the prompt stays on the screen. */
  private compactRows(): string[] {
    const t = this.host.theme();
    const width = this.host.width();
    const rows = this.calls.map((call) => {
      const state = call.ended ? this.endedText(call.ended) : t.fg("muted", "running");
      if (call.announced) return `  ${state}`;
      return `${truncateToWidth(this.callLine(call), Math.max(10, width - stringWidth(state) - 3))} · ${state}`;
    });
    if (rows.length <= MAX_LIVE_ROWS) return rows;
    const more = rows.length - (MAX_LIVE_ROWS - 1);
    return [...rows.slice(0, MAX_LIVE_ROWS - 1), `  ${t.fg("dim", `… ${more} more calls`)}`];
  }

  private endedText(ended: NonNullable<Call["ended"]>): string {
    const how = `${ended.isError ? "failed" : "done"}, took ${elapsedText(ended.ms)}`;
    return this.host.theme().fg(ended.isError ? "error" : "muted", how);
  }

  /** Prints, in call order, every block whose call and those before it have ended; then the call line of the first still running. */
  private printReady(): void {
    while (this.calls[0]?.ended) this.printBlock(this.calls.shift()!);
    const first = this.calls[0];
    if (first && !first.announced) {
      first.announced = true;
      this.host.print([this.callLine(first)]);
    }
  }

  private printBlock(call: Call): void {
    const t = this.host.theme();
    const ended = call.ended!;
    const block: ToolBlock = { name: call.name, args: call.args, result: ended.result, isError: ended.isError };
    if (call.previous !== undefined && !ended.isError) {
      const content = typeof block.args.content === "string" ? block.args.content : "";
      block.replacedDiff = call.previous === content ? "" : generateDiffString(call.previous, content).diff;
    }
    const number = this.blocks.add(block);
    const rows = call.announced ? [] : [this.callLine(call)];
    rows.push(...formatToolResult(block, t, { expanded: this.blocks.expandedAll, width: this.host.width(), number }));
    // A quick call on its own needs no time under it; one that ran alongside others, or was slow, does.
    if (call.alongside || ended.ms >= SLOW_MS) rows.push(`  ${t.fg("dim", `took ${elapsedText(ended.ms)}`)}`);
    this.host.print(rows);
  }

  private callLine(call: Call): string {
    return formatToolCall(call.name, call.args, this.host.theme(), this.host.width());
  }

  /** What a write is about to replace, read before the tool runs (small text files only). */
  private previousContent(name: string, args: Record<string, unknown>): string | undefined {
    if (builtinPresentation(name)?.change !== "written" || typeof args.path !== "string") return undefined;
    try {
      const path = resolveToCwd(args.path, this.host.cwd());
      if (!existsSync(path) || statSync(path).size > DIFF_MAX_BYTES) return undefined;
      const text = readFileSync(path, "utf8");
      // A binary file has no lines worth comparing.
      return text.includes("\0") ? undefined : text;
    } catch {
      return undefined;
    }
  }
}
