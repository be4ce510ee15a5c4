/**
 * The interactive prompt: reads keys from the terminal in raw mode, edits the buffer, keeps the
 * prompt drawn below the output, completes on Tab (and lists command names as they are typed),
 * browses and records history, and opens the buffer in an external editor on Ctrl+G. Which key
 * does what comes from `KeyBindings`. Everything the caller decides (what a submission means,
 * Escape, the model and thinking keys, exiting) arrives through callbacks.
 *
 * While the editor is started, all terminal output must go through `print()` (or be bracketed
 * by `suspend()` / `resume()`); anything written directly lands in the middle of the prompt.
 *
 * When stdin or stdout is not a terminal the editor runs in plain mode: no prompt is drawn,
 * every input line is submitted as it is, and end of input exits.
 */
import { createColors } from "picocolors";
import { runEditAction } from "./bindings.ts";
import { KeyBindings } from "./keybindings.ts";
import { LineSplitter } from "../../../util/line-splitter.ts";
import { CompletionSession } from "./completion-session.ts";
import type { InputEditorOptions, SubmitKind, TerminalInput, TerminalOutputStream } from "./editor-options.ts";
import { EditorState } from "./editor-state.ts";
import { editExternally } from "./external-editor.ts";
import { KeyDecoder, type KeyEvent } from "./keys.ts";
import type { LayoutStyle } from "./layout.ts";
import { PromptRenderer } from "./render.ts";
import { TerminalModes } from "./terminal-modes.ts";

export type { InputEditorOptions, SubmitKind, TerminalInput, TerminalOutputStream } from "./editor-options.ts";

export class InputEditor {
  private readonly input: TerminalInput;
  private readonly output: TerminalOutputStream;
  private readonly state = new EditorState();
  private readonly decoder: KeyDecoder;
  private readonly renderer: PromptRenderer;
  private readonly now: () => number;
  private readonly env: NodeJS.ProcessEnv;
  private status: readonly string[] = [];
  private footer: readonly string[] = [];
  private readonly completion: CompletionSession;
  private busy = false;
  private lastCtrlC: number | undefined;
  /** When the last Ctrl+C stopped a run (cleared by any other key). */
  private stoppedAt: number | undefined;
  private started = false;
  private attached = false;
  private escapeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Output held back while the external editor owns the terminal. */
  private held: string[] | undefined;
  /** Plain mode: input lines, each submitted once complete. */
  private readonly plainLines = new LineSplitter();
  private readonly modes: TerminalModes;
  private readonly bindings: KeyBindings;

  constructor(private readonly options: InputEditorOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.now = options.now ?? Date.now;
    this.env = options.env ?? process.env;
    this.bindings = options.keybindings ?? KeyBindings.defaults();
    this.decoder = new KeyDecoder({ escapeTimeoutMs: options.escapeTimeoutMs, now: this.now });
    const plain = options.plain ?? !(this.input.isTTY && this.output.isTTY);
    const colors = createColors(options.colors ?? (!plain && !this.env.NO_COLOR));
    const style: LayoutStyle = {
      marker: colors.cyan("› "),
      indent: "  ",
      selected: (text) => colors.inverse(text),
      hint: (text) => colors.dim(text),
    };
    this.renderer = new PromptRenderer(this.output, { plain, style, ...(options.frameMs !== undefined ? { frameMs: options.frameMs } : {}) });
    this.completion = new CompletionSession(this.state, options.completion, () => this.render(), options.completionAsTyped, options.listsAsTyped);
    this.modes = new TerminalModes(this.input, this.output, options.keyboardProtocol ?? true);
    if (options.history) this.state.setHistory(options.history.entries());
  }

  get plain(): boolean {
    return this.renderer.plain;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.attach();
    this.output.on?.("resize", this.onResize);
    // Kept after stop(): a failed write is reported after it was made, maybe once pig is leaving.
    if (!this.watchingOutput) this.output.on?.("error", this.onOutputError);
    this.watchingOutput = true;
    process.on("exit", this.restoreTerminal);
    this.renderer.redraw();
  }

  private watchingOutput = false;

