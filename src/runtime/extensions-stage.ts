/**
 * Starting the run's extensions and collecting what they register. Extensions are found the way
 * upstream finds them (`-e`, settings, the user's and — in a trusted project — the project's
 * extension folders), started out of process by the extension host, and what they register goes
 * where the rest of pig looks (extension-install.ts). A run without extensions starts no host.
 *
 * `/reload` (and `ctx.reload()`) replaces the host, not the runtime: the extensions hear
 * `session_shutdown {reason:"reload"}`, their processes stop, they are found and started again
 * for the same session, their new registrations replace the old, and they hear
 * `session_start {reason:"reload"}`. The session's hooks and event forwarding point at whichever
 * host is current, so nothing else has to be rebuilt.
 */
import { NO_HOOKS, type AgentHooks } from "../agent/hooks.ts";
import type { AgentSession } from "../agent/session.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import { discoverExtensions, type ExtensionSource } from "../extensions/discovery.ts";
import { discoveryOptions } from "../extensions/discovery-options.ts";
import type { ExtensionHost, ExtensionStatus } from "../extensions/host/host.ts";
import { createRegistries, type ExtensionRegistries } from "../extensions/registries.ts";
import type { ExtensionUI } from "../extensions/ui.ts";
import type { LoadedResources } from "../resources/load-resources.ts";
import type { Settings } from "../resources/settings.ts";
import type { ExtensionChoice } from "./config.ts";
import { forwardSessionEvents } from "./extension-events.ts";
import { installHost, type Installed } from "./extension-install.ts";
import { ExtensionLaunch } from "./extension-launch.ts";
import type { AddedTool } from "./tools-stage.ts";
import type { DiscoveredPaths } from "./resources-stage.ts";

export interface ExtensionStageInput {
  choice: ExtensionChoice;
  cwd: string;
  agentDir: string;
  /** Whether the project's own extensions may load. */
  trusted: boolean;
  resources: LoadedResources;
  userSettings: Settings;
  projectSettings: Settings;
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  /** Where the extensions' providers go. */
  models: ModelRegistry;
}

/** What a reload found: extensions that failed to load this time, registration problems. */
export interface ExtensionReload {
  loaded: string[];
  loadErrors: string[];
  warnings: string[];
}

/** The extension platform of one run, as the modes see it. */
export interface RunExtensions {
  registries: ExtensionRegistries;
  /** Present when extensions were found and started (the current one, after a reload). */
  readonly host: ExtensionHost | undefined;
  /** `Failed to load extension "<path>": <error>` (and paths that do not exist), as upstream words them. */
  loadErrors: string[];
  /** Registration problems worth a line (conflicts, refused shortcuts). */
  warnings: string[];
  /** Each extension's process and state (`/extensions`, RPC `get_extensions`). */
  status(): ExtensionStatus[];
  /**
   * Extension errors raised while pig started (a provider config refused), once: the mode
   * reports them as the session's `extension_error` after it has subscribed to the session.
   */
  drainStartupErrors(): Array<{ extensionPath: string; event: string; error: string }>;
  /** The mode's UI: dialogs and notices go there from now on. */
  bindUi(ui: ExtensionUI): void;
  /**
   * Where pig's own notices about extensions go from now on (a built-in tool replaced, a
   * provider with the user's credentials pointed elsewhere); the ones raised before come first.
   */
  bindNotices(sink: (text: string) => void): void;
  /** ctx.shutdown() from an extension: the mode says what it means (default: nothing). */
  onShutdownRequest(handler: () => void): void;
  /**
   * Stops the extensions and starts them again for the same session (/reload, ctx.reload()).
   * With a choice (a Piglet switch), the extensions found are that choice's from now on — in a
   * run that started with none, this is when the host starts.
   */
  reload(choice?: ExtensionChoice): Promise<ExtensionReload>;
  /** The resource paths the extensions gave at the latest `resources_discover` (after session_start). */
  discoveredPaths(): DiscoveredPaths;
  /** Told after each reload (the interactive mode resolves shortcuts again). */
  onReload(listener: (result: ExtensionReload) => void): void;
  /** Tells the extensions the session is ending, then stops their processes. */
  shutdown(reason?: "quit" | "reload"): Promise<void>;
}

export interface ExtensionRegistrations {
  /** Tools the extensions registered; offered like the built-ins, a same-named one replacing it. */
  tools: AddedTool[];
  /** The extensions' handlers behind the agent's one hook interface. */
  hooks: AgentHooks;
  extensions: RunExtensions;
  /** Once the session exists: extensions see it, hear of its events, and have set up for it. */
  attach(session: AgentSession, reason?: "startup" | "reload"): Promise<void>;
}

