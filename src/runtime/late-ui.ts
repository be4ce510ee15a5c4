/**
 * The UI extensions talk to, before and after the mode has one: extensions start (and may
 * notify) before any mode is up, so calls go to the headless defaults until the mode binds its
 * own UI.
 */
import type { DialogOptions, ExtensionUI, NoticeType, WidgetPlacement } from "../extensions/ui.ts";

export class LateUi implements ExtensionUI {
  constructor(private target: ExtensionUI) {}

  bind(target: ExtensionUI): void {
    this.target = target;
  }

  get hasUI(): boolean {
    return this.target.hasUI;
  }
  select(title: string, options: readonly string[], opts?: DialogOptions): Promise<string | undefined> {
    return this.target.select(title, options, opts);
  }
  confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean> {
    return this.target.confirm(title, message, opts);
  }
  input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined> {
    return this.target.input(title, placeholder, opts);
  }
  editor(title: string, prefill?: string): Promise<string | undefined> {
    return this.target.editor(title, prefill);
  }
  notify(message: string, type?: NoticeType): void {
    this.target.notify(message, type);
  }
  setStatus(key: string, text: string | undefined): void {
    this.target.setStatus(key, text);
  }
  setWidget(key: string, lines: readonly string[] | undefined, options?: { placement?: WidgetPlacement }): void {
    this.target.setWidget(key, lines, options);
  }
  setTitle(title: string): void {
    this.target.setTitle(title);
  }
  setEditorText(text: string): void {
    this.target.setEditorText(text);
  }
  getEditorText(): string {
    return this.target.getEditorText();
  }
}