  /** Erases the prompt and gives the terminal back; the buffer is kept for a later `start()`. */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.completion.close();
    this.renderer.clear();
    this.detach();
    this.output.off?.("resize", this.onResize);
    process.off("exit", this.restoreTerminal);
  }

  /** Hides the prompt and releases stdin so something else can use the terminal (a dialog, a subprocess). */
  suspend(): void {
    if (!this.started || !this.attached) return;
    this.renderer.suspend();
    this.detach();
  }

  /** Takes the terminal back after `suspend()` and draws the prompt again. */
  resume(): void {
    if (!this.started || this.attached) return;
    this.attach();
    this.renderer.redraw();
  }

  /** Prints above the prompt; text without a final newline is continued by the next call. */
  print(text: string): void {
    if (this.held) this.held.push(text);
    else if (this.heldForDialog) this.heldForDialog.push(text);
    else this.renderer.print(text);
  }

  private heldForDialog: string[] | undefined;

  /** While a dialog draws on the terminal, output waits (written meanwhile, it would be erased with the dialog). */
  holdOutput(): void {
    this.heldForDialog ??= [];
  }

  /** Prints what waited, above the prompt. */
  releaseOutput(): void {
    const held = this.heldForDialog ?? [];
    this.heldForDialog = undefined;
    for (const text of held) this.print(text);
  }

  /** Lines shown above the input (queued messages, a spinner); [] for none. */
  setStatus(lines: readonly string[]): void {
    this.status = lines;
    this.render();
  }

  /** Lines shown below the input; [] for none. */
  setFooter(lines: readonly string[]): void {
    this.footer = lines;
    this.render();
  }

  /** While busy, Alt+Enter submits as "alt-enter" (a follow-up) instead of inserting a newline. */
  setBusy(busy: boolean): void {
    this.busy = busy;
  }

  /** What the buffer holds, large pastes included in full (the screen shows them as tokens). */
  getText(): string {
    return this.state.expandedText;
  }

  setText(text: string): void {
    this.state.setText(text);
    this.completion.close();
    this.render();
  }

  /** Puts `text` before the current buffer (restored queued messages come before the draft). */
  prependText(text: string): void {
    this.state.prependText(text);
    this.completion.close();
    this.render();
  }

  /** Clears the screen and redraws the prompt at the top (for the caller's Ctrl+L). */
  clearScreen(): void {
    if (this.plain || !this.started) return;
    this.renderer.clear();
    this.output.write("\x1b[H\x1b[2J");
    this.renderer.redraw();
  }

  private attach(): void {
    this.attached = true;
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    if (!this.plain) this.modes.enter();
    this.input.resume();
  }

  private detach(): void {
    this.attached = false;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.pause();
    if (this.escapeTimer) clearTimeout(this.escapeTimer);
    this.escapeTimer = undefined;
    if (!this.plain) this.restoreTerminal();
  }

  private readonly restoreTerminal = (): void => {
    // What a frame still held is written before the terminal is given back.
    this.renderer.flush();
    if (!this.plain) this.modes.leave();
  };

  private readonly onResize = (): void => this.renderer.resized();

  private readonly onEnd = (): void => {
    const last = this.plainLines.take();
    if (this.plain && last) this.submitLine(last);
    // A terminal in raw mode has no end of input of its own (Ctrl+D is a key): it went away.
    if (!this.plain && this.options.onHangup) this.options.onHangup();
    else this.options.onExit?.();
  };

  /** Writes to a terminal that went away fail: no one is left to tell, and pig leaves. */
  private readonly onOutputError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== "EIO" && error.code !== "EPIPE" && error.code !== "ENXIO") throw error;
    (this.options.onHangup ?? this.options.onExit)?.();
  };

  private readonly onData = (chunk: Uint8Array | string): void => {
    if (this.plain) return this.onPlainData(chunk);
    this.handleEvents(this.decoder.feed(chunk));
    this.scheduleEscapeFlush();
  };

  private onPlainData(chunk: Uint8Array | string): void {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    for (const line of this.plainLines.push(text)) this.submitLine(line.replace(/\r$/, ""));
  }

  private submitLine(line: string): void {
    if (!line.trim()) return;
    this.options.history?.add(line);
    this.options.onSubmit?.(line, "enter");
  }

  /** A lone ESC becomes Escape only once no more bytes follow in time. */
  private scheduleEscapeFlush(): void {
    if (this.escapeTimer) clearTimeout(this.escapeTimer);
    this.escapeTimer = undefined;
    const deadline = this.decoder.pendingDeadline();
    if (deadline === undefined) return;
    this.escapeTimer = setTimeout(() => {
      this.escapeTimer = undefined;
      this.handleEvents(this.decoder.flush(true));
    }, Math.max(0, deadline - this.now()));
  }

  private handleEvents(events: KeyEvent[]): void {
    if (events.length === 0) return;
    for (const event of events) {
      if (!this.attached) break; // a key handler suspended or stopped the editor
      this.handle(event);
    }
    this.render();
  }

  private handle(event: KeyEvent): void {
    if (event.kind !== "key") {
      this.lastCtrlC = this.stoppedAt = undefined;
      if (event.kind === "paste") this.state.insertPaste(event.text);
      else this.state.insert(event.text);
      this.afterEdit();
      return;
    }
    if (this.modes.handleReply(event)) return;
    const action = this.bindings.actionFor(event.id);
    if (action !== "app.clear") this.lastCtrlC = this.stoppedAt = undefined;
    if (this.completion.open && this.completion.handleKey(event)) return;
    if (this.options.interceptKey?.(event)) return;
    switch (action) {
      case "tui.input.submit":
        return this.submit("enter");
      case "tui.input.newLine":
        return this.state.insert("\n");
      case "app.message.followUp":
        if (this.busy) return this.submit("alt-enter");
        return this.state.insert("\n");
      case "tui.input.tab":
        this.completion.tab();
        return;
      case "app.interrupt":
        this.options.onEscape?.();
        return;
      case "app.clear":
        return this.ctrlC();
      case "app.exit":
        if (this.state.text === "") this.options.onExit?.();
        else this.state.deleteForward();
        return;
      case "app.editor.external":
        void this.openExternalEditor();
        return;
    }
    const before = this.state.text;
    if (action && runEditAction(this.state, action)) {
      // A history entry recalled is not typing: no command list opens over it (Up goes on through history).
      const recalled = action === "tui.editor.cursorUp" || action === "tui.editor.cursorDown";
      if (this.state.text !== before) recalled ? this.completion.close() : this.afterEdit();
      return;
    }
    this.options.onKey?.(event, action);
  }

  private ctrlC(): void {
    const now = this.now();
    const doubleMs = this.options.doubleCtrlCMs ?? 500;
    const quick = this.lastCtrlC !== undefined && now - this.lastCtrlC <= doubleMs;
    const afterStop = this.stoppedAt !== undefined && (this.state.text === "" || now - this.stoppedAt <= (this.options.stoppedQuitMs ?? 3000));
    this.lastCtrlC = now;
    this.stoppedAt = undefined;
    if (quick || afterStop) {
      this.lastCtrlC = undefined;
      this.options.onExit?.();
      return;
    }
    this.completion.close();
    if (this.options.onInterrupt?.()) {
      // What was being typed stays: the run stopped, not the draft.
      this.stoppedAt = now;
      this.lastCtrlC = undefined;
      return;
    }
    this.state.clear();
    this.options.onClear?.();
  }

  private submit(kind: SubmitKind): void {
    const text = this.state.expandedText;
    if (!text.trim()) return;
    this.state.noteSent();
    this.options.history?.add(text);
    this.state.setHistory(this.options.history?.entries() ?? []);
    this.state.clear();
    this.render();
    this.options.onSubmit?.(text, kind);
  }

  /** After typing or deleting: an open completion list follows what is typed. */
  private afterEdit(): void {
    this.completion.edited();
  }

  private async openExternalEditor(): Promise<void> {
    if (this.plain || this.held) return;
    this.completion.close();
    this.suspend();
    this.held = [];
    const edit = this.options.externalEditor ?? editExternally;
    let edited: string | undefined;
    try {
      edited = await edit(this.state.expandedText, this.env);
    } finally {
      const held = this.held;
      this.held = undefined;
      if (edited !== undefined) this.state.setText(edited);
      // Stopped meanwhile: the held output is still printed, just without a prompt.
      if (this.started) this.resume();
      for (const text of held) this.renderer.print(text);
      this.render();
    }
  }

  /** Rows of the completion list shown at once, from now on (setting `autocompleteMaxVisible`). */
  setMenuRows(rows: number): void {
    this.options.menuRows = rows;
    this.render();
  }

  private render(): void {
    const menu = this.completion.view();
    const view = {
      text: this.state.text,
      cursor: this.state.cursor,
      status: this.status,
      footer: this.footer,
      menu: menu && this.options.menuRows !== undefined ? { ...menu, rows: this.options.menuRows } : menu,
    };
    this.renderer.setView(view);
  }
}
