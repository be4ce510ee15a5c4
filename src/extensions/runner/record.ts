/**
 * What one extension registered, and what of it the host has not been told yet. Several
 * extensions share a runner process; each has its own record, so each registers and fails on
 * its own.
 */
import type { ExtensionHandler, RegisteredCommand, ToolDefinition, ToolRendererResolver, VirtualModelDefinition } from "../api/types.ts";
import type { CommandSpec, FlagSpec, ProviderSpec, RegisterParams, ShortcutSpec, ToolSpec, VirtualModelSpec } from "../protocol.ts";

/** A virtual model's `route`, kept here: the host asks it with `virtualModel.route`. */
export type VirtualModelRoute = VirtualModelDefinition["route"];

export interface ShortcutEntry {
  description?: string;
  handler: (ctx: never) => unknown;
}

export interface FlagEntry {
  type: "boolean" | "string";
  description?: string;
  default?: boolean | string;
}

export class ExtensionRecord {
  readonly tools = new Map<string, ToolDefinition>();
  readonly commands = new Map<string, Omit<RegisteredCommand, "name">>();
  readonly shortcuts = new Map<string, ShortcutEntry>();
  readonly flags = new Map<string, FlagEntry>();
  readonly providers = new Map<string, Record<string, unknown>>();
  /** Routers of the virtual models, by `provider/id`. */
  readonly virtualModels = new Map<string, VirtualModelRoute>();
  /** `pi.registerMcpServer`: this extension's servers, by name. */
  readonly mcpServers = new Map<string, Record<string, unknown>>();
  readonly handlers = new Map<string, ExtensionHandler[]>();
  /** `registerToolRenderer`'s resolvers, in registration order (pig draws no TUI components). */
  readonly toolRenderers: ToolRendererResolver[] = [];
  /** False while the factory runs: Pi's action methods refuse to work then. */
  active = false;
  /** Set once the first `register` went out; later registrations are sent as they happen. */
  announced = false;
  /** One notice per extension about TUI-only calls. */
  tuiNoticeShown = false;
  private pending: Registrations = empty();

  constructor(
    readonly id: string,
    readonly path: string,
  ) {}

  get name(): string {
    return this.path.split("/").pop() ?? this.path;
  }

  addTool(spec: ToolSpec): void {
    this.pending.tools.push(spec);
  }
  addCommand(spec: CommandSpec): void {
    this.pending.commands.push(spec);
  }
  addShortcut(spec: ShortcutSpec): void {
    this.pending.shortcuts.push(spec);
  }
  addFlag(spec: FlagSpec): void {
    this.pending.flags.push(spec);
  }
  addProvider(spec: ProviderSpec): void {
    this.pending.providers.push(spec);
  }
  addVirtualModel(spec: VirtualModelSpec): void {
    this.pending.virtualModels.push(spec);
  }
  addMcpServer(name: string, config: Record<string, unknown> | null): void {
    this.pending.mcpServers.push({ name, config });
  }
  addRenderer(customType: string): void {
    this.pending.renderers.push(customType);
  }
  addEvent(name: string): void {
    if (!this.pending.events.includes(name)) this.pending.events.push(name);
  }

  /** The registrations not sent yet, or undefined when there are none. */
  takePending(): RegisterParams | undefined {
    const p = this.pending;
    this.pending = empty();
    const any = Object.values(p).some((list: unknown[]) => list.length > 0);
    return any || !this.announced ? { extension: this.id, ...p } : undefined;
  }
}

interface Registrations {
  tools: ToolSpec[];
  commands: CommandSpec[];
  shortcuts: ShortcutSpec[];
  flags: FlagSpec[];
  providers: ProviderSpec[];
  renderers: string[];
  events: string[];
  virtualModels: VirtualModelSpec[];
  mcpServers: { name: string; config: Record<string, unknown> | null }[];
}

function empty(): Registrations {
  return { tools: [], commands: [], shortcuts: [], flags: [], providers: [], renderers: [], events: [], virtualModels: [], mcpServers: [] };
}
