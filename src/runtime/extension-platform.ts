/**
 * The extension platform of one run, in explicit states. `none`: no extensions were found, no
 * host runs and the session has no hooks. `late`: none at start, then a choice given later (a
 * Piglet switch) found some and started them on the same launch and registries, the session's
 * hooks pointed at them; its start is told to the reload listeners, as a reload is. `started`: a
 * host runs the extensions found at start. From then on a late platform behaves as a started one.
 *
 * `/reload` (and `ctx.reload()`) replaces the host, not the platform: the extensions hear
 * `session_shutdown {reason:"reload"}`, their processes stop, they are found and started again
 * for the same session, their new registrations replace the old, and they hear
 * `session_start {reason:"reload"}`. The session's hooks and event forwarding point at whichever
 * host is current, so nothing else has to be rebuilt.
 */
import { NO_HOOKS, type AgentHooks } from "../agent/hooks.ts";
import type { AgentSession } from "../agent/session.ts";
import { discoverExtensions, type DiscoveryResult } from "../extensions/discovery.ts";
import { discoveryOptions } from "../extensions/discovery-options.ts";
import type { ExtensionHost, ExtensionStatus } from "../extensions/host/host.ts";
import type { ExtensionRegistries } from "../extensions/registries.ts";
import type { ExtensionUI } from "../extensions/ui.ts";
import { startChain } from "../util/combine.ts";
import { combinatorOf } from "../util/extension-events.ts";
import type { ExtensionChoice } from "./config.ts";
import { forwardSessionEvents } from "./extension-events.ts";
import { installHost, type Installed } from "./extension-install.ts";
import type { ExtensionLaunch } from "./extension-launch.ts";
import type { DiscoveredPaths, ExtensionReload, ExtensionStageInput, RunExtensions } from "./run-extensions.ts";
import type { AddedTool } from "./tools-stage.ts";

/** A host running the run's extensions, with what it put where the rest of pig looks. */
interface Running {
  host: ExtensionHost;
  ids: string[];
  installed: Installed;
}

type PlatformState = { kind: "none" } | ({ kind: "late" | "started" } & Running);

const noPaths = (): DiscoveredPaths => ({ skillPaths: [], promptPaths: [], themePaths: [] });

export class ExtensionPlatform implements RunExtensions {
  private state: PlatformState = { kind: "none" };
  private choice: ExtensionChoice;
  private session: AgentSession | undefined;
  private reloading: Promise<ExtensionReload> | undefined;
  private discovered: DiscoveredPaths = noPaths();
  private readonly reloadListeners: Array<(result: ExtensionReload) => void> = [];
  private readonly mcpListeners: Array<() => void> = [];
  /** The extensions' MCP servers as last told (JSON), so only a change is told. */
  private mcpSeen = "[]";
  private readonly hooksOf = new WeakMap<ExtensionHost, AgentHooks>();
  /** Fixed when the extensions start (at start, or late): later reloads say theirs in their result. */
  loadErrors: string[];
  warnings: string[] = [];
  /** Each hook asks whichever host is current. */
  private readonly currentHooks: AgentHooks;

  private constructor(
    private readonly input: ExtensionStageInput,
    readonly registries: ExtensionRegistries,
    private readonly launch: ExtensionLaunch,
    found: DiscoveryResult,
  ) {
    this.choice = input.choice;
    this.loadErrors = [...found.errors];
    this.currentHooks = Object.fromEntries(
      Object.keys(NO_HOOKS).map((name) => [name, (...args: unknown[]) => (this.hostHooks()[name as keyof AgentHooks] as (...a: unknown[]) => unknown)(...args)]),
    ) as unknown as AgentHooks;
  }

  /**
   * The platform for what `found` holds: a host is started for it (or `running`, the host asked
   * about trust, is kept), else the platform starts in `none`. A flag value no extension took
   * stops the host and throws.
   */
  static async start(
    input: ExtensionStageInput,
    registries: ExtensionRegistries,
    launch: ExtensionLaunch,
    found: DiscoveryResult,
    running?: ExtensionHost,
  ): Promise<ExtensionPlatform> {
    const platform = new ExtensionPlatform(input, registries, launch, found);
    if (found.sources.length > 0) await platform.startHost("started", found, running);
    return platform;
  }

  get host(): ExtensionHost | undefined {
    return this.state.kind === "none" ? undefined : this.state.host;
  }

