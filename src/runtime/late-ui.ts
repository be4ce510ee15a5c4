/**
 * The UI extensions talk to, before and after the mode has one: extensions start (and may
 * notify) before any mode is up, so calls go to the headless defaults until the mode binds its
 * own UI. Extensions learn whether they have a UI once, when they start, so `hasUI` says what the
 * mode will offer from the start; and what they put on screen before the mode is up (a status,
 * a widget, the title, a notice, the editor's text — in session_start, say) is kept and shown
 * once it is, as upstream's modes show what a startup session_start handler did.
 */
import type { DialogOptions, ExtensionUI, NoticeType, WidgetPlacement } from "../extensions/ui.ts";

const MAX_KEPT_NOTICES = 100;

export class LateUi implements ExtensionUI {
  private bound = false;
  private readonly statuses = new Map<string, string | undefined>();
  private readonly widgets = new Map<string, { lines: readonly string[] | undefined; options?: { placement?: WidgetPlacement } }>();
  private title: string | undefined;
  /** Notices in the order given (bounded: a handler looping on notify does not fill memory). */
  private readonly notices: Array<{ message: string; type: NoticeType | undefined }> = [];
  private editorText: string | undefined;
  /** Dialogs before any mode is up (the project trust question), while `withDialogs` runs. */
  private dialogs: ExtensionUI | undefined;

  /** `willHaveUI`: whether the mode that will bind has someone to answer dialogs. */
  constructor(
    private target: ExtensionUI,
    private readonly willHaveUI = target.hasUI,
  ) {}

  bind(target: ExtensionUI): void {
    this.target = target;
    if (this.bound) return;
    this.bound = true;
    for (const [key, text] of this.statuses) target.setStatus(key, text);
    for (const [key, widget] of this.widgets) target.setWidget(key, widget.lines, widget.options);
    if (this.title !== undefined) target.setTitle(this.title);
    for (const notice of this.notices) target.notify(notice.message, notice.type);
    if (this.editorText !== undefined) target.setEditorText(this.editorText);
    this.statuses.clear();
    this.widgets.clear();
    this.title = undefined;
    this.notices.length = 0;
    this.editorText = undefined;
  }

  /** Sends dialogs and notices to `ui` while `body` runs (before a mode binds its own). */
  async withDialogs<T>(ui: ExtensionUI, body: () => Promise<T>): Promise<T> {
    this.dialogs = ui;
    try {
      return await body();
    } finally {
      this.dialogs = undefined;
    }
  }

  private get asker(): ExtensionUI {
    return this.dialogs ?? this.target;
  }

  get hasUI(): boolean {
    return this.bound ? this.target.hasUI : this.willHaveUI;
  }
  select(title: string, options: readonly string[], opts?: DialogOptions): Promise<string | undefined> {
    return this.asker.select(title, options, opts);
  }
  confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean> {
    return this.asker.confirm(title, message, opts);
  }
  input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined> {
    return this.asker.input(title, placeholder, opts);
  }
  editor(title: string, prefill?: string): Promise<string | undefined> {
    return this.asker.editor(title, prefill);
  }
  notify(message: string, type?: NoticeType): void {
    if (this.dialogs || this.bound) this.asker.notify(message, type);
    else if (this.notices.length < MAX_KEPT_NOTICES) this.notices.push({ message, type });
  }
  setStatus(key: string, text: string | undefined): void {
    if (!this.bound) this.statuses.set(key, text);
    this.target.setStatus(key, text);
  }
  setWidget(key: string, lines: readonly string[] | undefined, options?: { placement?: WidgetPlacement }): void {
    if (!this.bound) this.widgets.set(key, options ? { lines, options } : { lines });
    this.target.setWidget(key, lines, options);
  }
  setTitle(title: string): void {
    if (!this.bound) this.title = title;
    this.target.setTitle(title);
  }
  setEditorText(text: string): void {
    if (!this.bound) this.editorText = text;
    this.target.setEditorText(text);
  }
  getEditorText(): string {
    return this.target.getEditorText();
  }
}
