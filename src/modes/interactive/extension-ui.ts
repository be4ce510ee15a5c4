/**
 * The `ExtensionUI` of the interactive mode. Dialogs are pig's own (clack, drawn where the prompt
 * was); a dialog whose timeout passes or whose signal aborts closes with its default, and without
 * a terminal to draw on (stdin or stdout not a TTY) every dialog answers its default at once.
 * Notices are lines in the scrollback; statuses and widgets are lines kept with the prompt.
 * Every text an extension shows is made terminal-safe as it comes in (util/terminal-safe.ts):
 * it is shown as written, its escape sequences and controls included, and none of them acts.
 */
import type { DialogOptions, ExtensionUI, NoticeType, WidgetPlacement } from "../../extensions/ui.ts";
import type { PickOption } from "./host.ts";
import { terminalSafe } from "../../util/terminal-safe.ts";

/** What the interactive mode offers the extension UI (the app supplies it; tests fake it). */
export interface ExtensionUiPort {
  /** Whether dialogs can be drawn: stdin and stdout are terminals. */
  readonly tty: boolean;
  pick(title: string, options: PickOption<string>[], signal: AbortSignal | undefined): Promise<string | undefined>;
  confirm(message: string, signal: AbortSignal | undefined): Promise<boolean>;
  ask(message: string, config: { placeholder?: string; signal?: AbortSignal }): Promise<string | undefined>;
  /** Multi-line editing of `text` (the user's editor, as Ctrl+G); undefined when abandoned. */
  edit(title: string, text: string): Promise<string | undefined>;
  notice(message: string, type: NoticeType): void;
  /** The extension lines kept with the prompt changed. */
  linesChanged(lines: ExtensionLines): void;
  /** Writes the terminal title. */
  writeTitle(title: string): void;
  getEditorText(): string;
  setEditorText(text: string): void;
}

/** What extensions keep on screen with the prompt. */
export interface ExtensionLines {
  /** Widgets placed above the editor, in the order they were first set. */
  above: string[];
  /** Widgets placed below the editor. */
  below: string[];
  /** Every status, one line, by key order (as upstream's footer). */
  status: string | undefined;
}

/** `signal` and `timeout` as one signal (undefined when neither is given). */
function dialogSignal(options: DialogOptions | undefined): AbortSignal | undefined {
  const signals = [options?.signal, options?.timeout !== undefined ? AbortSignal.timeout(Math.max(0, options.timeout)) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  if (signals.length <= 1) return signals[0];
  return AbortSignal.any(signals);
}

/** OSC 0 (icon name and window title); controls in the title are shown (one would end the sequence early), line breaks and tabs become spaces. */
export function titleSequence(title: string): string {
  return `\x1b]0;${terminalSafe(title).replace(/[\n\t]/g, " ")}\x07`;
}

export class InteractiveExtensionUI implements ExtensionUI {
  private readonly statuses = new Map<string, string>();
  private readonly widgets = new Map<string, { lines: string[]; placement: WidgetPlacement }>();

  constructor(private readonly port: ExtensionUiPort) {}

  get hasUI(): boolean {
    return this.port.tty;
  }

  async select(title: string, options: readonly string[], opts?: DialogOptions): Promise<string | undefined> {
    const signal = dialogSignal(opts);
    if (!this.port.tty || signal?.aborted || options.length === 0) return undefined;
    const answer = await this.port.pick(terminalSafe(title), options.map((o) => ({ value: o, label: terminalSafe(o) })), signal);
    return signal?.aborted ? undefined : answer;
  }

  async confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean> {
    const signal = dialogSignal(opts);
    if (!this.port.tty || signal?.aborted) return false;
    const answer = await this.port.confirm(terminalSafe(message ? `${title}\n${message}` : title), signal);
    return signal?.aborted ? false : answer;
  }

  async input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined> {
    const signal = dialogSignal(opts);
    if (!this.port.tty || signal?.aborted) return undefined;
    const answer = await this.port.ask(terminalSafe(title), { ...(placeholder !== undefined ? { placeholder: terminalSafe(placeholder) } : {}), ...(signal ? { signal } : {}) });
    return signal?.aborted ? undefined : answer;
  }

  async editor(title: string, prefill?: string): Promise<string | undefined> {
    if (!this.port.tty) return undefined;
    return this.port.edit(terminalSafe(title), prefill ?? "");
  }

  notify(message: string, type: NoticeType = "info"): void {
    this.port.notice(terminalSafe(message), type);
  }

  setStatus(key: string, text: string | undefined): void {
    if (text === undefined || text === "") this.statuses.delete(key);
    else this.statuses.set(key, terminalSafe(text).replace(/\s*\n\s*/g, " "));
    this.changed();
  }

  setWidget(key: string, lines: readonly string[] | undefined, options: { placement?: WidgetPlacement } = {}): void {
    if (lines === undefined) this.widgets.delete(key);
    else {
      // A widget set again keeps its place among the others.
      const placement = options.placement ?? "aboveEditor";
      const existing = this.widgets.get(key);
      const shown = lines.map((line) => terminalSafe(line));
      if (existing && existing.placement === placement) existing.lines = shown;
      else {
        this.widgets.delete(key);
        this.widgets.set(key, { lines: shown, placement });
      }
    }
    this.changed();
  }

  setTitle(title: string): void {
    this.port.writeTitle(title);
  }

  setEditorText(text: string): void {
    this.port.setEditorText(text);
  }

  getEditorText(): string {
    return this.port.getEditorText();
  }

  /** The lines extensions keep with the prompt now. */
  lines(): ExtensionLines {
    const above: string[] = [];
    const below: string[] = [];
    for (const widget of this.widgets.values()) (widget.placement === "belowEditor" ? below : above).push(...widget.lines);
    const keys = [...this.statuses.keys()].sort();
    return { above, below, status: keys.length > 0 ? keys.map((k) => this.statuses.get(k)!).join("  ") : undefined };
  }

  private changed(): void {
    this.port.linesChanged(this.lines());
  }
}
