/**
 * The extension UI sub-protocol of RPC mode: pig asks the client (`extension_ui_request`) and
 * waits for its `extension_ui_response`. Timeouts and cancellation are enforced here, on pig's
 * side: when time runs out the call resolves to its default and the client is not told.
 */
import * as v from "valibot";

export const UiResponseSchema = v.looseObject({
  type: v.literal("extension_ui_response"),
  id: v.string(),
  value: v.optional(v.string()),
  confirmed: v.optional(v.boolean()),
  cancelled: v.optional(v.boolean()),
});
export type UiResponse = v.InferOutput<typeof UiResponseSchema>;

export interface DialogOptions {
  /** Milliseconds to wait for an answer. */
  timeout?: number;
  signal?: AbortSignal;
}

type Send = (record: Record<string, unknown>) => void;

export class RpcUi {
  private readonly waiting = new Map<string, (response: UiResponse | undefined) => void>();

  constructor(private readonly send: Send) {}

  /** Feeds a response line from the client; unknown ids are ignored. */
  receive(response: UiResponse): void {
    const resolve = this.waiting.get(response.id);
    if (!resolve) return;
    this.waiting.delete(response.id);
    resolve(response);
  }

  private ask(method: string, fields: Record<string, unknown>, options: DialogOptions): Promise<UiResponse | undefined> {
    if (options.signal?.aborted) return Promise.resolve(undefined);
    const id = crypto.randomUUID();
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

  async select(title: string, choices: string[], options: DialogOptions = {}): Promise<string | undefined> {
    const response = await this.ask("select", { title, options: choices }, options);
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

  async editor(title: string, prefill?: string): Promise<string | undefined> {
    const response = await this.ask("editor", { title, ...(prefill !== undefined ? { prefill } : {}) }, {});
    return response?.cancelled ? undefined : response?.value;
  }

  notify(message: string, notifyType?: "info" | "warning" | "error"): void {
    this.send({ type: "extension_ui_request", id: crypto.randomUUID(), method: "notify", message, ...(notifyType ? { notifyType } : {}) });
  }

  setStatus(statusKey: string, statusText?: string): void {
    this.send({ type: "extension_ui_request", id: crypto.randomUUID(), method: "setStatus", statusKey, ...(statusText !== undefined ? { statusText } : {}) });
  }

  setWidget(widgetKey: string, widgetLines?: string[], widgetPlacement?: string): void {
    this.send({
      type: "extension_ui_request",
      id: crypto.randomUUID(),
      method: "setWidget",
      widgetKey,
      ...(widgetLines ? { widgetLines } : {}),
      ...(widgetPlacement ? { widgetPlacement } : {}),
    });
  }

  setTitle(title: string): void {
    this.send({ type: "extension_ui_request", id: crypto.randomUUID(), method: "setTitle", title });
  }

  setEditorText(text: string): void {
    this.send({ type: "extension_ui_request", id: crypto.randomUUID(), method: "set_editor_text", text });
  }

  /** Requests still waiting for an answer. */
  get pending(): number {
    return this.waiting.size;
  }
}
