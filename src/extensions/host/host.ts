/**
 * The extension host: one socket, the extension processes behind it, and the surfaces the rest
 * of pig uses — agent hooks, event notifications, tool proxies, commands, shortcuts, flags, a
 * status list, and shutdown. Extensions are addressed by id (their absolute path) everywhere;
 * which process holds an extension is this file's business only.
 */
import { join } from "node:path";
import type { AgentHooks } from "../../agent/hooks.ts";
import { CredentialVars } from "../../ai/credential-vars.ts";
import type { AnyTool } from "../../tools/types.ts";
import { VERSION } from "../../version.ts";
import { RpcError } from "../connection.ts";
import type { ExtensionSource } from "../discovery.ts";
import {
  DEFAULT_MAX_FRAME_BYTES,
  ErrorCode,
  type InitializeResult,
  PROTOCOL,
  type ReadyParams,
  type RegisterParams,
  type SessionMode,
} from "../protocol.ts";
import type { ExtensionUI } from "../ui.ts";
import { type Answer, EventDispatcher, type ExtensionErrorReport } from "./dispatch.ts";
import { ExtensionProcess, type ProcessOwner, type ProcessState } from "./ext-process.ts";
import { OpenBoundaries } from "./boundaries.ts";
import type { HostObserver } from "./observer.ts";
import { createHooks } from "./hooks.ts";
import { createHostCalls } from "./host-calls.ts";
import type { HostModelPort } from "./model-calls.ts";
import { type ExtensionListener, listenForHost } from "./listener.ts";
import { type ExtensionCommand, type ExtensionFlag, type ExtensionShortcut, listCommands, listFlags, listShortcuts } from "./registered.ts";
import { type ExtensionProvider, listProviders } from "./providers.ts";
import { type ExtensionVirtualModel, listVirtualModels } from "./virtual-models.ts";
import { RegistrationStore } from "./registry.ts";
import { Replicator } from "./replication.ts";
import { runnerCommand } from "./runner-command.ts";
import { preparePeerUid } from "../../util/socket-peer.ts";
import type { PrestartedParts, PrestartedRunner } from "./prestart.ts";
import { groupIntoProcesses, isSharedRunner } from "./process-specs.ts";
import type { HostSessionPort } from "./session-port.ts";
import { createSocketDir, type SocketDir } from "./socket-dir.ts";
import { DEFAULT_TIMING, type HostTiming } from "./timing.ts";
import { toolProxy } from "./tool-proxy.ts";

export interface ExtensionHostOptions {
  /** In load order (discovery's output). */
  sources: readonly ExtensionSource[];
  port: HostSessionPort;
  ui: ExtensionUI;
  cwd: string;
  agentDir: string;
  mode: SessionMode;
  /** CLI flag values for extension flags, by name. */
  flagValues?: Readonly<Record<string, boolean | string>>;
  /** Upstream's `extension_error`: a handler failed, timed out, or its process died. */
  onError?(report: ExtensionErrorReport): void;
  /** The environment extension processes inherit (credentials are filtered out). */
  env?: Record<string, string | undefined>;
  /** The credential rule with the run's configured names (asked at each process start). */
  credentials?: () => CredentialVars;
  timing?: Partial<HostTiming>;
  /** Replaces `runnerCommand()` for TypeScript extensions. */
  runnerCommand?: readonly string[];
  /** The frame limit announced in the handshake (default 8 MiB). */
  maxFrameBytes?: number;
  /** Sees the frames sent and the pings answered (`pig extension check`). */
  observer?: HostObserver;
  /** Where the private socket directory is made; default $XDG_RUNTIME_DIR or the temp dir. */
  socketBaseDir?: string;
  /** Model calls with pig's credentials (`model.auth`, `model.stream`); without it they are refused. */
  models?: HostModelPort;
  /** The shared runner, started before the extensions were known: taken over when it fits (prestart.ts). */
  prestarted?: PrestartedRunner;
}

export type ExtensionRunState = ProcessState | "load-failed";

export interface ExtensionStatus {
  id: string;
  pid: number | undefined;
  generation: number;
  state: ExtensionRunState;
  events: string[];
  calls: number;
  medianLatencyMs: number | undefined;
  error?: string;
}

export { type ExtensionCommand, type ExtensionErrorReport, type ExtensionFlag, type ExtensionProvider, type ExtensionShortcut };

