/**
 * The `ctx` handed to handlers, tools, shortcuts and commands. Pi's synchronous reads answer
 * from the state mirror and the session mirror; actions become host requests.
 */
import { dirname } from "node:path";
import type { ExtensionCommandContext, ExtensionContext, ReadonlySessionManager, SessionEntry, SessionTreeNode } from "../api/types.ts";
import { modelRegistry } from "./model-registry.ts";
import type { ExtensionRecord } from "./record.ts";
import { fireAndForget, type Runtime } from "./runtime.ts";
import { createUi } from "./ui.ts";

function sessionManager(runtime: Runtime): ReadonlySessionManager {
  const s = runtime.session;
  const st = (): Runtime["state"]["value"] => runtime.state.value;
  return {
    getCwd: () => st().cwd,
    getSessionDir: () => st().sessionDir ?? (sessionFile(runtime) ? dirname(sessionFile(runtime)!) : ""),
    getSessionId: () => st().sessionId || String(s.getHeader()?.id ?? ""),
    getSessionFile: () => sessionFile(runtime),
    getLeafId: () => s.getLeafId(),
    getLeafEntry: () => s.getLeafEntry() as SessionEntry | undefined,
    getEntry: (id) => s.getEntry(id) as SessionEntry | undefined,
    getLabel: (id) => s.getLabel(id),
    getBranch: (fromId) => s.getBranch(fromId) as SessionEntry[],
    getHeader: () => s.getHeader(),
    getEntries: () => s.getEntries() as SessionEntry[],
    getTree: () => s.getTree() as unknown as SessionTreeNode[],
    getSessionName: () => st().sessionName ?? s.getSessionName(),
  };
}

function sessionFile(runtime: Runtime): string | undefined {
  return runtime.state.value.sessionFile ?? runtime.session.sessionFile;
}

export interface ContextOptions {
  signal?: AbortSignal;
}

export function createContext(runtime: Runtime, record: ExtensionRecord, options: ContextOptions = {}): ExtensionContext {
  const st = (): Runtime["state"]["value"] => runtime.state.value;
  return {
    ui: createUi(runtime, record),
    mode: runtime.mode,
    hasUI: runtime.hasUI,
    get cwd() {
      return st().cwd;
    },
    sessionManager: sessionManager(runtime),
    modelRegistry: modelRegistry(runtime),
    get model() {
      return st().model;
    },
    // pig's model cycling list is not mirrored; upstream's default (no --models) is empty too.
    scopedModels: [],
    get thinkingLevel() {
      return st().thinkingLevel;
    },
    get signal() {
      return options.signal;
    },
    isIdle: () => st().isIdle,
    isProjectTrusted: () => true,
    abort: () => fireAndForget(runtime, record, "agent.abort", {}),
    hasPendingMessages: () => st().hasPendingMessages,
    shutdown: () => fireAndForget(runtime, record, "agent.shutdown", {}),
    getContextUsage: () => st().contextUsage ?? undefined,
    compact: (opts) => {
      const params = opts?.customInstructions ? { customInstructions: opts.customInstructions } : {};
      runtime.peer.request("agent.compact", params).then(
        (result) => opts?.onComplete?.(result),
        (error: unknown) => opts?.onError?.(error instanceof Error ? error : new Error(String(error))),
      );
    },
    getSystemPrompt: () => st().systemPrompt,
  };
}

type Cancelled = { cancelled: boolean };

export function createCommandContext(runtime: Runtime, record: ExtensionRecord, options: ContextOptions = {}): ExtensionCommandContext {
  const ctx = createContext(runtime, record, options);
  const ask = (method: string, params: Record<string, unknown>): Promise<Cancelled> =>
    runtime.peer.request<Cancelled | null>(method, params).then((r) => ({ cancelled: r?.cancelled === true }));
  // `withSession` runs once the new session is bound; this process keeps running across the
  // switch, so a fresh command context (reading the mirrors, now of the new session) serves it.
  const then = async (result: Cancelled, withSession?: (c: ExtensionCommandContext) => Promise<void>): Promise<Cancelled> => {
    if (!result.cancelled && withSession) await withSession(createCommandContext(runtime, record));
    return result;
  };
  return Object.assign(ctx, {
    // Asked of pig when read (it may hold whole context files: not sent with every state).
    getSystemPromptOptions: () => runtime.peer.requestSync<Record<string, unknown>>("session.systemPromptOptions", {}, 30_000),
    waitForIdle: () => runtime.peer.request("agent.waitForIdle", {}).then(() => undefined),
    newSession: async (opts?: Parameters<ExtensionCommandContext["newSession"]>[0]) =>
      then(await ask("session.new", opts?.parentSession ? { parentSession: opts.parentSession } : {}), opts?.withSession),
    fork: async (entryId: string, opts?: Parameters<ExtensionCommandContext["fork"]>[1]) =>
      then(await ask("session.fork", { entryId, ...(opts?.position ? { position: opts.position } : {}) }), opts?.withSession),
    navigateTree: (targetId: string, opts?: Parameters<ExtensionCommandContext["navigateTree"]>[1]) => ask("session.navigate", { targetId, ...opts }),
    switchSession: async (path: string, opts?: Parameters<ExtensionCommandContext["switchSession"]>[1]) =>
      then(await ask("session.switch", { path }), opts?.withSession),
    reload: () => runtime.peer.request("agent.reload", {}).then(() => undefined),
  });
}
