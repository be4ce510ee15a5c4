/**
 * `ctx.ui` over the connection. Dialogs, notices, status, widgets (as lines), the title and the
 * editor text go to the host's `ui.*`. Calls that need Pi's full-screen TUI (custom components,
 * footers, headers, overlays, editor components, …) do nothing: the first such call of each
 * extension shows one notice saying so (on stderr in RPC mode). Nothing here throws at the extension.
 */
import type { ExtensionUIContext, ExtensionUIDialogOptions, ThemeLike } from "../api/types.ts";
import { plainTheme } from "../compat/theme.ts";
import type { ExtensionRecord } from "./record.ts";
import { type Runtime } from "./runtime.ts";

function dialog<T>(runtime: Runtime, method: string, params: Record<string, unknown>, fallback: T, pick: (r: Record<string, unknown>) => T, opts?: ExtensionUIDialogOptions): Promise<T> {
  if (!runtime.hasUI || opts?.signal?.aborted) return Promise.resolve(fallback);
  const timeout = opts?.timeout;
  return runtime.peer
    .request<Record<string, unknown> | null>(method, timeout ? { ...params, timeout } : params, { signal: opts?.signal })
    .then((r) => (r ? pick(r) : fallback))
    .catch(() => fallback);
}

export function createUi(runtime: Runtime, record: ExtensionRecord): ExtensionUIContext {
  const notify = (message: string, type?: "info" | "warning" | "error"): void => {
    runtime.peer.notify("ui.notify", type ? { message, type } : { message });
  };
  const tuiOnly = (what: string): void => {
    if (record.tuiNoticeShown) return;
    record.tuiNoticeShown = true;
    const message = `${record.name}: ctx.ui.${what}() needs Pi's full-screen TUI, which pig's line UI does not have; calls like it are ignored.`;
    // An RPC client is a program, not someone looking at pig's line UI: upstream's RPC mode
    // ignores these calls without a word, so the client hears of it neither; stderr does.
    if (runtime.hasUI && runtime.mode !== "rpc") notify(message, "warning");
    else process.stderr.write(`${message}\n`);
  };
  let editorText = "";
  return {
    select: (title, options, opts) => dialog(runtime, "ui.select", { title, options }, undefined, (r) => r.value as string | undefined, opts),
    confirm: (title, message, opts) => dialog(runtime, "ui.confirm", { title, message }, false, (r) => r.confirmed === true, opts),
    input: (title, placeholder, opts) =>
      dialog(runtime, "ui.input", placeholder === undefined ? { title } : { title, placeholder }, undefined, (r) => r.value as string | undefined, opts),
    editor: (title, prefill) =>
      dialog(runtime, "ui.editor", prefill === undefined ? { title } : { title, prefill }, undefined, (r) => r.value as string | undefined),
    notify,
    setStatus: (key, text) => runtime.peer.notify("ui.setStatus", { key, text: text ?? null }),
    setWidget: (key, content, options) => {
      if (typeof content === "function") return tuiOnly("setWidget(component)");
      runtime.peer.notify("ui.setWidget", { key, lines: content ?? null, ...(options?.placement ? { placement: options.placement } : {}) });
    },
    setTitle: (title) => runtime.peer.notify("ui.setTitle", { title }),
    setEditorText: (text) => {
      editorText = text;
      runtime.peer.notify("ui.setEditorText", { text });
    },
    pasteToEditor: (text) => {
      editorText += text;
      runtime.peer.notify("ui.setEditorText", { text: editorText });
    },
    // Pi's getEditorText is synchronous, so it blocks on the host's answer.
    getEditorText: () => {
      if (!runtime.hasUI) return "";
      try {
        return runtime.peer.requestSync<{ text?: string }>("ui.getEditorText", {}, 5_000).text ?? editorText;
      } catch {
        return editorText;
      }
    },
    onTerminalInput: () => {
      tuiOnly("onTerminalInput");
      return () => {};
    },
    setWorkingMessage: () => tuiOnly("setWorkingMessage"),
    setWorkingVisible: () => tuiOnly("setWorkingVisible"),
    setWorkingIndicator: () => tuiOnly("setWorkingIndicator"),
    setHiddenThinkingLabel: () => tuiOnly("setHiddenThinkingLabel"),
    setFooter: () => tuiOnly("setFooter"),
    setHeader: () => tuiOnly("setHeader"),
    custom: <T>() => {
      tuiOnly("custom");
      return Promise.resolve(undefined as T);
    },
    addAutocompleteProvider: () => tuiOnly("addAutocompleteProvider"),
    setEditorComponent: () => tuiOnly("setEditorComponent"),
    getEditorComponent: () => undefined,
    get theme(): ThemeLike {
      return plainTheme;
    },
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: "Theme switching is not supported by pig's line UI" }),
    getToolsExpanded: () => false,
    setToolsExpanded: () => {},
  };
}
