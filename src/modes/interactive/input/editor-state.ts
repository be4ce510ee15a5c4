/**
 * The input buffer as a pure state machine: text with a cursor (a UTF-16 offset that always sits
 * on a grapheme boundary), editing commands, line navigation and history browsing. No terminal
 * here, so every behaviour is testable by calling methods and reading `text` / `cursor`.
 */
import { isLargePaste, PastedBlocks } from "./pasted-blocks.ts";
import { bufferWidth, graphemesWithOffsets } from "../../../util/width.ts";

/** Where a line of the buffer starts and ends (end excludes the "\n"). */
interface LineSpan {
  start: number;
  end: number;
}

/** Word characters for word motions: letters (with their combining marks), digits, underscore. */
const WORD = /[\p{L}\p{M}\p{N}_]/u;

export class EditorState {
  private value = "";
  private offset = 0;
  /** History entries, oldest first. */
  private history: readonly string[] = [];
  /** Index into `history` being shown, or -1 for the draft. */
  private historyIndex = -1;
  /** What was being typed before history browsing began, with its paste tokens. */
  private draft = "";
  private draftPastes: ReadonlyMap<string, string> = new Map();
  /**
   * Prompts sent in this session that held large pastes, by the text sent: recalled from
   * history, each shows again as it was typed, its pastes as tokens.
   */
  private readonly sentWithPastes = new Map<string, { shown: string; pastes: ReadonlyMap<string, string> }>();
  /** The display column Up/Down aim for, kept across consecutive vertical moves. */
  private goalColumn: number | undefined;
  /** The last text removed by a kill command, for Ctrl+Y. */
  private killed = "";
  /** Large pastes, shown in the buffer as tokens. */
  private readonly pasted = new PastedBlocks();

  /** The buffer as shown: a large paste is a token. */
  get text(): string {
    return this.value;
  }

  /** The buffer as meant: every paste token replaced by what was pasted (what is sent). */
  get expandedText(): string {
    return this.pasted.expand(this.value);
  }

  get cursor(): number {
    return this.offset;
  }

  /** Whether a history entry (rather than the draft) is being shown. */
  get browsingHistory(): boolean {
    return this.historyIndex !== -1;
  }

  /** The buffer is being sent: when it holds paste tokens, recalling it shows them again. */
  noteSent(): void {
    if (this.pasted.size > 0) this.sentWithPastes.set(this.expandedText, { shown: this.value, pastes: this.pasted.snapshot() });
  }

  setHistory(entries: readonly string[]): void {
    this.history = entries;
    this.historyIndex = -1;
  }

  /** Replaces the buffer (cursor at the end) and leaves history browsing; earlier pastes are forgotten. */
  setText(text: string, cursor = text.length): void {
    this.pasted.clear();
    this.edit(text, cursor);
  }

  /**
   * Puts `text` before what is being typed, on its own line(s), keeping the cursor in the typed
   * text — used to restore queued messages on abort, which were written before the current draft.
   */
  prependText(text: string): void {
    if (!text) return;
    if (!this.value) return this.edit(text, text.length);
    const prefix = `${text}\n`;
    this.edit(prefix + this.value, this.offset + prefix.length);
  }

  clear(): void {
    this.pasted.clear();
    this.edit("", 0);
  }

  /** Inserts a bracketed paste: as it is, or as one token when it is large. */
  insertPaste(text: string): void {
    this.insert(isLargePaste(text) ? this.pasted.add(text) : text);
  }

  /** Inserts typed or pasted text at the cursor, newlines included. */
  insert(text: string): void {
    if (!text) return;
    this.edit(this.value.slice(0, this.offset) + text + this.value.slice(this.offset), this.offset + text.length);
  }

  /** Replaces `[from, to)` with `text` and puts the cursor after it (completion). */
  replaceRange(from: number, to: number, text: string): void {
    this.edit(this.value.slice(0, from) + text + this.value.slice(to), from + text.length);
  }

  backspace(): void {
    if (this.offset === 0) return;
    this.removeRange(this.previousBoundary(this.offset), this.offset, false);
  }

  deleteForward(): void {
    if (this.offset >= this.value.length) return;
    this.removeRange(this.offset, this.nextBoundary(this.offset), false);
  }

  left(): void {
    this.move(this.previousBoundary(this.offset));
  }

  right(): void {
    this.move(this.nextBoundary(this.offset));
  }

  wordLeft(): void {
    this.move(this.wordStartBefore(this.offset));
  }