  /** The hooks the session is built with: none until extensions run. */
  get hooks(): AgentHooks {
    return this.state.kind === "none" ? NO_HOOKS : this.currentHooks;
  }

  /** Tools the extensions registered at start; offered like the built-ins, a same-named one replacing it. */
  tools(): AddedTool[] {
    if (this.state.kind === "none") return [];
    return this.state.host.toolsWithOwners().map(({ tool, extension }) => ({ tool, source: { kind: "extension" as const, path: extension } }));
  }

  status(): ExtensionStatus[] {
    return this.state.kind === "none" ? [] : this.state.host.list();
  }

  drainStartupErrors(): Array<{ extensionPath: string; event: string; error: string }> {
    // Until extensions run the errors stay with the launch, for whoever starts them later.
    return this.state.kind === "none" ? [] : this.launch.drainStartupErrors();
  }

  bindUi(ui: ExtensionUI): void {
    this.launch.ui.bind(ui);
  }

  bindNotices(sink: (text: string) => void): void {
    this.launch.notices.bind(sink);
  }

  mcpServers(): Array<{ name: string; config: Record<string, unknown>; extensionPath: string }> {
    return this.state.kind === "none" ? [] : this.state.host.mcpServers();
  }

  onMcpServersChange(listener: () => void): void {
    this.mcpListeners.push(listener);
  }

  /**
   * The extensions' MCP servers changed: once the session exists the extensions hear
   * `mcp_servers_change` with all of them (upstream's event; registrations made while loading
   * are read with `pi.getMcpServers()` at `session_start`), and the run's MCP follows.
   */
  private mcpServersChanged(host: ExtensionHost): void {
    if (this.state.kind === "none" || this.state.host !== host) return;
    const servers = host.mcpServers();
    const text = JSON.stringify(servers);
    if (text === this.mcpSeen) return;
    this.mcpSeen = text;
    if (this.session) host.notify("mcp_servers_change", { servers });
    for (const listener of this.mcpListeners) listener();
  }

  notice(text: string): void {
    this.launch.notices.say(text);
  }

  onShutdownRequest(handler: () => void): void {
    this.launch.onShutdownRequest(handler);
  }

  onReload(listener: (result: ExtensionReload) => void): void {
    this.reloadListeners.push(listener);
  }

  discoveredPaths(): DiscoveredPaths {
    return this.state.kind === "none" ? noPaths() : this.discovered;
  }

