/**
 * Keeps the prompt area at the bottom of ordinary scrolling output. The area is drawn where the
 * output ends; to print, it is erased (cursor up to its first row, erase below), the output is
 * written, and the area is drawn again under it — all in one write, inside a synchronized update
 * so terminals that support it show no flicker.
 *
 * Output may end mid-line (streamed text). Its last row is then left on screen above the prompt,
 * and the next print goes back up to where it ended, so streaming text appears progressively.
 * That needs the column the terminal's cursor was at, which `advanceColumn` works out the way
 * the terminal does (wrapping included).
 *
 * Without a terminal (plain mode) nothing is drawn and output passes through.
 *
 * With `frameMs`, writes are coalesced into frames: a print or a view change right after a
 * quiet moment is written at once (a key's echo is not delayed), and what follows within
 * `frameMs` of the last write is gathered and written as one, output and prompt together. A fast
 * stream then costs one layout and one write a frame instead of one per piece. Anything that
 * hands the terminal over (`clear`, `redraw`, `resized`, `flush`) writes what is pending first.
 *
 * Everything printed is made terminal-safe here (util/terminal-safe.ts, keeping pig's colours
 * and links): the transcript's last door to the terminal, so text a surface forgot to make safe
 * still cannot move the cursor, erase what is on screen or reach the clipboard.
 */
import { layoutPrompt, PLAIN_STYLE, type Layout, type LayoutStyle, type PromptView } from "./layout.ts";
import { SgrState } from "./sgr.ts";
import { advanceColumn, stringWidth } from "../../../util/width.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";

/** The slice of a TTY write stream the renderer needs (a fake in tests). */
export interface TerminalOutput {
  write(text: string): unknown;
  readonly columns?: number;
  readonly rows?: number;
}

const CSI = "\x1b[";
const SYNC_START = `${CSI}?2026h`;
const SYNC_END = `${CSI}?2026l`;
const HIDE_CURSOR = `${CSI}?25l`;
const SHOW_CURSOR = `${CSI}?25h`;

/** Raw mode may turn off the terminal's "\n" → "\r\n" translation, so output carries its own "\r". */
function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

function layoutKey(layout: Layout): string {
  return `${layout.cursorRow}:${layout.cursorCol}:${layout.lines.join("\n")}`;
}

export interface PromptRendererOptions {
  plain?: boolean;
  style?: LayoutStyle;
  /** Least time between two writes while output keeps coming (0: every change is written at once). */
  frameMs?: number;
  /** The clock frames are timed by (tests pass a fake one). */
  now?: () => number;
}

