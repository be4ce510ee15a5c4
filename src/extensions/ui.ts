/**
 * The one interface extensions (and commands) use to talk to the person at the keyboard. Each
 * mode supplies its own: the interactive mode draws dialogs, RPC forwards them to its client
 * (Pi's extension-UI sub-protocol), print and JSON mode answer with the defaults below.
 *
 * Dialogs resolve to `undefined` (select, input, editor) or `false` (confirm) when nobody can
 * answer, when their timeout passes, or when their signal aborts.
 */

export interface DialogOptions {
  signal?: AbortSignal;
  /** Milliseconds; the dialog then resolves to its default. */
  timeout?: number;
}

export type NoticeType = "info" | "warning" | "error";

export type WidgetPlacement = "aboveEditor" | "belowEditor";

export interface ExtensionUI {
  /** Whether anyone can answer dialogs (interactive and RPC). */
  readonly hasUI: boolean;
  select(title: string, options: readonly string[], opts?: DialogOptions): Promise<string | undefined>;
  confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean>;
  input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined>;
  editor(title: string, prefill?: string): Promise<string | undefined>;
  notify(message: string, type?: NoticeType): void;
  setStatus(key: string, text: string | undefined): void;
  setWidget(key: string, lines: readonly string[] | undefined, options?: { placement?: WidgetPlacement }): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
  getEditorText(): string;
}

/** What print and JSON mode offer: nobody to ask, nothing to draw. */
export const HEADLESS_UI: ExtensionUI = {
  hasUI: false,
  select: async () => undefined,
  confirm: async () => false,
  input: async () => undefined,
  editor: async () => undefined,
  notify: () => {},
  setStatus: () => {},
  setWidget: () => {},
  setTitle: () => {},
  setEditorText: () => {},
  getEditorText: () => "",
};