export class ExtensionHost {
  readonly loadErrors: string[] = [];
  readonly diagnostics: Array<{ extension: string; type: "warning" | "error"; message: string }> = [];
  private readonly registry: RegistrationStore;
  private readonly processes: ExtensionProcess[] = [];
  private readonly byId = new Map<string, ExtensionProcess>();
  private readonly failed = new Map<string, string>();
  private readonly commandsOpen = new Map<ExtensionProcess, number>();
  private readonly dispatcher: EventDispatcher;
  private readonly replicator: Replicator;
  private readonly boundaries = new OpenBoundaries();
  private readonly listener: ExtensionListener;
  private readonly dir: SocketDir;
  private readonly timing: HostTiming;
  private readonly unsubscribeState: () => void;
  private stateQueued = false;
  private stopped = false;
  /** The prestarted runner's parts, until its process takes them (ext-process.ts). */
  private prestarted: PrestartedParts | undefined;

  private constructor(private readonly options: ExtensionHostOptions) {
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    this.registry = new RegistrationStore(options.sources.map((s) => s.id));
    this.replicator = new Replicator(options.port);
    this.dispatcher = new EventDispatcher({
      registry: this.registry,
      onError: (r) => options.onError?.(r),
      deadlineMs: this.timing.eventDeadlineMs,
      route: {
        isUp: (id) => this.isUp(id),
        request: (id, method, params, opts) => this.route(id).request(id, method, params, opts),
        notify: (id, method, params) => this.byId.get(id)?.notify(method, params),
      },
    });
    const command = options.runnerCommand ?? runnerCommand();
    const specs = groupIntoProcesses(options.sources, command);
    this.prestarted = specs.some(isSharedRunner) ? this.takePrestarted(command) : undefined;
    if (this.prestarted) {
      this.dir = this.prestarted.dir;
      this.listener = this.prestarted.listener;
    } else {
      this.dir = createSocketDir(options.socketBaseDir);
      this.listener = listenForHost(this.dir.socketPath, {
        maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
        handshakeTimeoutMs: this.timing.launchTimeoutMs,
      });
    }
    for (const spec of specs) {
      const proc = new ExtensionProcess(spec, this.owner());
      this.processes.push(proc);
      for (const id of proc.ids) this.byId.set(id, proc);
    }
    for (const s of options.sources) if (s.tools.length || s.commands.length) this.registry.declare(s.id, s.tools, s.commands);
    this.unsubscribeState = options.port.onStateChange(() => this.queueState());
  }

  /**
   * The prestarted runner's parts, when this host would have made the same: its listener's
   * options are the defaults and its socket goes where the default puts it.
   */
  private takePrestarted(command: readonly string[]): PrestartedParts | undefined {
    const o = this.options;
    const pre = o.prestarted;
    if (!pre || o.socketBaseDir !== undefined || (o.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES) !== DEFAULT_MAX_FRAME_BYTES) return undefined;
    if (this.timing.launchTimeoutMs !== DEFAULT_TIMING.launchTimeoutMs || (o.env ?? process.env) !== pre.options.env) return undefined;
    return pre.take({ cwd: o.cwd, agentDir: o.agentDir, command });
  }

  static async start(options: ExtensionHostOptions): Promise<ExtensionHost> {
    const host = new ExtensionHost(options);
    const starting = Promise.all(
      host.processes
        .filter((p) => !p.spec.lazy)
        .map((p) =>
          p.start().catch((err: Error) => {
            for (const id of p.ids) if (!host.failed.has(id)) host.loadFailed(id, err.message);
          }),
        ),
    );
    // The processes are spawned: while they start, the check of a connection's peer gets ready,
    // so that the first handshake does not wait for it.
    preparePeerUid();
    await starting;
    return host;
  }

  hooks(): AgentHooks {
    return createHooks(this.dispatcher, this.boundaries);
  }

  /** An observe-only event, to its running subscribers; never waits. */
  notify(event: string, payload: unknown): void {
    // A state change queued before this event is told first: a handler reads the state the event happened in.
    this.flushState();
    this.dispatcher.notify(event, payload);
  }

  /** An interceptable event outside `AgentHooks` (e.g. resources_discover): every non-null answer. */
  ask(event: string, payload: unknown): Promise<Array<{ extension: string; value: unknown }>> {
    return this.dispatcher.askAll(event, payload);
  }

  /** The running extensions that handle `event`, in load order. */
  subscribers(event: string): string[] {
    return this.dispatcher.targets(event);
  }

  /** Any request to the process holding `extension` (`pig extension check` asks `check.mirror`). */
  probe(extension: string, method: string, params: unknown = {}, signal?: AbortSignal): Promise<unknown> {
    return this.route(extension).request(extension, method, params, signal ? { signal } : {});
  }

  /** Drops the connection of the process holding `extension` without a word (see ExtensionProcess.disconnect). */
  disconnect(extension: string, waitMs: number): Promise<number | null | undefined> {
    return this.route(extension).disconnect(waitMs);
  }