export class PromptRenderer {
  readonly plain: boolean;
  private readonly style: LayoutStyle;
  private view: PromptView = { text: "", cursor: 0, status: [] };
  /** What is on screen: the widths of the drawn rows and the cursor's row among them. */
  private drawn: { widths: number[]; cursorRow: number; cursorCol: number; key: string } | undefined;
  /** Whether the area should be on screen (false between `clear()` and `redraw()`). */
  private visible = false;
  /** Output since its last newline (the row the prompt sits under), and the column it ended at. */
  private partial = "";
  private partialColumn = 0;
  /** Whether the output's partial row is on screen above the prompt (rather than the cursor being at its end). */
  private promptBelowPartial = false;
  /** Columns the partial column was computed for. */
  private partialColumns = 0;
  /** The output's text style, reset for the prompt and restored when output continues. */
  private readonly outputStyle = new SgrState();
  private readonly frameMs: number;
  private readonly now: () => number;
  /** Output not written yet (frames), and whether the view changed since the last write. */
  private pendingOutput = "";
  private viewChanged = false;
  private frameTimer: ReturnType<typeof setTimeout> | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly out: TerminalOutput,
    options: PromptRendererOptions = {},
  ) {
    this.plain = options.plain ?? false;
    this.style = options.style ?? PLAIN_STYLE;
    this.frameMs = options.frameMs ?? 0;
    this.now = options.now ?? performance.now.bind(performance);
  }

  private get columns(): number {
    return Math.max(1, this.out.columns ?? 80);
  }

  private get rows(): number {
    return Math.max(2, this.out.rows ?? 24);
  }

  /** The text, cursor, status and menu to show; redraws when shown. */
  setView(view: PromptView): void {
    this.view = view;
    if (!this.visible) return;
    if (this.frameMs > 0) {
      this.viewChanged = true;
      this.scheduleFrame();
      return;
    }
    this.drawView();
  }

  /** Writes what is pending now (before something else uses the terminal, or at exit). */
  flush(): void {
    if (this.frameTimer !== undefined) clearTimeout(this.frameTimer);
    this.frameTimer = undefined;
    const output = this.pendingOutput;
    const viewChanged = this.viewChanged;
    this.pendingOutput = "";
    this.viewChanged = false;
    // Printing draws the prompt under the output, so a changed view needs no draw of its own.
    if (output) this.writeOutput(output);
    else if (viewChanged && this.visible) this.drawView();
  }

  /** At once after a quiet moment; otherwise once a frame has passed since the last write. */
  private scheduleFrame(): void {
    if (this.frameTimer !== undefined) return;
    const wait = this.lastWriteAt + this.frameMs - this.now();
    if (wait <= 0) this.flush();
    else this.frameTimer = setTimeout(() => this.flush(), wait);
  }

  private drawView(): void {
    // Unchanged rows are not rewritten (renders come in bursts: a key, then a status update).
    const layout = this.layout();
    if (this.drawn && this.drawn.key === layoutKey(layout)) return;
    this.write(this.eraseSequence() + this.drawSequence(layout));
  }

  /** The layout the current view gets at the current size (for tests and callers that measure). */
  layout(): Layout {
    return layoutPrompt(this.view, this.columns, this.rows, this.style);
  }

  /**
   * Erases the prompt area and keeps it hidden until `redraw()`, leaving the cursor at the start
   * of a fresh row, for a caller that writes to the terminal by other means (a subprocess, a
   * dialog). A partial output line is considered finished: later output starts on the next row.
   */
  clear(): void {
    if (this.plain) return;
    this.flush();
    let sequence = this.eraseSequence();
    if (!this.promptBelowPartial && this.partialColumn > 0) sequence += "\r\n";
    this.visible = false;
    this.resetPartial();
    if (sequence) this.write(sequence);
  }

  /** Alias of `clear()`: call before handing the terminal over. */
  suspend(): void {
    this.clear();
  }

  /** Draws the prompt area below the output (again). */
  redraw(): void {
    if (this.plain) return;
    this.flush();
    this.visible = true;
    let sequence = this.eraseSequence();
    if (!this.promptBelowPartial && this.partialColumn > 0) {
      // Output written while hidden ended mid-line; the prompt goes on the row below it.
      sequence += "\r\n";
      this.promptBelowPartial = true;
    }
    this.write(sequence + this.drawSequence());
  }

  /** After a resize: the partial row and the drawn rows were laid out for the old width. */
  resized(): void {
    if (this.plain) return;
    this.flush();
    if (this.partial) this.partialColumn = advanceColumn(0, this.partial, this.columns);
    this.partialColumns = this.columns;
    if (this.visible) this.write(this.eraseSequence() + this.drawSequence());
  }

  /** Writes `text` above the prompt area; text without a final newline continues on the next call. */
  print(printed: string): void {
    if (!printed) return;
    const text = terminalSafe(printed, { styled: true });
    if (this.plain) {
      this.out.write(text);
      return;
    }
    if (this.frameMs > 0) {
      // Printing a + b at once leaves the screen as printing a, then b, does.
      this.pendingOutput += text;
      this.scheduleFrame();
      return;
    }
    this.writeOutput(text);
  }

  private writeOutput(text: string): void {
    let sequence = this.eraseSequence();
    let body = text;
    if (this.promptBelowPartial) {
      if (this.partialColumn >= this.columns) {
        // The terminal would have wrapped the next character to the row the prompt was on; a
        // newline would have gone there too, so it is already done.
        body = body.replace(/^\r?\n/, "");
      } else {
        sequence += `${CSI}A${this.partialColumn > 0 ? `${CSI}${this.partialColumn}C` : ""}`;
      }
    }
    sequence += this.outputStyle.toString() + toCrlf(body);
    this.outputStyle.apply(body);
    this.trackPartial(text);
    this.promptBelowPartial = false;
    if (this.visible) {
      if (this.partialColumn > 0) {
        sequence += "\r\n";
        this.promptBelowPartial = true;
      }
      sequence += this.drawSequence();
    }
    this.write(sequence);
  }

  private trackPartial(text: string): void {
    if (this.partialColumns !== this.columns) {
      this.partialColumn = advanceColumn(0, this.partial, this.columns);
      this.partialColumns = this.columns;
    }
    const newline = text.lastIndexOf("\n");
    if (newline === -1) {
      this.partial += text;
      this.partialColumn = advanceColumn(this.partialColumn, text, this.columns);
    } else {
      this.partial = text.slice(newline + 1);
      this.partialColumn = advanceColumn(0, this.partial, this.columns);
    }
  }

  private resetPartial(): void {
    this.partial = "";
    this.partialColumn = 0;
    this.promptBelowPartial = false;
  }

  private write(sequence: string): void {
    this.lastWriteAt = this.now();
    this.out.write(`${SYNC_START}${HIDE_CURSOR}${sequence}${SHOW_CURSOR}${SYNC_END}`);
  }

  /**
   * Moves to the first drawn row and erases to the end of the screen. Rows are counted at the
   * current width: a terminal that reflows on resize (most do) splits a drawn row wider than the
   * new width, the cursor's row included. One that does not reflow (xterm) gets some output rows
   * above the prompt erased after narrowing, which is the lesser evil than prompt debris.
   */
  private eraseSequence(): string {
    if (!this.drawn) return "";
    const { widths, cursorRow, cursorCol } = this.drawn;
    this.drawn = undefined;
    const columns = this.columns;
    let up = Math.floor(cursorCol / columns);
    for (let i = 0; i < cursorRow; i++) up += Math.max(1, Math.ceil((widths[i] ?? 0) / columns));
    return `\r${up > 0 ? `${CSI}${up}A` : ""}${CSI}J`;
  }

  /** Draws the layout from the cursor's row (its first column) and puts the cursor in place. */
  private drawSequence(layout = this.layout()): string {
    const last = layout.lines.length - 1;
    let sequence = `${CSI}0m${layout.lines.join("\r\n")}`;
    const up = last - layout.cursorRow;
    sequence += `\r${up > 0 ? `${CSI}${up}A` : ""}${layout.cursorCol > 0 ? `${CSI}${layout.cursorCol}C` : ""}`;
    this.drawn = { widths: layout.lines.map((line) => stringWidth(line)), cursorRow: layout.cursorRow, cursorCol: layout.cursorCol, key: layoutKey(layout) };
    return sequence;
  }
}
