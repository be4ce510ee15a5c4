/**
 * The extension UI sub-protocol of RPC mode (Pi's `extension_ui_request` / `_response`): the
 * `ExtensionUI` of RPC mode. Dialogs ask the client and wait for its answer; the other methods
 * tell it and expect none. Timeouts and cancellation are enforced here, on pig's side: when time
 * runs out the call resolves to its default and the client is not told.
 */
import * as v from "valibot";
import type { DialogOptions, ExtensionUI, NoticeType, WidgetPlacement } from "../extensions/ui.ts";

export const UiResponseSchema = v.looseObject({
  type: v.literal("extension_ui_response"),
  id: v.string(),
  value: v.optional(v.string()),
  confirmed: v.optional(v.boolean()),
  cancelled: v.optional(v.boolean()),
});
export type UiResponse = v.InferOutput<typeof UiResponseSchema>;

export type { DialogOptions };

type Send = (record: Record<string, unknown>) => void;

export class RpcUi implements ExtensionUI {
  readonly hasUI = true;
  private readonly waiting = new Map<string, (response: UiResponse | undefined) => void>();

  constructor(
    private readonly send: Send,
    private readonly newId: () => string = () => crypto.randomUUID(),
  ) {}

  /** Feeds a response line from the client; unknown ids are ignored. */
  receive(response: UiResponse): void {
    const resolve = this.waiting.get(response.id);
    if (!resolve) return;
    this.waiting.delete(response.id);
    resolve(response);
  }

  private ask(method: string, fields: Record<string, unknown>, options: DialogOptions): Promise<UiResponse | undefined> {
    if (options.signal?.aborted) return Promise.resolve(undefined);
    const id = this.newId();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = (response: UiResponse | undefined) => {
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        this.waiting.delete(id);
        resolve(response);
      };
      const onAbort = () => done(undefined);
      this.waiting.set(id, done);
      if (options.timeout !== undefined) timer = setTimeout(() => done(undefined), options.timeout);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.send({ type: "extension_ui_request", id, method, ...fields, ...(options.timeout !== undefined ? { timeout: options.timeout } : {}) });
    });
  }

  private tell(method: string, fields: Record<string, unknown>): void {
    this.send({ type: "extension_ui_request", id: this.newId(), method, ...fields });
  }

  async select(title: string, choices: readonly string[], options: DialogOptions = {}): Promise<string | undefined> {
    const response = await this.ask("select", { title, options: [...choices] }, options);
    return response?.cancelled ? undefined : response?.value;
  }

  async confirm(title: string, message: string, options: DialogOptions = {}): Promise<boolean> {
    const response = await this.ask("confirm", { title, message }, options);
    return response?.cancelled ? false : (response?.confirmed ?? false);
  }

  async input(title: string, placeholder?: string, options: DialogOptions = {}): Promise<string | undefined> {
    const response = await this.ask("input", { title, ...(placeholder !== undefined ? { placeholder } : {}) }, options);
    return response?.cancelled ? undefined : response?.value;
  }

  /** Waits as long as the client needs: upstream gives the editor no timeout. */
  async editor(title: string, prefill?: string): Promise<string | undefined> {
    const response = await this.ask("editor", { title, ...(prefill !== undefined ? { prefill } : {}) }, {});
    return response?.cancelled ? undefined : response?.value;
  }

  notify(message: string, type?: NoticeType): void {
    this.tell("notify", { message, ...(type ? { notifyType: type } : {}) });
  }

  setStatus(key: string, text: string | undefined): void {
    this.tell("setStatus", { statusKey: key, ...(text !== undefined ? { statusText: text } : {}) });
  }

  setWidget(key: string, lines: readonly string[] | undefined, options: { placement?: WidgetPlacement } = {}): void {
    this.tell("setWidget", {
      widgetKey: key,
      ...(lines ? { widgetLines: [...lines] } : {}),
      ...(options.placement ? { widgetPlacement: options.placement } : {}),
    });
  }

  setTitle(title: string): void {
    this.tell("setTitle", { title });
  }

  setEditorText(text: string): void {
    this.tell("set_editor_text", { text });
  }

  /** The client's editor is its own business: upstream answers "" here too. */
  getEditorText(): string {
    return "";
  }

  /** Requests still waiting for an answer. */
  get pending(): number {
    return this.waiting.size;
  }
}
