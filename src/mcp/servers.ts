/**
 * The run's MCP servers: those of the `mcp.json` files and those extensions register, each with
 * its connection, and their tools in the run's tool registry. Every enabled server connects in
 * the background at start; the first prompt waits for them up to a bound (as upstream waits for
 * servers whose tools are declared), later ones do not. Problems (bad entries, servers that
 * failed or need a sign-in) are told once, after the start. Enabling and disabling a server is
 * saved in the file that defines it (for a registered server: for this run).
 */
import type { AnyTool } from "../tools/types.ts";
import type { ClientInfo } from "./client.ts";
import { loadMcpConfig, saveServerEnabled, validateServerEntry, type ConfiguredServer, type McpExposure } from "./config.ts";
import { McpServerConnection } from "./connection.ts";
import type { LaunchContext } from "./launch.ts";
import { mcpNamespace, mcpToolName } from "./naming.ts";
import { MCP_SERVERS_SECTION, renderServersSection } from "./servers-section.ts";
import { mcpTool } from "./tool.ts";
import { serverNamespace } from "./tool-shape.ts";
import { signInHint } from "./oauth/server.ts";

/** Where the servers' tools go: the run's tool registry. */
export interface McpToolSink {
  register(tool: AnyTool, server: string): void;
  unregister(name: string): void;
  /** Activates the run's tool of this name (`tool_search`), when it has one. */
  activate(name: string): void;
}

export interface RegisteredServer {
  name: string;
  config: unknown;
  extensionPath: string;
}

export interface McpServersOptions {
  agentDir: string;
  cwd: string;
  trusted: boolean;
  launch: LaunchContext;
  info: ClientInfo;
  tools: McpToolSink;
  /** Tells the user something once (through the run's notices). */
  report(text: string): void;
}

export interface ServerEntry extends ConfiguredServer {
  enabled: boolean;
  /** A registered server's config as registered (JSON), to tell a new registration from the same one. */
  registeredAs?: string;
  connection?: McpServerConnection;
  ready?: Promise<void>;
}

export interface ServerRow {
  name: string;
  /** `connected · 3 tools`, `failed: …`, `disabled`, … */
  state: string;
  enabled: boolean;
  exposure: McpExposure;
  scope: ServerEntry["scope"];
  source: string;
  toolNames: string[];
  error?: string;
  stderr?: string;
}

/** What the first prompt waits for servers at most (upstream's bound). */
export const STARTUP_WAIT_MS = 10_000;

export class McpServers {
  private entries: ServerEntry[] = [];
  private configErrors: string[] = [];
  /** Registered servers a file's server of the same name hides. */
  private overridden: string[] = [];
  /** Each registered tool name and the server tool it stands for. */
  private readonly owners = new Map<string, { server: string; tool: string }>();
  private waitedForStartup = false;
  private closed = false;

  constructor(private readonly options: McpServersOptions) {}

  /** Reads the files and connects every enabled server in the background; problems are told once, after. */
  start(registered: readonly RegisteredServer[] = []): void {
    const { agentDir, cwd, trusted } = this.options;
    const loaded = loadMcpConfig(agentDir, cwd, trusted);
    this.configErrors = loaded.errors;
    this.entries = loaded.servers.map((server) => ({ ...server, enabled: server.config.enabled !== false }));
    this.addRegistered(registered);
    this.activateToolSearch();
    const starting = this.entries.filter((e) => e.enabled).map((e) => this.connect(e));
    void Promise.all(starting).then(() => this.reportProblems(undefined));
  }

  /** Exposures the server's tools can have, known from its entry before it connects. */
  private configuredExposures(entry: Pick<ServerEntry, "config">): Set<McpExposure> {
    return new Set([entry.config.exposure ?? "codemode", ...Object.values(entry.config.toolExposure ?? {})]);
  }

  /** Servers with `deferred` tools need `tool_search` to be reached: it is activated for them, as upstream does. */
  private activateToolSearch(): void {
    if (this.entries.some((e) => e.enabled && this.configuredExposures(e).has("deferred"))) this.options.tools.activate("tool_search");
  }

  /** Sets the system prompt's `mcp_servers` section (the enabled servers with `deferred` tools) in `sections`; false when there is none. */
  addServersSection(sections: Record<string, string>): boolean {
    const listed = this.entries.filter((e) => e.enabled && this.configuredExposures(e).has("deferred"));
    const section = renderServersSection(listed.map((e) => ({ name: e.name, description: e.config.description, instructions: e.connection?.instructions })));
    if (section === undefined) return false;
    sections[MCP_SERVERS_SECTION] = section;
    return true;
  }

