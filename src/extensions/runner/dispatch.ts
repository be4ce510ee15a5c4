/**
 * What the host asks of this process: events, tool calls, commands, completions, shortcuts,
 * provider streams; and what it tells it: state, session log changes, bus messages, shutdown.
 */
import type { AgentToolResult, ExtensionContext } from "../api/types.ts";
import { createCommandContext, createContext } from "./context.ts";
import { runEventHandlers } from "./events.ts";
import { createToolContext } from "./tool-context.ts";
import { streamProvider } from "./providers.ts";
import type { ExtensionRecord } from "./record.ts";
import type { HostState } from "./state.ts";
import type { Runtime } from "./runtime.ts";
import type { SessionSnapshot } from "./session-mirror.ts";
import { describe, RpcError } from "./peer.ts";
import { ErrorCode } from "../protocol-constants.ts";
import { extensionEvent } from "../../util/extension-events.ts";

type Json = Record<string, unknown>;


function recordOf(runtime: Runtime, params: Json): ExtensionRecord {
  const record = runtime.records.get(String(params.extension));
  if (!record) throw new RpcError(ErrorCode.InvalidParams, `no extension ${String(params.extension)} in this process`);
  return record;
}

function toolResult(result: AgentToolResult | undefined): Json {
  const content = Array.isArray(result?.content) ? result.content : [];
  return {
    content,
    details: result?.details ?? {},
    // Only `true` marks an error, as upstream: other values never set the flag.
    ...(result?.isError === true ? { isError: true } : {}),
    ...(result?.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    ...(result?.terminate ? { terminate: true } : {}),
  };
}

export function installDispatch(runtime: Runtime, onShutdown: (reason: string) => void): void {
  const { peer } = runtime;

  const runEvent = async (params: Json, signal?: AbortSignal): Promise<unknown> => {
    const record = recordOf(runtime, params);
    const name = String(params.event);
    const handlers = record.handlers.get(name) ?? [];
    if (handlers.length === 0) return null;
    const payload = { ...((params.payload ?? {}) as Json) };
    // Upstream's event carries the AbortSignal, which cannot cross the socket: the request's stands in.
    const row = extensionEvent(name);
    if (signal && row?.kind === "request" && row.signalInPayload) payload.signal = signal;
    const ctx: ExtensionContext = createContext(runtime, record, { signal });
    return runEventHandlers(record.name, name, payload, handlers, ctx, (event, error) => reportError(record.id, event, error), {
      boundaryContext: (boundary, entries) => peer.requestSync("session.boundaryContext", { boundary, entries }, 30_000),
    });
  };
  // A handler that threw: the host makes it the session's `extension_error`.
  const reportError = (extension: string, event: string, error: unknown): void => {
    const stack = error instanceof Error ? error.stack : undefined;
    peer.notify("extension.error", { extension, event, error: describe(error), ...(stack ? { stack } : {}) });
  };
  peer.onRequest("event", (params, req) => runEvent(params, req.signal));
  peer.onNotification("event", (params) => {
    runEvent(params).catch((error: unknown) => {
      process.stderr.write(`${String(params.event)}: ${describe(error)}\n`);
      reportError(String(params.extension), String(params.event), error);
    });
  });

  peer.onRequest("tool.execute", async (params, req) => {
    const record = recordOf(runtime, params);
    const tool = record.tools.get(String(params.name));
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Tool ${String(params.name)} is not registered by ${record.name}`);
    let args = params.args as Json;
    try {
      if (tool.prepareArguments) args = tool.prepareArguments(args) as Json;
      const onUpdate = (partial: { content: unknown[]; details?: unknown }): void => {
        req.progress({ content: partial?.content ?? [], ...(partial?.details !== undefined ? { details: partial.details } : {}) });
      };
      const ctx = createToolContext(runtime, record, String(params.toolCallId), req.signal);
      return toolResult(await tool.execute(String(params.toolCallId), args, req.signal, onUpdate, ctx));
    } catch (error) {
      return { content: [{ type: "text", text: describe(error) }], details: {}, isError: true };
    }
  });

  peer.onRequest("command.run", async (params, req) => {
    const record = recordOf(runtime, params);
    const command = record.commands.get(String(params.name));
    if (!command) throw new RpcError(ErrorCode.InvalidParams, `Command ${String(params.name)} is not registered by ${record.name}`);
    await command.handler(String(params.args ?? ""), createCommandContext(runtime, record, { signal: req.signal }));
    return {};
  });

  peer.onRequest("command.complete", async (params) => {
    const record = recordOf(runtime, params);
    const command = record.commands.get(String(params.name));
    const items = command?.getArgumentCompletions ? await command.getArgumentCompletions(String(params.prefix ?? "")) : null;
    return { items: items ?? null };
  });

  peer.onRequest("shortcut.run", async (params) => {
    const record = recordOf(runtime, params);
    const shortcut = record.shortcuts.get(String(params.key));
    if (!shortcut) throw new RpcError(ErrorCode.InvalidParams, `Shortcut ${String(params.key)} is not registered by ${record.name}`);
    await shortcut.handler(createContext(runtime, record) as never);
    return {};
  });

  peer.onRequest("provider.stream", async (params, req) => {
    const record = recordOf(runtime, params);
    const live = record.providers.get(String(params.provider));
    if (!live) throw new RpcError(ErrorCode.InvalidParams, `Provider ${String(params.provider)} is not registered by ${record.name}`);
    return streamProvider(live, params.model, params.context, params.options as Json | undefined, req.signal, req.progress);
  });

  peer.onRequest("virtualModel.route", async (params, req) => {
    const record = recordOf(runtime, params);
    const name = `${String(params.provider)}/${String(params.id)}`;
    const route = record.virtualModels.get(name);
    if (!route) throw new RpcError(ErrorCode.InvalidParams, `Virtual model ${name} is not registered by ${record.name}`);
    const request = { ...(params.request as Json), signal: req.signal } as unknown as Parameters<typeof route>[0];
    const chosen = await route(request, createContext(runtime, record, { signal: req.signal }));
    const model = chosen?.model as { provider?: unknown; id?: unknown } | undefined;
    if (!model || typeof model.provider !== "string" || typeof model.id !== "string") throw new Error(`Virtual model ${name}'s route returned no model.`);
    return { model: { provider: model.provider, id: model.id }, ...(chosen.thinkingLevel ? { thinkingLevel: chosen.thinkingLevel } : {}), ...(chosen.state !== undefined ? { state: chosen.state } : {}) };
  });

  peer.onNotification("state", (params) => {
    // Flag values are known only once every extension has registered its flags (the command
    // line is parsed twice), so they come with the state rather than with the handshake.
    const flags = (params as { flags?: unknown }).flags;
    if (flags && typeof flags === "object") Object.assign(runtime.flags, flags);
    runtime.state.update(params as Partial<HostState>);
  });
  peer.onNotification("session.appended", (params) => runtime.session.append(params.entries as string[], (params.leafId as string | null) ?? null));
  peer.onNotification("session.leaf", (params) => runtime.session.moveLeaf((params.leafId as string | null) ?? null));
  peer.onNotification("session.replaced", (params) => {
    if (runtime.session.subscribed) runtime.session.replace(params as unknown as SessionSnapshot);
    else if (typeof params.sessionFile === "string") runtime.session.sessionFile = params.sessionFile;
  });
  // `pig extension check` compares the mirror with the session file.
  peer.onRequest("check.mirror", () => runtime.session.lines());
  peer.onNotification("bus.message", (params) => runtime.bus.deliver(String(params.channel), params.data));
  peer.onNotification("shutdown", (params) => onShutdown(String(params.reason ?? "shutdown")));
}