/** Extensions started before trust was decided, to ask `project_trust` (project-trust-stage.ts). */
export interface EarlyExtensions {
  launch: ExtensionLaunch;
  host: ExtensionHost;
  /** The ids it runs, in load order. */
  ids: string[];
}

export async function startExtensions(input: ExtensionStageInput, early?: EarlyExtensions, given?: ExtensionLaunch): Promise<ExtensionRegistrations> {
  const registries = input.choice.registries ?? createRegistries();
  let choice = input.choice;
  const discover = () => discoverExtensions(discoveryOptions({ ...input, choice }));
  const found = discover();
  // The host asked about trust runs on when it holds exactly the extensions this run loads.
  const sameAsEarly = early !== undefined && early.launch.input.cwd === input.cwd && sameIds(early.ids, found.sources.map((s) => s.id));
  if (early && !sameAsEarly) await early.host.stop();
  // A project's value wins, as for any settings object (merged one level deep).
  const timeouts = { ...input.userSettings.extensionTimeouts, ...input.projectSettings.extensionTimeouts };
  const launch =
    given ??
    (sameAsEarly && early
      ? early.launch
      : new ExtensionLaunch({
          choice: input.choice,
          cwd: input.cwd,
          agentDir: input.agentDir,
          interactive: input.interactive,
          env: input.env,
          credentials: () => input.models.credentialVars(),
          eventMs: timeouts.eventMs,
        }));
  const { ui, port } = launch;
  const reloadListeners: Array<(result: ExtensionReload) => void> = [];
  const none: RunExtensions = {
    registries,
    host: undefined,
    loadErrors: [...found.errors],
    warnings: [],
    status: () => [],
    drainStartupErrors: () => [],
    bindUi: (next) => ui.bind(next),
    bindNotices: (sink) => launch.notices.bind(sink),
    onShutdownRequest: (handler) => launch.onShutdownRequest(handler),
    reload: async () => ({ loaded: [], loadErrors: [], warnings: [] }),
    discoveredPaths: () => ({ skillPaths: [], promptPaths: [], themePaths: [] }),
    onReload: (listener) => reloadListeners.push(listener),
    shutdown: async () => {},
  };
  let session: AgentSession | undefined;
  if (found.sources.length === 0) return withoutExtensions();

  /**
   * No extensions at start: no host, and the session runs without hooks. A choice given later
   * (a Piglet switch) that finds some starts them then, on the same launch (UI, errors) and
   * registries, with the session's hooks pointed at them; from then on they are the run's.
   */
  function withoutExtensions(): ExtensionRegistrations {
    let active: RunExtensions | undefined;
    const lateStart = async (next: ExtensionChoice): Promise<ExtensionReload> => {
      choice = next;
      const again = discover();
      if (again.sources.length === 0) return { loaded: [], loadErrors: [...again.errors], warnings: [] };
      const started = await startExtensions({ ...input, choice: { ...next, registries } }, undefined, launch);
      active = started.extensions;
      active.onReload((result) => {
        for (const listener of reloadListeners) listener(result);
      });
      if (session) {
        session.setHooks(started.hooks);
        await started.attach(session, "reload");
      }
      const result: ExtensionReload = { loaded: again.sources.map((s) => s.id), loadErrors: [...active.loadErrors], warnings: [...active.warnings] };
      for (const listener of reloadListeners) listener(result);
      return result;
    };
    const late: RunExtensions = {
      ...none,
      get host() {
        return active?.host;
      },
      get loadErrors() {
        return active ? active.loadErrors : none.loadErrors;
      },
      get warnings() {
        return active ? active.warnings : none.warnings;
      },
      status: () => active?.status() ?? [],
      drainStartupErrors: () => active?.drainStartupErrors() ?? [],
      reload: (next) => (active ? active.reload(next) : next ? lateStart(next) : none.reload()),
      discoveredPaths: () => active?.discoveredPaths() ?? none.discoveredPaths(),
      shutdown: async (reason) => active?.shutdown(reason),
    };
    return {
      tools: [],
      hooks: NO_HOOKS,
      extensions: late,
      attach: async (attached) => {
        session = attached;
      },
    };
  }

  const reportError = (report: { extensionPath: string; event: string; error: string; stack?: string }) => launch.reportError(report);
  launch.reload = async () => {
    await extensions.reload();
  };
  const start = (sources: readonly ExtensionSource[]) => launch.start(sources);

  let host = sameAsEarly && early ? early.host : await start(found.sources);
  let ids = found.sources.map((s) => s.id);
  const install = () => installHost(host, ids, { registries, models: input.models, report: reportError, notices: launch.notices, modelsChanged: () => session?.refreshModel() });
  let installed: Installed = install();
  let reloading: Promise<ExtensionReload> | undefined;
  let discovered: DiscoveredPaths = { skillPaths: [], promptPaths: [], themePaths: [] };
  // Every extension's answer, in load order; a malformed list is left out.
  const discoverResources = async (reason: "startup" | "reload") => {
    const next: DiscoveredPaths = { skillPaths: [], promptPaths: [], themePaths: [] };
    for (const { value } of await host.ask("resources_discover", { cwd: input.cwd, reason })) {
      const answer = (value ?? {}) as Record<string, unknown>;
      for (const key of ["skillPaths", "promptPaths", "themePaths"] as const) {
        const list = answer[key];
        if (Array.isArray(list)) next[key].push(...list.filter((p): p is string => typeof p === "string" && p.length > 0));
      }
    }
    discovered = next;
  };
  // The command line's values of the extensions' flags, once every extension registered its own.
  const applyFlagValues = () => {
    if (choice.flagValues) port.setFlagValues(choice.flagValues(registries.flags));
  };
  try {
    applyFlagValues();
  } catch (error) {
    await host.shutdown();
    throw error;
  }

  const reloadNow = async (next?: ExtensionChoice): Promise<ExtensionReload> => {
    if (next) choice = next;
    installed.uninstall();
    await host.shutdown("reload");
    const again = discover();
    host = await start(again.sources);
    ids = again.sources.map((s) => s.id);
    installed = install();
    const warnings = [...installed.warnings];
    try {
      applyFlagValues();
    } catch (error) {
      // The command line was accepted at start; an extension that no longer has a flag given there is said, not fatal.
      warnings.push(error instanceof Error ? error.message : String(error));
    }
    if (session) {
      installed.attachTools(session.toolRegistry);
      host.sendStateNow();
      await host.ask("session_start", { reason: "reload" });
      await discoverResources("reload");
    }
    const result: ExtensionReload = { loaded: [...ids], loadErrors: [...again.errors, ...host.loadErrors], warnings };
    for (const listener of reloadListeners) listener(result);
    return result;
  };

  const extensions: RunExtensions = {
    ...none,
    get host() {
      return host;
    },
    loadErrors: [...found.errors, ...host.loadErrors],
    warnings: installed.warnings,
    status: () => host.list(),
    drainStartupErrors: () => launch.drainStartupErrors(),
    reload: async (next) => {
      // Two reloads asked at once are one; a new choice waits for the one under way.
      if (next) {
        await reloading;
        return (reloading = reloadNow(next).finally(() => (reloading = undefined)));
      }
      reloading ??= reloadNow().finally(() => (reloading = undefined));
      return reloading;
    },
    discoveredPaths: () => discovered,
    shutdown: (reason = "quit") => host.shutdown(reason),
  };
  // Each hook asks whichever host is current.
  const hooksOf = new WeakMap<ExtensionHost, AgentHooks>();
  const current = (): AgentHooks => {
    let hooks = hooksOf.get(host);
    if (!hooks) hooksOf.set(host, (hooks = host.hooks()));
    return hooks;
  };
  const hooks = Object.fromEntries(
    Object.keys(NO_HOOKS).map((name) => [name, (...args: unknown[]) => (current()[name as keyof AgentHooks] as (...a: unknown[]) => unknown)(...args)]),
  ) as unknown as AgentHooks;
  return {
    tools: host.toolsWithOwners().map(({ tool, extension }) => ({ tool, source: { kind: "extension" as const, path: extension } })),
    hooks,
    extensions,
    async attach(attached, reason = "startup") {
      session = attached;
      launch.session = attached;
      port.bind(attached);
      // A tool registered later (from session_start, a command, …) joins the run's tools at once.
      installed.attachTools(attached.toolRegistry, true);
      attached.setCommands({
        match(text) {
          const matched = registries.commands.match(text);
          return matched ? () => matched.run({ ui, hasUI: ui.hasUI }) : undefined;
        },
      });
      const target = {
        ask: (event: string, payload: unknown) => host.ask(event, payload),
        notify: (event: string, payload: unknown) => host.notify(event, payload),
        sendStateNow: () => host.sendStateNow(),
      };
      host.sendStateNow();
      await forwardSessionEvents(attached, target, reason);
      await discoverResources(reason);
    },
  };
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}