  /** The servers extensions registered now: new ones connect, dropped ones close. Returns the registration errors. */
  setRegistered(registered: readonly RegisteredServer[]): string[] {
    // A server gone, or registered again with another config, is closed (and then connected anew).
    const now = new Map(registered.map((r) => [r.name, JSON.stringify(r.config)]));
    for (const entry of this.entries.filter((e) => e.scope === "extension" && now.get(e.name) !== e.registeredAs)) void this.remove(entry);
    const before = new Set(this.entries.map((e) => e.name));
    const errors = this.addRegistered(registered.filter((r) => !before.has(r.name)));
    const added = this.entries.filter((e) => !before.has(e.name) && e.enabled);
    this.activateToolSearch();
    void Promise.all(added.map((e) => this.connect(e))).then(() => this.reportProblems(added));
    return errors;
  }

  private addRegistered(registered: readonly RegisteredServer[]): string[] {
    const errors: string[] = [];
    for (const server of registered) {
      const existing = this.entries.find((e) => e.name === server.name || mcpNamespace(e.name) === mcpNamespace(server.name));
      if (existing && existing.scope !== "extension") {
        this.overridden.push(`${server.name} (registered by ${server.extensionPath}; ${existing.source} defines it)`);
        continue;
      }
      if (existing) continue;
      const config = validateServerEntry(server.name, server.config);
      if (typeof config === "string") {
        errors.push(`${server.extensionPath}: ${config}`);
        continue;
      }
      this.entries.push({ name: server.name, config, scope: "extension", source: server.extensionPath, enabled: config.enabled !== false, registeredAs: JSON.stringify(server.config) });
    }
    return errors;
  }

  private connect(entry: ServerEntry): Promise<void> {
    const connection = new McpServerConnection(entry.name, entry.config, this.options.launch, this.options.info, {
      tools: (c) => this.syncTools(c),
      state: (c) => {
        if (c.state !== "connected" && c.state !== "connecting" && c.state !== "disconnected") this.syncTools(c);
      },
    });
    entry.connection = connection;
    entry.ready = connection.start();
    return entry.ready;
  }

  private exposureOf(entry: Pick<ServerEntry, "config">, tool: string): McpExposure {
    const overrides = entry.config.toolExposure ?? {};
    const exact = overrides[tool];
    if (exact !== undefined) return exact;
    for (const [pattern, exposure] of Object.entries(overrides)) {
      if (!pattern.includes("*")) continue;
      const source = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
      if (new RegExp(`^${source}$`).test(tool)) return exposure;
    }
    return entry.config.exposure ?? "codemode";
  }

  /** The server's tools in the registry as it lists them now: new ones added, withdrawn ones removed; hidden ones never. */
  private syncTools(connection: McpServerConnection): void {
    const entry = this.entries.find((e) => e.connection === connection);
    const wanted = entry && connection.state === "connected" ? connection.tools.filter((t) => this.exposureOf(entry, t.name) !== "hidden") : [];
    for (const [name, owner] of [...this.owners]) {
      if (owner.server !== connection.name) continue;
      if (wanted.some((t) => t.name === owner.tool)) continue;
      this.owners.delete(name);
      this.options.tools.unregister(name);
    }
    for (const tool of wanted) {
      const known = [...this.owners].find(([, o]) => o.server === connection.name && o.tool === tool.name)?.[0];
      const name = known ?? mcpToolName(connection.name, tool.name, (candidate) => this.owners.has(candidate));
      this.owners.set(name, { server: connection.name, tool: tool.name });
      const namespace = serverNamespace(connection.name, entry?.config.description, connection.instructions);
      this.options.tools.register(mcpTool({ name, exposure: this.exposureOf(entry!, tool.name), namespace }, connection, tool), connection.name);
    }
  }

