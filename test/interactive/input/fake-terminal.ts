/**
 * Just enough of a VT100 for unit tests of the prompt renderer: a screen of cells with
 * autowrap (including xterm's pending wrap at the last column), scrolling, wide characters,
 * CR/LF, cursor up/down/forward/back, erase below and erase line. Other sequences are ignored.
 */
import { graphemes, graphemeWidth } from "../../../src/util/width.ts";

export class FakeTerminal {
  readonly isTTY = true;
  private screen: string[][];
  /** Rows scrolled off the top. */
  readonly scrollback: string[] = [];
  x = 0;
  y = 0;
  private pendingWrap = false;
  /** Everything written, for tests about the sequences themselves. */
  written = "";

  constructor(
    public columns = 40,
    public rows = 10,
  ) {
    this.screen = Array.from({ length: rows }, () => this.blankRow());
  }

  private blankRow(): string[] {
    return Array.from({ length: this.columns }, () => " ");
  }

  /** The screen's rows, trailing spaces trimmed, trailing empty rows dropped. */
  lines(): string[] {
    const lines = this.screen.map((row) => row.join("").replace(/ +$/, ""));
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines;
  }

  write(text: string): boolean {
    this.written += text;
    const parts = text.split(/(\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07)/);
    for (const part of parts) {
      if (!part) continue;
      if (part.startsWith("\x1b")) this.escape(part);
      else for (const g of graphemes(part)) this.char(g);
    }
    return true;
  }

  private lineFeed(): void {
    if (this.y === this.rows - 1) {
      this.scrollback.push((this.screen.shift() as string[]).join("").replace(/ +$/, ""));
      this.screen.push(this.blankRow());
    } else this.y++;
  }

  private char(g: string): void {
    if (g === "\r") {
      this.x = 0;
      this.pendingWrap = false;
      return;
    }
    if (g === "\n" || g === "\r\n") {
      if (g === "\r\n") this.x = 0;
      this.pendingWrap = false;
      this.lineFeed();
      return;
    }
    const width = graphemeWidth(g);
    if (width === 0) return;
    if (this.pendingWrap || this.x + width > this.columns) {
      this.x = 0;
      this.pendingWrap = false;
      this.lineFeed();
    }
    const row = this.screen[this.y] as string[];
    row[this.x] = g;
    if (width === 2) row[this.x + 1] = "";
    if (this.x + width >= this.columns) {
      this.x = this.columns - 1;
      this.pendingWrap = true;
    } else this.x += width;
  }

  private escape(sequence: string): void {
    if (!sequence.startsWith("\x1b[")) return;
    const final = sequence[sequence.length - 1];
    const params = sequence.slice(2, -1);
    if (/^[?<>=]/.test(params)) return;
    const n = Math.max(1, Number.parseInt(params || "1", 10) || 1);
    this.pendingWrap = false;
    switch (final) {
      case "A":
        this.y = Math.max(0, this.y - n);
        break;
      case "B":
        this.y = Math.min(this.rows - 1, this.y + n);
        break;
      case "C":
        this.x = Math.min(this.columns - 1, this.x + n);
        break;
      case "D":
        this.x = Math.max(0, this.x - n);
        break;
      case "H":
        this.x = 0;
        this.y = 0;
        break;
      case "J":
        if (params === "2") this.screen = this.screen.map(() => this.blankRow());
        else {
          const row = this.screen[this.y] as string[];
          for (let i = this.x; i < this.columns; i++) row[i] = " ";
          for (let r = this.y + 1; r < this.rows; r++) this.screen[r] = this.blankRow();
        }
        break;
      case "K": {
        const row = this.screen[this.y] as string[];
        for (let i = this.x; i < this.columns; i++) row[i] = " ";
        break;
      }
    }
  }
}