  wordRight(): void {
    this.move(this.wordEndAfter(this.offset));
  }

  /** Start of the current line (Home, Ctrl+A). */
  lineStart(): void {
    this.move(this.currentLine().start);
  }

  /** End of the current line (End, Ctrl+E). */
  lineEnd(): void {
    this.move(this.currentLine().end);
  }

  /** Ctrl+U: removes from the start of the line to the cursor; at a line start, the newline before it. */
  killToLineStart(): void {
    const { start } = this.currentLine();
    this.removeRange(start === this.offset ? Math.max(0, start - 1) : start, this.offset, true);
  }

  /** Ctrl+K: removes from the cursor to the end of the line; at a line end, the newline after it. */
  killToLineEnd(): void {
    const { end } = this.currentLine();
    this.removeRange(this.offset, end === this.offset ? Math.min(this.value.length, end + 1) : end, true);
  }

  /** Ctrl+W / Alt+Backspace: removes the word before the cursor and the spaces after it. */
  deleteWordBack(): void {
    this.removeRange(this.wordStartBefore(this.offset), this.offset, true);
  }

  /** Alt+D: removes the word after the cursor. */
  deleteWordForward(): void {
    this.removeRange(this.offset, this.wordEndAfter(this.offset), true);
  }

  /** Ctrl+Y: inserts the last killed text. */
  yank(): void {
    // A large piece comes back as a token again, like the paste it may have been.
    if (isLargePaste(this.killed)) this.insertPaste(this.killed);
    else this.insert(this.killed);
  }

  /** Up: the line above, or the previous history entry when on the first line. */
  up(): void {
    const lines = this.lines();
    const index = this.lineIndex(lines);
    if (index === 0) return this.historyPrevious();
    this.moveToLine(lines, index - 1);
  }

  /** Down: the line below, or the next history entry (then the draft) when on the last line. */
  down(): void {
    const lines = this.lines();
    const index = this.lineIndex(lines);
    if (index === lines.length - 1) return this.historyNext();
    this.moveToLine(lines, index + 1);
  }

  /** Shows the previous (older) entry, keeping the draft; the cursor goes to the end of its first line so Up keeps going back. */
  historyPrevious(): void {
    if (this.historyIndex === 0 || this.history.length === 0) return;
    if (this.historyIndex === -1) [this.draft, this.draftPastes] = [this.value, this.pasted.snapshot()];
    this.historyIndex = this.historyIndex === -1 ? this.history.length - 1 : this.historyIndex - 1;
    this.showEntry(this.history[this.historyIndex] ?? "", "first line");
  }

  /** Shows the next (newer) entry, or the draft after the newest; the cursor goes to the end. */
  historyNext(): void {
    if (this.historyIndex === -1) return;
    this.historyIndex = this.historyIndex + 1 >= this.history.length ? -1 : this.historyIndex + 1;
    if (this.historyIndex === -1) {
      this.pasted.restore(this.draftPastes);
      this.show(this.draft, this.draft.length);
    } else {
      this.showEntry(this.history[this.historyIndex] ?? "", "end");
    }
  }

  /** A history entry as it was typed: a prompt sent here with large pastes shows their tokens again. */
  private showEntry(entry: string, cursorAt: "first line" | "end"): void {
    const sent = this.sentWithPastes.get(entry);
    this.pasted.restore(sent?.pastes ?? new Map());
    const shown = sent?.shown ?? entry;
    this.show(shown, cursorAt === "end" ? shown.length : firstLineEnd(shown));
  }

  /** The cursor's line (0-based) and display column within that line. */
  position(): { line: number; column: number } {
    const lines = this.lines();
    const line = this.lineIndex(lines);
    const span = lines[line] as LineSpan;
    return { line, column: bufferWidth(this.value.slice(span.start, this.offset)) };
  }

  /** Shows text without leaving history browsing (an entry or the draft). */
  private show(text: string, cursor: number): void {
    this.value = text;
    this.offset = cursor;
    this.goalColumn = undefined;
  }

  /** Every change of the text goes through here: it ends history browsing and the vertical goal. */
  private edit(text: string, cursor: number): void {
    this.value = text;
    this.offset = Math.max(0, Math.min(cursor, text.length));
    this.historyIndex = -1;
    this.goalColumn = undefined;
  }

  private move(cursor: number): void {
    this.offset = this.outsideTokens(cursor, cursor >= this.offset ? "after" : "before");
    this.goalColumn = undefined;
  }