  /** One extension's answer to one event, for callers that chain by themselves. */
  askOne(extension: string, event: string, payload: unknown, signal?: AbortSignal): Promise<Answer> {
    return this.dispatcher.ask(extension, event, payload, signal);
  }

  /** The tools with the extension that registered each. */
  toolsWithOwners(): { extension: string; tool: AnyTool }[] {
    const route = { request: (id: string, m: string, p: unknown, o: object) => this.route(id).request(id, m, p, o) };
    const out: { extension: string; tool: AnyTool }[] = [];
    for (const [id, r] of this.registry.entries()) {
      if (this.failed.has(id)) continue;
      for (const spec of r.tools.values()) out.push({ extension: id, tool: toolProxy(id, spec, route) });
    }
    return out;
  }

  tools(): AnyTool[] {
    return this.toolsWithOwners().map(({ tool }) => tool);
  }

  commands(): ExtensionCommand[] {
    return listCommands(this.liveRegistrations(), (id, method, params) => this.runCommandRequest(id, method, params));
  }

  shortcuts(): ExtensionShortcut[] {
    return listShortcuts(this.liveRegistrations(), (id, method, params) => this.runCommandRequest(id, method, params));
  }

  flags(): ExtensionFlag[] {
    return listFlags(this.liveRegistrations());
  }

  /** The providers the extensions registered, each with the way to stream through its extension. */
  providers(): ExtensionProvider[] {
    return listProviders(this.liveRegistrations(), (id, method, params, opts) => this.route(id).request(id, method, params, opts));
  }

  /** The virtual models the extensions registered, each with the way to ask its router. */
  virtualModels(): ExtensionVirtualModel[] {
    return listVirtualModels(this.liveRegistrations(), (id, method, params, opts) => this.route(id).request(id, method, params, opts));
  }

  /** The MCP servers the extensions registered (`pi.registerMcpServer`), in load order. */
  mcpServers(): Array<{ name: string; config: Record<string, unknown>; extensionPath: string }> {
    return this.registry.mcpServers();
  }

  /** Registrations changed (a tool registered at run time, a restart, a failure). */
  onChange(listener: () => void): () => void {
    return this.registry.onChange(listener);
  }

  list(): ExtensionStatus[] {
    return this.options.sources.map((s) => {
      const proc = this.byId.get(s.id)!;
      const stats = proc.statsFor(s.id);
      const loadError = this.failed.get(s.id);
      return {
        id: s.id,
        pid: proc.pid,
        generation: proc.generation,
        state: loadError && proc.state !== "failed" ? "load-failed" : proc.state,
        events: [...(this.registry.get(s.id)?.events ?? [])],
        calls: stats.calls,
        medianLatencyMs: stats.medianMs(),
        ...((loadError ?? proc.lastError) ? { error: loadError ?? proc.lastError } : {}),
      };
    });
  }

  async shutdown(reason = "quit"): Promise<void> {
    if (this.stopped) return;
    // The handlers are waited for (they may save state: what they append reaches the session
    // file, which the caller closes only after this), a quit only as long as the grace.
    await this.dispatcher.askAll("session_shutdown", { reason }, reason === "reload" ? {} : { deadlineMs: this.timing.shutdownGraceMs });
    await this.stop(reason);
  }

