/**
 * What an extension may ask of pig: dialogs and UI updates through `ExtensionUI`, actions on the
 * session through the `HostSessionPort`, model calls with pig's credentials through the
 * `HostModelPort`. Params arrive checked against HOST_METHODS; this file only maps them onto
 * the three interfaces.
 */
import type { BoundaryDraft } from "../../agent/hooks.ts";
import { RpcError } from "../connection.ts";
import { ErrorCode, type HostMethod, type HostMethodParams, type SessionSnapshot } from "../protocol.ts";
import type { ExtensionUI } from "../ui.ts";
import { modelAuth, modelList, modelStream, type HostModelPort } from "./model-calls.ts";
import type { HostSessionPort } from "./session-port.ts";

export interface CallerContext {
  signal: AbortSignal;
  /** Partial results of the call (`$/progress`); nothing when it came as a notification. */
  progress(value: unknown): void;
  /** Whether one of the caller's `command.run` requests is open (upstream's command context). */
  inCommand(): boolean;
  subscribe(options: { file?: boolean }): SessionSnapshot;
  /** The context of an open session boundary with `entries` appended. */
  boundaryContext(boundary: string, entries: readonly BoundaryDraft[]): unknown;
  emitBus(channel: string, data: unknown): void;
  /** A handler of the caller's threw: the session's `extension_error`. */
  reportError(report: { extension: string; event: string; error: string; stack?: string }): void;
}

type Handler<M extends HostMethod> = (params: HostMethodParams<M>, ctx: CallerContext) => unknown;
type Table = { [M in Exclude<HostMethod, "initialize" | "register" | "ready">]: Handler<M> };

const OK = {};

/** Upstream's `ui_prompt_start` / `ui_prompt_end` payload. */
export interface UiPromptEvent {
  reason: "ui_prompt";
  kind: "select" | "confirm" | "input" | "editor";
  title?: string;
}

/**
 * `prompted` hears a blocking dialog start and end (`ui_prompt_start` / `ui_prompt_end`), once
 * around the outermost of dialogs open at the same time, as upstream does.
 */
export function createHostCalls(
  port: HostSessionPort,
  ui: ExtensionUI,
  models: HostModelPort | undefined,
  prompted?: (event: "ui_prompt_start" | "ui_prompt_end", payload: UiPromptEvent) => void,
) {
  const commandOnly = (ctx: CallerContext, name: string) => {
    if (!ctx.inCommand()) throw new RpcError(ErrorCode.HandlerError, `${name} is only available in command handlers`);
  };
  let open = 0;
  let outer: UiPromptEvent | undefined;
  const prompt = async <T>(kind: UiPromptEvent["kind"], title: string | undefined, run: () => Promise<T>): Promise<T> => {
    if (open++ === 0) {
      outer = { reason: "ui_prompt", kind, ...(title ? { title } : {}) };
      prompted?.("ui_prompt_start", outer);
    }
    try {
      return await run();
    } finally {
      if (--open === 0 && outer) {
        prompted?.("ui_prompt_end", outer);
        outer = undefined;
      }
    }
  };
  const dialog = (ctx: CallerContext, timeout: number | undefined) => ({ signal: ctx.signal, ...(timeout !== undefined ? { timeout } : {}) });

  const table: Table = {
    "session.subscribe": (p, ctx) => ctx.subscribe({ file: p.file === true }),
    "session.boundaryContext": (p, ctx) => ctx.boundaryContext(p.boundary, p.entries as BoundaryDraft[]),
    "ui.select": async (p, ctx) => ({ value: await prompt("select", p.title, () => ui.select(p.title, p.options, dialog(ctx, p.timeout))) }),
    "ui.confirm": async (p, ctx) => ({ confirmed: await prompt("confirm", p.title, () => ui.confirm(p.title, p.message, dialog(ctx, p.timeout))) }),
    "ui.input": async (p, ctx) => ({ value: await prompt("input", p.title, () => ui.input(p.title, p.placeholder, dialog(ctx, p.timeout))) }),
    "ui.editor": async (p) => ({ value: await prompt("editor", p.title, () => ui.editor(p.title, p.prefill)) }),
    "ui.getEditorText": () => ({ text: ui.getEditorText() }),
    "ui.notify": (p) => (ui.notify(p.message, p.type), OK),
    "ui.setStatus": (p) => (ui.setStatus(p.key, p.text ?? undefined), OK),
    "ui.setWidget": (p) => (ui.setWidget(p.key, p.lines ?? undefined, p.placement ? { placement: p.placement } : undefined), OK),
    "ui.setTitle": (p) => (ui.setTitle(p.title), OK),
    "ui.setEditorText": (p) => (ui.setEditorText(p.text), OK),
    "agent.sendMessage": async (p) => (await port.sendMessage(p), OK),
    "agent.sendUserMessage": async (p) => (await port.sendUserMessage(p), OK),
    "session.appendEntry": async (p) => (await port.appendEntry(p.customType, p.data), OK),
    "session.setName": async (p) => (await port.setName(p.name), OK),
    "session.setLabel": async (p) => (await port.setLabel(p.entryId, p.label ?? undefined), OK),
    "tools.setActive": (p) => (port.setActiveTools(p.names), OK),
    "tools.call": (p, ctx) => port.callTool(p.toolCallId, p.name, p.args, ctx.signal, (partial) => ctx.progress(partial)),
    "model.set": async (p) => ({ ok: await port.setModel(p.provider, p.id) }),
    "model.auth": (p) => modelAuth(models, p),
    "model.list": () => modelList(models),
    "model.stream": (p, ctx) => modelStream(models, p, ctx.signal, (event) => ctx.progress(event)),
    "thinking.set": (p) => (port.setThinkingLevel(p.level), OK),
    "agent.compact": async (p) => (await port.compact(p.customInstructions), OK),
    "agent.abort": () => (port.abort(), OK),
    "agent.shutdown": () => (port.shutdown(), OK),
    "agent.waitForIdle": async () => (await port.waitForIdle(), OK),
    "context.usage": () => port.contextUsage() ?? null,
    "session.systemPromptOptions": () => port.systemPromptOptions?.() ?? {},
    "bus.emit": (p, ctx) => (ctx.emitBus(p.channel, p.data), OK),
    "extension.error": (p, ctx) => (ctx.reportError(p), OK),
    "session.new": (p, ctx) => {
      commandOnly(ctx, "newSession");
      return port.newSession(p.parentSession !== undefined ? { parentSession: p.parentSession } : {});
    },
    "session.fork": (p, ctx) => {
      commandOnly(ctx, "fork");
      return port.fork(p.entryId, p.position ? { position: p.position } : {});
    },
    "session.navigate": (p, ctx) => {
      commandOnly(ctx, "navigateTree");
      const { targetId, ...options } = p;
      return port.navigateTree(targetId, options);
    },
    "session.switch": (p, ctx) => {
      commandOnly(ctx, "switchSession");
      return port.switchSession(p.path);
    },
    "agent.reload": async (_p, ctx) => {
      commandOnly(ctx, "reload");
      await port.reload();
      return OK;
    },
  };

  return (method: string, params: unknown, ctx: CallerContext): unknown => {
    if (!Object.hasOwn(table, method)) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    const handler = table[method as keyof Table] as (p: unknown, c: CallerContext) => unknown;
    return handler(params, ctx);
  };
}