  async reload(next?: ExtensionChoice): Promise<ExtensionReload> {
    if (this.state.kind === "none") return next ? this.lateStart(next) : { loaded: [], loadErrors: [], warnings: [] };
    // Two reloads asked at once are one; a new choice waits for the one under way.
    if (next) {
      await this.reloading;
      return (this.reloading = this.reloadNow(next).finally(() => (this.reloading = undefined)));
    }
    this.reloading ??= this.reloadNow().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  async shutdown(reason: "quit" | "reload" = "quit"): Promise<void> {
    if (this.state.kind !== "none") await this.state.host.shutdown(reason);
  }

  /** Once the session exists: extensions see it, hear of its events, and have set up for it. */
  async attach(session: AgentSession, reason: "startup" | "reload" = "startup"): Promise<void> {
    this.session = session;
    if (this.state.kind === "none") return;
    this.launch.session = session;
    this.launch.port.bind(session);
    // A tool registered later (from session_start, a command, …) joins the run's tools at once.
    this.state.installed.attachTools(session.toolRegistry, true);
    const { registries, launch } = this;
    session.setCommands({
      match(text) {
        const matched = registries.commands.match(text);
        return matched ? () => matched.run({ ui: launch.ui, hasUI: launch.ui.hasUI }) : undefined;
      },
    });
    const target = {
      ask: (event: string, payload: unknown) => this.running().host.ask(event, payload),
      notify: (event: string, payload: unknown) => this.running().host.notify(event, payload),
      sendStateNow: () => this.running().host.sendStateNow(),
    };
    this.running().host.sendStateNow();
    await forwardSessionEvents(session, target, reason);
    await this.discoverResources(reason);
  }

  private discover(): DiscoveryResult {
    return discoverExtensions(discoveryOptions({ ...this.input, choice: this.choice }));
  }

  private running(): Running {
    if (this.state.kind === "none") throw new Error("no extension host runs");
    return this.state;
  }

  private hostHooks(): AgentHooks {
    const { host } = this.running();
    let hooks = this.hooksOf.get(host);
    if (!hooks) this.hooksOf.set(host, (hooks = host.hooks()));
    return hooks;
  }

  private install(host: ExtensionHost, ids: string[]): Installed {
    host.onChange(() => this.mcpServersChanged(host));
    return installHost(host, ids, {
      registries: this.registries,
      models: this.input.models,
      report: (report) => this.launch.reportError(report),
      notices: this.launch.notices,
      modelsChanged: () => this.session?.refreshModel(),
    });
  }

  // The command line's values of the extensions' flags, once every extension registered its own.
  private applyFlagValues(): void {
    if (this.choice.flagValues) this.launch.port.setFlagValues(this.choice.flagValues(this.registries.flags));
  }

  /** From `none` to `started` (at start) or `late`; a flag value nobody took stops the host and throws. */
  private async startHost(kind: "late" | "started", found: DiscoveryResult, running?: ExtensionHost): Promise<void> {
    this.launch.reload = async () => {
      await this.reload();
    };
    const host = running ?? (await this.launch.start(found.sources));
    const ids = found.sources.map((s) => s.id);
    const installed = this.install(host, ids);
    try {
      this.applyFlagValues();
    } catch (error) {
      await host.shutdown();
      throw error;
    }
    this.state = { kind, host, ids, installed };
    this.mcpServersChanged(host);
    this.loadErrors = [...found.errors, ...host.loadErrors];
    this.warnings = installed.warnings;
  }

  // Every extension's answer, in load order; what is not a path is left out.
  private async discoverResources(reason: "startup" | "reload"): Promise<void> {
    const chain = startChain(combinatorOf("resources_discover"), { cwd: this.input.cwd, reason });
    for (const { value } of await this.running().host.ask("resources_discover", { cwd: this.input.cwd, reason })) chain.step(value);
    const collected = (chain.result() ?? {}) as Partial<Record<keyof DiscoveredPaths, unknown[]>>;
    const paths = (key: keyof DiscoveredPaths): string[] => (collected[key] ?? []).filter((p): p is string => typeof p === "string" && p.length > 0);
    this.discovered = { skillPaths: paths("skillPaths"), promptPaths: paths("promptPaths"), themePaths: paths("themePaths") };
  }

  /** `none` → `late`: a choice given later that finds extensions starts them, for the session there is. */
  private async lateStart(next: ExtensionChoice): Promise<ExtensionReload> {
    this.choice = { ...next, registries: this.registries };
    const found = this.discover();
    if (found.sources.length === 0) return { loaded: [], loadErrors: [...found.errors], warnings: [] };
    await this.startHost("late", found);
    if (this.session) {
      this.session.setHooks(this.currentHooks);
      await this.attach(this.session, "reload");
    }
    const result: ExtensionReload = { loaded: found.sources.map((s) => s.id), loadErrors: [...this.loadErrors], warnings: [...this.warnings] };
    this.tell(result);
    return result;
  }

  private async reloadNow(next?: ExtensionChoice): Promise<ExtensionReload> {
    if (next) this.choice = next;
    const before = this.running();
    before.installed.uninstall();
    await before.host.shutdown("reload");
    const again = this.discover();
    const host = await this.launch.start(again.sources);
    const ids = again.sources.map((s) => s.id);
    const installed = this.install(host, ids);
    this.state = { kind: this.state.kind === "late" ? "late" : "started", host, ids, installed };
    this.mcpServersChanged(host);
    const warnings = [...installed.warnings];
    try {
      this.applyFlagValues();
    } catch (error) {
      // The command line was accepted at start; an extension that no longer has a flag given there is said, not fatal.
      warnings.push(error instanceof Error ? error.message : String(error));
    }
    if (this.session) {
      installed.attachTools(this.session.toolRegistry);
      host.sendStateNow();
      await host.ask("session_start", { reason: "reload" });
      await this.discoverResources("reload");
    }
    const result: ExtensionReload = { loaded: [...ids], loadErrors: [...again.errors, ...host.loadErrors], warnings };
    this.tell(result);
    return result;
  }

  private tell(result: ExtensionReload): void {
    for (const listener of this.reloadListeners) listener(result);
  }
}
