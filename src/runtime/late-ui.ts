/**
 * The UI extensions talk to, before and after the mode has one: extensions start (and may
 * notify) before any mode is up, so calls go to the headless defaults until the mode binds its
 * own UI. Extensions learn whether they have a UI once, when they start, so `hasUI` says what the
 * mode will offer from the start; and what they put on screen before the mode is up (a status,
 * a widget, the title, the editor's text, set in session_start say) is kept and shown once it
 * is, with the notices they gave meanwhile when the mode will have someone to read them, in the
 * order they came, as upstream's modes show what a startup session_start handler did.
 */
import type { DialogOptions, ExtensionUI, NoticeType, WidgetPlacement } from "../extensions/ui.ts";

/** Notices kept before the bind at most; older ones are dropped first. */
const MAX_EARLY_NOTICES = 100;

export class LateUi implements ExtensionUI {
  private bound = false;
  /**
   * What to show at the bind, by what it sets (`status:KEY`, `widget:KEY`, `title`, `editor`, or
   * one key per notice): a later status for a key replaces the earlier one in its place.
   */
  private readonly early = new Map<string, (ui: ExtensionUI) => void>();
  private notices = 0;
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
    for (const show of this.early.values()) show(target);
    this.early.clear();
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
    if (!this.bound && !this.dialogs && this.willHaveUI) {
      this.early.set(`notice:${this.notices++}`, (ui) => ui.notify(message, type));
      if (this.notices > MAX_EARLY_NOTICES) this.early.delete(`notice:${this.notices - MAX_EARLY_NOTICES - 1}`);
      return;
    }
    this.asker.notify(message, type);
  }
  setStatus(key: string, text: string | undefined): void {
    if (!this.bound) this.early.set(`status:${key}`, (ui) => ui.setStatus(key, text));
    this.target.setStatus(key, text);
  }
  setWidget(key: string, lines: readonly string[] | undefined, options?: { placement?: WidgetPlacement }): void {
    if (!this.bound) this.early.set(`widget:${key}`, (ui) => ui.setWidget(key, lines, options));
    this.target.setWidget(key, lines, options);
  }
  setTitle(title: string): void {
    if (!this.bound) this.early.set("title", (ui) => ui.setTitle(title));
    this.target.setTitle(title);
  }
  setEditorText(text: string): void {
    if (!this.bound) this.early.set("editor", (ui) => ui.setEditorText(text));
    this.target.setEditorText(text);
  }
  getEditorText(): string {
    return this.target.getEditorText();
  }
}
