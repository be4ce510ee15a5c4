/**
 * The person at the other end of `pig extension check`: every dialog is answered the same way
 * (the first option, yes, "pig-check", the prefilled text) and noted, as are notices, statuses,
 * widgets and titles. The first dialog is held open until `holdFirst` lets it go, so the check
 * can see the extension answer pings while it waits on pig.
 */
import type { DialogOptions, ExtensionUI, NoticeType, WidgetPlacement } from "../../extensions/ui.ts";

export interface UiCall {
  kind: string;
  title?: string;
  answer?: unknown;
}

export class ScriptedUi implements ExtensionUI {
  readonly hasUI = true;
  readonly calls: UiCall[] = [];
  private hold: (() => Promise<void>) | undefined;
  private editorText = "";

  /** The first dialog waits for `wait()` before it is answered. */
  holdFirst(wait: () => Promise<void>): void {
    this.hold = wait;
  }

  private async answer<T>(kind: string, title: string, value: T, opts?: DialogOptions): Promise<T> {
    const hold = this.hold;
    this.hold = undefined;
    const call: UiCall = { kind, title };
    this.calls.push(call);
    if (hold) await hold();
    if (opts?.signal?.aborted) return (kind === "confirm" ? false : undefined) as T;
    call.answer = value;
    return value;
  }

  select(title: string, options: readonly string[], opts?: DialogOptions): Promise<string | undefined> {
    return this.answer("select", title, options[0], opts);
  }
  confirm(title: string, _message: string, opts?: DialogOptions): Promise<boolean> {
    return this.answer("confirm", title, true, opts);
  }
  input(title: string, _placeholder?: string, opts?: DialogOptions): Promise<string | undefined> {
    return this.answer("input", title, "pig-check", opts);
  }
  editor(title: string, prefill?: string): Promise<string | undefined> {
    return this.answer("editor", title, prefill ?? "pig-check");
  }
  notify(message: string, type?: NoticeType): void {
    this.calls.push({ kind: "notify", title: `${type ?? "info"}: ${message}` });
  }
  setStatus(key: string, text: string | undefined): void {
    this.calls.push({ kind: "setStatus", title: `${key}: ${text ?? "(cleared)"}` });
  }
  setWidget(key: string, lines: readonly string[] | undefined, _options?: { placement?: WidgetPlacement }): void {
    this.calls.push({ kind: "setWidget", title: `${key}: ${lines ? `${lines.length} lines` : "(cleared)"}` });
  }
  setTitle(title: string): void {
    this.calls.push({ kind: "setTitle", title });
  }
  setEditorText(text: string): void {
    this.editorText = text;
    this.calls.push({ kind: "setEditorText", title: text });
  }
  getEditorText(): string {
    return this.editorText;
  }

  get dialogs(): UiCall[] {
    return this.calls.filter((c) => ["select", "confirm", "input", "editor"].includes(c.kind));
  }
}
