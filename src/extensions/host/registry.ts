/**
 * What each extension registered, per process generation. A restarted process registers again;
 * its first `register` starts the new generation's record, so nothing of the old one lingers,
 * and until then the old record stays visible (tools keep working names while it restarts).
 * Names are first come, first served across extensions, as in upstream Pi.
 */
import type { CommandSpec, Diagnostic, FlagSpec, ProviderSpec, RegisterParams, ShortcutSpec, ToolSpec, VirtualModelSpec } from "../protocol.ts";

export interface Registration {
  generation: number;
  tools: Map<string, ToolSpec>;
  commands: Map<string, CommandSpec>;
  shortcuts: Map<string, ShortcutSpec>;
  flags: Map<string, FlagSpec>;
  providers: Map<string, ProviderSpec>;
  renderers: Set<string>;
  events: Set<string>;
  /** Virtual models by `provider/id`. */
  virtualModels: Map<string, VirtualModelSpec>;
  mcpServers: Map<string, Record<string, unknown>>;
}

function empty(generation: number): Registration {
  return {
    generation,
    tools: new Map(),
    commands: new Map(),
    shortcuts: new Map(),
    flags: new Map(),
    providers: new Map(),
    renderers: new Set(),
    events: new Set(),
    virtualModels: new Map(),
    mcpServers: new Map(),
  };
}

export class RegistrationStore {
  private readonly byExtension = new Map<string, Registration>();
  private readonly listeners = new Set<() => void>();
  /** Each event's subscribers, asked for on every event a turn sends: made again after a change. */
  private readonly subscribersOf = new Map<string, readonly string[]>();

  /** `order` is the load order; it decides who keeps a contested name. */
  constructor(private readonly order: readonly string[]) {}

  get(extension: string): Registration | undefined {
    return this.byExtension.get(extension);
  }

  /** In load order. */
  entries(): Array<[string, Registration]> {
    const out: Array<[string, Registration]> = [];
    for (const id of this.order) {
      const r = this.byExtension.get(id);
      if (r) out.push([id, r]);
    }
    return out;
  }

  /** Tools and commands a manifest declares before its process runs (generation 0). */
  declare(extension: string, tools: readonly ToolSpec[], commands: readonly CommandSpec[]): void {
    const r = empty(0);
    for (const t of tools) r.tools.set(t.name, t);
    for (const c of commands) r.commands.set(c.name, c);
    this.byExtension.set(extension, r);
    this.changed();
  }

  apply(extension: string, generation: number, params: RegisterParams): Diagnostic[] {
    let r = this.byExtension.get(extension);
    if (!r || r.generation < generation) {
      r = empty(generation);
      this.byExtension.set(extension, r);
    }
    const diagnostics: Diagnostic[] = [];
    for (const t of params.tools) {
      const owner = this.ownerOf("tools", t.name, extension);
      if (owner) diagnostics.push({ type: "error", message: `Tool "${t.name}" conflicts with ${owner}` });
      else r.tools.set(t.name, t);
    }
    for (const f of params.flags) {
      const owner = this.ownerOf("flags", f.name, extension);
      if (owner) diagnostics.push({ type: "error", message: `Flag "--${f.name}" conflicts with ${owner}` });
      else r.flags.set(f.name, f);
    }
    // Commands never conflict (the command registry numbers duplicates); shortcuts are judged
    // by the interactive mode, which knows its reserved keys.
    for (const c of params.commands) r.commands.set(c.name, c);
    for (const s of params.shortcuts) r.shortcuts.set(s.key, s);
    // `unregisterProvider` travels as a registration marked `unregister`.
    for (const p of params.providers) {
      if (p.config.unregister === true) r.providers.delete(p.name);
      else r.providers.set(p.name, p);
    }
    for (const server of params.mcpServers) {
      const owner = server.config === null ? undefined : this.ownerOf("mcpServers", server.name, extension);
      if (owner) diagnostics.push({ type: "error", message: `MCP server "${server.name}" is already registered by extension "${owner}"` });
      else if (server.config === null) r.mcpServers.delete(server.name);
      else r.mcpServers.set(server.name, server.config);
    }
    for (const name of params.renderers) r.renderers.add(name);
    for (const e of params.events) r.events.add(e);
    // As providers: `unregisterVirtualModel` is a registration marked `unregister`.
    for (const m of params.virtualModels ?? []) {
      if (m.unregister === true) r.virtualModels.delete(`${m.provider}/${m.id}`);
      else r.virtualModels.set(`${m.provider}/${m.id}`, m);
    }
    this.changed();
    return diagnostics;
  }

  remove(extension: string): void {
    if (this.byExtension.delete(extension)) this.changed();
  }

  /** In load order; the same list until the registrations change (not to be modified). */
  subscribers(event: string): readonly string[] {
    let ids = this.subscribersOf.get(event);
    if (!ids) {
      ids = this.entries()
        .filter(([, r]) => r.events.has(event))
        .map(([id]) => id);
      this.subscribersOf.set(event, ids);
    }
    return ids;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every extension's MCP servers, in load order. */
  mcpServers(): Array<{ name: string; config: Record<string, unknown>; extensionPath: string }> {
    return this.entries().flatMap(([id, r]) => [...r.mcpServers].map(([name, config]) => ({ name, config, extensionPath: id })));
  }

  private ownerOf(kind: "tools" | "flags" | "mcpServers", name: string, self: string): string | undefined {
    for (const [id, r] of this.byExtension) {
      if (id !== self && r[kind].has(name)) return id;
    }
    return undefined;
  }

  private changed(): void {
    this.subscribersOf.clear();
    for (const l of this.listeners) l();
  }
}
