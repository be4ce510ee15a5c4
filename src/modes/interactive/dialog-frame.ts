/**
 * Where a dialog draws, so that it leaves one line behind instead of its whole frame. The dialog
 * writes into a `DialogFrame`, which passes everything on to the terminal and follows where the
 * terminal's cursor goes from the row the dialog started on: printed text (wrapping at the
 * terminal's width as the terminal does), newlines and the cursor moves clack sends. When the
 * dialog is done, `replaceWith` goes back up to that first row, erases everything below it and
 * writes the one line. The cursor is counted relative to the dialog's own rows, so a frame that
 * scrolls the screen is erased as well, as long as it is not taller than the screen.
 */
import { Writable } from "node:stream";
import { advanceCursor, stringWidth, truncateToWidth } from "../../util/width.ts";

/** What the frame needs of the terminal: `process.stdout` in pig, a fake in tests. */
export interface DialogTerminal {
  write(text: string): unknown;
  readonly columns?: number;
  readonly rows?: number;
  readonly isTTY?: boolean;
  on?(event: "resize", listener: () => void): unknown;
  off?(event: "resize", listener: () => void): unknown;
}

const CSI = "\x1b[";
// CSI (ESC [ params final), OSC (ESC ] … BEL or ESC \), and two-character escapes.
const ESCAPE = /\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** The cursor's place relative to the first row and column a dialog drew at. */
export class CursorTracker {
  /** Rows below the first one (never above it: a dialog only goes back over its own rows). */
  row = 0;
  /** The column; `columns` when the last column was just filled (the next character wraps). */
  column = 0;

  constructor(private readonly columns: () => number) {}

  feed(output: string): void {
    let last = 0;
    for (const match of output.matchAll(ESCAPE)) {
      this.text(output.slice(last, match.index));
      if (match[2]) this.control(match[2], match[1] ?? "");
      last = match.index + match[0].length;
    }
    this.text(output.slice(last));
  }

  private text(text: string): void {
    ({ row: this.row, column: this.column } = advanceCursor(this, text, this.columns()));
  }

  private control(final: string, params: string): void {
    const count = Math.max(1, Number.parseInt(params, 10) || 1);
    const columns = this.columns();
    const column = Math.min(this.column, columns - 1);
    switch (final) {
      case "A":
        this.row = Math.max(0, this.row - count);
        this.column = column;
        break;
      case "B":
        this.row += count;
        this.column = column;
        break;
      case "C":
        this.column = Math.min(columns - 1, column + count);
        break;
      case "D":
        this.column = Math.max(0, column - count);
        break;
      case "G":
        this.column = Math.min(columns - 1, count - 1);
        break;
      case "E":
        this.row += count;
        this.column = 0;
        break;
      case "F":
        this.row = Math.max(0, this.row - count);
        this.column = 0;
        break;
      default:
        break; // styles, erasing, modes: the cursor stays
    }
  }
}

export class DialogFrame extends Writable {
  private readonly cursor: CursorTracker;
  private readonly onResize = (): void => void this.emit("resize");

  constructor(private readonly terminal: DialogTerminal) {
    super({ decodeStrings: false });
    this.cursor = new CursorTracker(() => this.columns);
    terminal.on?.("resize", this.onResize);
  }

  /** The terminal's size, which clack lays its frame out for. */
  get columns(): number {
    return Math.max(1, this.terminal.columns ?? 80);
  }

  get rows(): number {
    return Math.max(2, this.terminal.rows ?? 24);
  }

  get isTTY(): boolean {
    return this.terminal.isTTY === true;
  }

  override _write(chunk: unknown, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    this.cursor.feed(text);
    this.terminal.write(text);
    done();
  }

  /** Back to the start of the dialog's first row (as far as the screen reaches). */
  private backToStart(): string {
    const up = Math.min(this.cursor.row, this.rows - 1);
    this.cursor.row = 0;
    this.cursor.column = 0;
    return `\r${up > 0 ? `${CSI}${up}A` : ""}`;
  }

  /**
   * Writes `frame` over what the dialog drew, each row overwritten and the rest of it erased,
   * then everything below: a dialog that draws itself whole each time, at whatever size the
   * terminal has now (after a resize, when the terminal re-wrapped the old frame, from the top
   * of the screen). Rows are overwritten rather than the screen erased from its first cell,
   * which terminals such as tmux take for a clear and keep in the scrollback.
   */
  redraw(frame: string): void {
    this.write(`${this.backToStart()}${frame.split("\n").map((row) => this.overwriting(row)).join("\r\n")}${CSI}J`);
  }

  /**
   * `row` and an erase of the rest of its line. A row that fills the width needs none, and must
   * not get one: the cursor waits on its last column, which the erase would clear.
   */
  private overwriting(row: string): string {
    return stringWidth(row) < this.columns ? `${row}${CSI}K` : row;
  }

  /**
   * Erases what the dialog drew (from its first row down) and writes `line` in its place, cut to
   * the terminal's width; the cursor ends at the start of the row below it. Rows that scrolled
   * above the screen cannot be reached and stay. (The line is written before the rows below are
   * erased: see `redraw`.)
   */
  replaceWith(line: string): void {
    this.terminal.off?.("resize", this.onResize);
    this.terminal.write(`${this.backToStart()}${this.overwriting(truncateToWidth(line, this.columns))}\r\n${CSI}J`);
  }

  /** Stops following the terminal's size without touching the screen (a dialog that failed). */
  release(): void {
    this.terminal.off?.("resize", this.onResize);
  }
}