  /** `cursor`, or the edge of the paste token it would fall inside of. */
  private outsideTokens(cursor: number, side: "before" | "after"): number {
    for (const span of this.pasted.spans(this.value)) {
      if (cursor > span.from && cursor < span.to) return side === "after" ? span.to : span.from;
    }
    return cursor;
  }

  private removeRange(start: number, end: number, kill: boolean): void {
    let from = start;
    let to = end;
    // A deletion that reaches into a paste token takes the whole token (never half of one).
    for (const span of this.pasted.spans(this.value)) {
      if (span.from < to && span.to > from) {
        from = Math.min(from, span.from);
        to = Math.max(to, span.to);
      }
    }
    if (to <= from) return;
    // What is yanked back is the text meant, pastes included.
    if (kill) this.killed = this.pasted.expand(this.value.slice(from, to));
    this.edit(this.value.slice(0, from) + this.value.slice(to), from);
  }

  private lines(): LineSpan[] {
    const spans: LineSpan[] = [];
    let start = 0;
    for (;;) {
      const newline = this.value.indexOf("\n", start);
      if (newline === -1) break;
      spans.push({ start, end: newline });
      start = newline + 1;
    }
    spans.push({ start, end: this.value.length });
    return spans;
  }

  private lineIndex(lines: LineSpan[]): number {
    const index = lines.findIndex((span) => this.offset >= span.start && this.offset <= span.end);
    return index === -1 ? lines.length - 1 : index;
  }

  private currentLine(): LineSpan {
    const lines = this.lines();
    return lines[this.lineIndex(lines)] as LineSpan;
  }

  private moveToLine(lines: LineSpan[], target: number): void {
    const goal = this.goalColumn ?? this.position().column;
    const span = lines[target] as LineSpan;
    let cursor = span.start;
    let column = 0;
    for (const g of graphemesWithOffsets(this.value.slice(span.start, span.end))) {
      const width = bufferWidth(g.text);
      if (column + width > goal) break;
      column += width;
      cursor = span.start + g.index + g.text.length;
    }
    this.offset = this.outsideTokens(cursor, "after");
    this.goalColumn = goal;
  }

  /** The grapheme boundary before `offset` (searching only the current line keeps this cheap). */
  private previousBoundary(offset: number): number {
    if (offset === 0) return 0;
    const token = this.pasted.tokenEndingAt(this.value, offset);
    if (token > 0) return offset - token;
    const lineStart = this.value.lastIndexOf("\n", offset - 1) + 1;
    if (lineStart === offset) return offset - 1; // the newline itself
    let boundary = lineStart;
    for (const g of graphemesWithOffsets(this.value.slice(lineStart, offset))) boundary = lineStart + g.index;
    return boundary;
  }

  private nextBoundary(offset: number): number {
    if (offset >= this.value.length) return this.value.length;
    const token = this.pasted.tokenStartingAt(this.value, offset);
    if (token > 0) return offset + token;
    if (this.value[offset] === "\n") return offset + 1;
    const newline = this.value.indexOf("\n", offset);
    const lineEnd = newline === -1 ? this.value.length : newline;
    const first = graphemesWithOffsets(this.value.slice(offset, lineEnd))[0];
    return offset + (first?.text.length ?? 1);
  }

  /** Skips non-word characters backwards, then the word. */
  private wordStartBefore(offset: number): number {
    let i = offset;
    while (i > 0 && !WORD.test(charBefore(this.value, i))) i -= charBefore(this.value, i).length;
    while (i > 0 && WORD.test(charBefore(this.value, i))) i -= charBefore(this.value, i).length;
    return i;
  }

  /** Skips non-word characters forwards, then the word. */
  private wordEndAfter(offset: number): number {
    let i = offset;
    const at = (index: number): string => String.fromCodePoint(this.value.codePointAt(index) ?? 0);
    while (i < this.value.length && !WORD.test(at(i))) i += at(i).length;
    while (i < this.value.length && WORD.test(at(i))) i += at(i).length;
    return i;
  }
}

/** The code point ending at `index`. */
function charBefore(text: string, index: number): string {
  const low = text.charCodeAt(index - 1);
  if (index >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(index - 2, index);
  }
  return text.slice(index - 1, index);
}

function firstLineEnd(text: string): number {
  const newline = text.indexOf("\n");
  return newline === -1 ? text.length : newline;
}