  /**
   * Stops the processes without a `session_shutdown` — for a host that never had a session (the
   * one started to ask about project trust, when the run needs other extensions).
   */
  async stop(reason = "quit"): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribeState();
    await Promise.all(this.processes.map((p) => p.shutdown(reason)));
    this.replicator.dispose();
    this.listener.close();
    this.dir.remove();
  }

  private route(id: string): ExtensionProcess {
    const proc = this.byId.get(id);
    if (!proc) throw new Error(`Unknown extension "${id}"`);
    const failure = this.failed.get(id);
    if (failure) throw new Error(`Extension "${id}" failed to load: ${failure}`);
    return proc;
  }

  private isUp(id: string): boolean {
    return !this.failed.has(id) && this.byId.get(id)?.state === "running";
  }

  private liveRegistrations() {
    return this.registry.entries().filter(([id]) => !this.failed.has(id));
  }

  private async runCommandRequest(id: string, method: string, params: unknown): Promise<unknown> {
    const proc = this.route(id);
    this.commandsOpen.set(proc, (this.commandsOpen.get(proc) ?? 0) + 1);
    try {
      return await proc.request(id, method, params);
    } catch (error) {
      // A command cut off because its host stopped (a reload it asked for, a quit) did not fail.
      if (this.stopped) return undefined;
      throw error;
    } finally {
      this.commandsOpen.set(proc, (this.commandsOpen.get(proc) ?? 1) - 1);
    }
  }

  private loadFailed(id: string, message: string): void {
    this.failed.set(id, message);
    this.loadErrors.push(`Failed to load extension "${id}": ${message}`);
    this.registry.remove(id);
  }

  /** Sends the current state to every process now (before an event that depends on it). */
  sendStateNow(): void {
    if (this.stopped) return;
    const state = this.options.port.state();
    for (const p of this.processes) p.notify("state", state);
  }

  private queueState(): void {
    if (this.stateQueued) return;
    this.stateQueued = true;
    queueMicrotask(() => this.flushState());
  }

  /** Sends the queued state change, if one is queued (once, however many changes it holds). */
  private flushState(): void {
    if (!this.stateQueued) return;
    this.stateQueued = false;
    if (this.stopped) return;
    const state = this.options.port.state();
    for (const p of this.processes) p.notify("state", state);
  }

  private owner(): ProcessOwner {
    const host = this;
    const calls = createHostCalls(this.options.port, this.options.ui, this.options.models, (event, payload) => host.notify(event, payload));
    const o = this.options;
    const onCall: ProcessOwner["onCall"] = (proc, method, params, ctx) => {
      const generation = proc.generation;
      return calls(method, params, {
        signal: ctx.signal,
        progress: (value) => ctx.progress(value),
        inCommand: () => (host.commandsOpen.get(proc) ?? 0) > 0,
        subscribe: (options) =>
          host.replicator.subscribe(
            proc,
            {
              alive: () => proc.state === "running" && proc.generation === generation,
              notify: (m, p) => proc.notify(m, p),
            },
            options,
          ),
        boundaryContext: (boundary, entries) => host.boundaries.context(boundary, entries),
        emitBus: (channel, data) => {
          for (const other of host.processes) if (other !== proc) other.notify("bus.message", { channel, data });
        },
        reportError: (r) => {
          const id = proc.resolveId(r.extension);
          if (!proc.ids.includes(id)) return;
          host.dispatcher.report({ extensionPath: id, event: r.event, error: r.error, ...(r.stack ? { stack: r.stack } : {}) });
        },
      });
    };
    return {
      listener: this.listener,
      ...(o.observer ? { observer: o.observer } : {}),
      socketPath: this.dir.socketPath,
      cwd: o.cwd,
      logDir: join(o.agentDir, "extensions", "logs"),
      takePrestarted: (proc) => {
        const parts = this.prestarted;
        if (!parts || !isSharedRunner(proc.spec)) return undefined;
        this.prestarted = undefined;
        return parts;
      },
      baseEnv: o.env ?? process.env,
      credentials: () => o.credentials?.() ?? new CredentialVars(),
      timing: this.timing,
      initializeResult: (proc): InitializeResult => ({
        protocol: PROTOCOL,
        maxFrameBytes: o.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
        host: { name: "pig", version: VERSION },
        load: proc.spec.load.filter((l) => !host.failed.has(l.id)),
        extension: proc.spec.single ?? null,
        session: { cwd: o.cwd, mode: o.mode, hasUI: o.ui.hasUI },
        flags: { ...(o.flagValues ?? {}) },
      }),
      onRegister: (proc, params: RegisterParams) => {
        const id = proc.resolveId(params.extension);
        if (!proc.ids.includes(id)) throw new RpcError(ErrorCode.InvalidParams, `this process does not hold extension "${params.extension}"`);
        const diagnostics = host.registry.apply(id, proc.generation, params);
        for (const d of diagnostics) host.diagnostics.push({ extension: id, ...d });
        return { diagnostics };
      },
      onReady: (proc, params: ReadyParams) => {
        const id = proc.resolveId(params.extension);
        if (params.error && !host.failed.has(id)) host.loadFailed(id, params.error.message);
      },
      onRunning: (proc) => proc.notify("state", o.port.state()),
      onCall,
      onNotification: (proc, method, params) => {
        // A call sent without an id: handled the same way, with nobody to answer.
        const signal = new AbortController().signal;
        void Promise.resolve()
          .then(() => onCall(proc, method, params, { id: -1, signal, progress: () => {} }))
          .catch((err: Error) => {
            for (const id of proc.ids) host.dispatcher.report({ extensionPath: id, event: method, error: err.message });
          });
      },
      onDown: (proc, detail) => {
        for (const id of proc.ids) host.dispatcher.report({ extensionPath: id, event: "process", error: `Extension "${id}" ${detail}` });
      },
      onDisabled: (proc, detail) => {
        for (const id of proc.ids) {
          const message = `Extension "${id}" crashed too often and is disabled (${detail})`;
          host.dispatcher.report({ extensionPath: id, event: "process", error: message });
          o.ui.notify(message, "error");
        }
      },
    };
  }
}

export function startExtensionHost(options: ExtensionHostOptions): Promise<ExtensionHost> {
  return ExtensionHost.start(options);
}
