/**
 * Every tool pig knows (built-in, added by a program through the SDK, registered by an
 * extension) and the ones active now — the tools the model is told of and may call. The next
 * prompt declares whatever is active then (session/system-messages.ts compares it with what the
 * transcript declared). `--tools` / `--no-tools` keep their say over tools that arrive later.
 */
import type { AnyTool, ToolExposure } from "../tools/types.ts";

export function exposureOf(tool: AnyTool): ToolExposure {
  return tool.exposure ?? "direct";
}

/** Whether activating the tool declares it to the model (upstream: `direct` and `model-only`). */
export function isDeclarable(tool: AnyTool): boolean {
  const exposure = exposureOf(tool);
  return exposure === "direct" || exposure === "model-only";
}

/** Whether registering the tool activates it: declarable, unless it says `defaultActive: false`. */
export function activatesOnRegistration(tool: AnyTool): boolean {
  return isDeclarable(tool) && tool.defaultActive !== false;
}

export type ToolSource = { kind: "builtin" } | { kind: "sdk" } | { kind: "extension"; path: string } | { kind: "mcp"; server: string };

export interface RegisteredTool {
  tool: AnyTool;
  source: ToolSource;
}

export interface ToolLimits {
  /** `--tools a,b`: only these names may ever be active. */
  allowlist?: readonly string[];
  /** `--no-tools`: a tool registered later is not activated by registering it. */
  noTools?: boolean;
  /** `--exclude-tools`: never activated by registering. */
  exclude?: readonly string[];
  /** The `defaultTools` setting (no `--tools`): a declarable tool named there is activated by registering even with `defaultActive: false`. */
  named?: readonly string[];
}

export type ToolsChange = { kind: "registered" | "unregistered" | "activated"; names: string[] };

export class ToolRegistry {
  private readonly known = new Map<string, RegisteredTool>();
  private activeNames: string[];
  private readonly listeners = new Set<(change: ToolsChange) => void>();

  constructor(tools: readonly RegisteredTool[], active: readonly AnyTool[], private limits: ToolLimits = {}) {
    for (const entry of tools) this.known.set(entry.tool.name, entry);
    for (const tool of active) if (!this.known.has(tool.name)) this.known.set(tool.name, { tool, source: { kind: "builtin" } });
    this.activeNames = active.map((tool) => tool.name);
  }

  /** Every known tool, in registration order, with where it came from. */
  all(): RegisteredTool[] {
    return [...this.known.values()];
  }

  get(name: string): RegisteredTool | undefined {
    return this.known.get(name);
  }

  /** The active tools, in the order they were activated. */
  get active(): readonly AnyTool[] {
    return this.activeNames.map((name) => this.known.get(name)!.tool);
  }

  get activeToolNames(): readonly string[] {
    return this.activeNames;
  }

  private allowed(name: string): boolean {
    const list = this.limits.allowlist;
    if (list === undefined) return true;
    // Upstream 1.x: `--tools` leaves MCP tools alone unless an entry names some (`mcp__radius__*`).
    if (isMcpToolName(name) && !list.some(isMcpToolName)) return true;
    return list.some((entry) => namePatternMatches(entry, name));
  }

  private excluded(name: string): boolean {
    return (this.limits.exclude ?? []).some((entry) => namePatternMatches(entry, name));
  }

  /**
   * Adds `tool` (a tool of the same name is replaced, as an extension's tool replaces a
   * built-in) and activates it unless its exposure, `defaultActive` or the limits keep it out.
   * Activity of a replaced name stays, except that a tool replaced by a `hidden` one is withdrawn
   * and one that becomes declarable (from `hidden`, say) is activated like a new tool.
   */
  register(tool: AnyTool, source: ToolSource): void {
    const previous = this.known.get(tool.name)?.tool;
    this.known.set(tool.name, { tool, source });
    if (exposureOf(tool) === "hidden") this.activeNames = this.activeNames.filter((n) => n !== tool.name);
    else if ((!previous || !activatesOnRegistration(previous)) && this.activatesNow(tool) && !this.activeNames.includes(tool.name)) this.activeNames.push(tool.name);
    this.emit({ kind: "registered", names: [tool.name] });
  }

  /** Whether registering `tool` now activates it, under the limits. */
  activatesNow(tool: AnyTool): boolean {
    if (!isDeclarable(tool) || this.excluded(tool.name)) return false;
    // Naming a tool (`--tools`, the `defaultTools` setting) activates it even when it is not active by default.
    if (this.limits.allowlist?.some((entry) => namePatternMatches(entry, tool.name)) || this.limits.named?.includes(tool.name)) return true;
    return tool.defaultActive !== false && !this.limits.noTools && this.allowed(tool.name);
  }

  /**
   * The tools another tool may run (`ctx.executeTool`): the active `direct` ones and every
   * `codemode` or `deferred` one, active or not (upstream Pi 1.x).
   */
  callable(): AnyTool[] {
    return this.all()
      .map((entry) => entry.tool)
      .filter((tool) => {
        const exposure = exposureOf(tool);
        return exposure === "codemode" || exposure === "deferred" || (exposure === "direct" && this.activeNames.includes(tool.name));
      });
  }

  /** Forgets `name` (and deactivates it); false when it was not known. */
  unregister(name: string): boolean {
    if (!this.known.delete(name)) return false;
    this.activeNames = this.activeNames.filter((n) => n !== name);
    this.emit({ kind: "unregistered", names: [name] });
    return true;
  }

  /** Makes exactly these tools active, in this order; unknown and `hidden` names and names the allowlist excludes are ignored. */
  setActive(names: readonly string[]): void {
    const next: string[] = [];
    for (const name of names) {
      const tool = this.known.get(name)?.tool;
      if (tool && exposureOf(tool) !== "hidden" && this.allowed(name) && !next.includes(name)) next.push(name);
    }
    this.activeNames = next;
    this.emit({ kind: "activated", names: next });
  }

  /** Replaces the limits (a switch of Piglet), then makes exactly `active` active under them. */
  setLimits(limits: ToolLimits, active: readonly string[]): void {
    this.limits = limits;
    this.setActive(active);
  }

  /** Told of every change; returns the unsubscribe. */
  onChange(listener: (change: ToolsChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: ToolsChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** MCP servers' tools are named `mcp__<server>__<tool>`. */
function isMcpToolName(name: string): boolean {
  return name.startsWith("mcp__");
}

/** An exact name, or an MCP pattern whose `*` matches any characters (`mcp__radius__*`). */
function namePatternMatches(entry: string, name: string): boolean {
  if (entry === name) return true;
  if (!isMcpToolName(entry) || !entry.includes("*")) return false;
  const source = entry
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(name);
}