  /**
   * Waits (once, for the first prompt) until the enabled servers with declared tools (`direct`,
   * and `codemode` which pig declares) are connected or failed, at most `ms`, so the first
   * request declares their tools; false when some were still connecting.
   */
  async waitForStartup(signal?: AbortSignal, ms = STARTUP_WAIT_MS): Promise<boolean> {
    if (this.waitedForStartup) return true;
    this.waitedForStartup = true;
    const declared = (e: ServerEntry) => {
      const exposures = this.configuredExposures(e);
      return exposures.has("direct") || exposures.has("codemode");
    };
    const ready = this.entries.flatMap((e) => (e.enabled && declared(e) && e.ready ? [e.ready] : []));
    if (ready.length === 0) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const finished = await Promise.race([
      Promise.all(ready).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
        onAbort = () => resolve(true);
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    if (!finished) this.options.report("MCP servers are still connecting; their tools become available once connected.");
    return finished;
  }

  private reportProblems(only: readonly ServerEntry[] | undefined): void {
    if (this.closed) return;
    const lines = only ? [] : this.configErrors.map((error) => `config: ${error}`);
    for (const entry of only ?? this.entries) {
      const state = entry.connection?.state;
      if (state !== "failed" && state !== "needs-sign-in") continue;
      if (state === "needs-sign-in") {
        lines.push(`${entry.name}: ${this.describe(entry)}: ${signInHint(entry.name)}`);
        continue;
      }
      // The last line a stdio server wrote is most often why it stopped.
      const said = entry.connection?.stderr?.trim().split("\n").at(-1);
      lines.push(`${entry.name}: ${this.describe(entry)}${said ? ` (stderr: ${said})` : ""}`);
    }
    if (lines.length > 0) this.options.report(`MCP servers need attention:\n${lines.join("\n")}`);
  }

  find(name: string): ServerEntry | undefined {
    return this.entries.find((e) => e.name === name);
  }

  describe(entry: ServerEntry): string {
    if (!entry.enabled) return "disabled";
    const connection = entry.connection;
    if (!connection) return "starting";
    switch (connection.state) {
      case "connected":
        return `connected · ${connection.tools.length} tool${connection.tools.length === 1 ? "" : "s"}`;
      case "failed":
        return `failed: ${(connection.error ?? "unknown error").split("\n", 1)[0]}`;
      case "needs-sign-in":
        return "needs sign-in";
      case "connecting":
        return "connecting…";
      case "disconnected":
        return "disconnected, reconnects on next call";
      case "closed":
        return "closed";
    }
  }

  rows(): ServerRow[] {
    return this.entries.map((entry) => {
      const connection = entry.connection;
      const failed = connection && connection.state !== "connected" && connection.state !== "connecting" ? connection : undefined;
      return {
        name: entry.name,
        state: this.describe(entry),
        enabled: entry.enabled,
        exposure: entry.config.exposure ?? "codemode",
        scope: entry.scope,
        source: entry.override ?? entry.source,
        toolNames: [...this.owners].filter(([, o]) => o.server === entry.name).map(([name]) => name),
        ...(failed?.error ? { error: failed.error } : {}),
        ...(failed?.stderr ? { stderr: failed.stderr } : {}),
      };
    });
  }

  /** `/mcp` without arguments outside the interactive mode: one line a server, errors indented under it. */
  statusText(): string {
    if (this.entries.length === 0 && this.configErrors.length === 0 && this.overridden.length === 0) {
      return "No MCP servers configured. Add them to mcp.json in the agent directory or .pig/mcp.json in a trusted project.";
    }
    const lines = this.rows().map((row) => {
      const details = [row.error, row.stderr ? `stderr: ${row.stderr}` : undefined].filter((x): x is string => x !== undefined && row.state !== row.error);
      const indented = details.map((d) => `\n    ${d.split("\n").join("\n    ")}`).join("");
      return `${row.name}: ${row.state} (${row.scope}: ${row.source})${indented}`;
    });
    for (const error of this.configErrors) lines.push(`config error: ${error}`);
    for (const line of this.overridden) lines.push(`overridden: ${line}`);
    return lines.join("\n");
  }

  /** Waits for the enabled servers under way, unless `signal` ends first (`tool_search` searches their tools). */
  async enabledSettled(signal?: AbortSignal): Promise<void> {
    const ready = this.entries.flatMap((e) => (e.enabled && e.ready ? [e.ready] : []));
    if (ready.length === 0 || signal?.aborted) return;
    let onAbort = () => {};
    await new Promise<void>((resolve) => {
      onAbort = () => resolve();
      signal?.addEventListener("abort", onAbort, { once: true });
      void Promise.all(ready).then(() => resolve());
    });
    signal?.removeEventListener("abort", onAbort);
  }

  /** Waits for every connection under way (`/mcp` reports settled states). */
  async settled(): Promise<void> {
    await Promise.all(this.entries.map((e) => e.ready));
  }

  /** Enables or disables a server (saved in its file; a registered one for this run) and connects or closes it. */
  async setEnabled(name: string, enabled: boolean): Promise<string> {
    const entry = this.find(name);
    if (!entry) return `No MCP server named "${name}".`;
    if (entry.enabled === enabled) return `MCP server "${name}" is already ${enabled ? "enabled" : "disabled"}.`;
    if (entry.scope !== "extension") saveServerEnabled(entry.override ?? entry.source, name, enabled);
    entry.enabled = enabled;
    if (enabled) this.activateToolSearch();
    if (!enabled) {
      await this.closeEntry(entry);
      return `Disabled MCP server "${name}".`;
    }
    await this.connect(entry);
    return `Enabled MCP server "${name}" (${this.describe(entry)}).`;
  }

  async reconnect(name: string): Promise<string> {
    const entry = this.find(name);
    if (!entry) return `No MCP server named "${name}".`;
    if (!entry.enabled) return `MCP server "${name}" is disabled.`;
    await this.closeEntry(entry);
    await this.connect(entry);
    const state = entry.connection?.state;
    return state === "connected" ? `Reconnected to MCP server "${name}" (${this.describe(entry)}).` : `MCP server "${name}": ${this.describe(entry)}`;
  }

  private async closeEntry(entry: ServerEntry): Promise<void> {
    const connection = entry.connection;
    entry.connection = undefined;
    entry.ready = undefined;
    if (!connection) return;
    await connection.close();
    this.syncTools(connection);
  }

  private async remove(entry: ServerEntry): Promise<void> {
    this.entries = this.entries.filter((e) => e !== entry);
    await this.closeEntry(entry);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.entries.map((e) => this.closeEntry(e)));
  }
}
