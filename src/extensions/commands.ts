/**
 * Slash commands that work in every mode: registered by extensions (and listed alongside prompt
 * templates and skills for RPC `get_commands`). Extensions may register the same name more than
 * once; every holder of a repeated name is then invoked as `name:1`, `name:2`, … in load order
 * (upstream 0.73.1+), so none shadows another.
 */
import type { SourceInfo } from "../resources/source-info.ts";
import type { ExtensionUI } from "./ui.ts";

export type CommandSource = "extension" | "prompt" | "skill";

export interface ArgumentCompletion {
  value: string;
  label?: string;
  description?: string;
}

/**
 * What a handler is given. The extension host supplies the full context (session actions,
 * `waitForIdle`, …); the modes only promise the UI, so this stays free of the host's types.
 */
export interface CommandContext {
  ui: ExtensionUI;
  readonly hasUI: boolean;
}

export interface CommandDefinition<Ctx extends CommandContext = CommandContext> {
  name: string;
  description?: string;
  getArgumentCompletions?(prefix: string): Promise<ArgumentCompletion[] | null> | ArgumentCompletion[] | null;
  handler(args: string, ctx: Ctx): Promise<void>;
}

export interface RegisteredCommand<Ctx extends CommandContext = CommandContext> extends CommandDefinition<Ctx> {
  source: CommandSource;
  sourceInfo: SourceInfo;
  /** What follows the slash to run it: the name, or `name:N` when several share it. */
  invocationName: string;
}

/** One line of RPC `get_commands` (Pi's shape). */
export interface CommandListing {
  name: string;
  description?: string;
  source: CommandSource;
  sourceInfo: SourceInfo;
}

/** A matched command, bound to the arguments typed after it. */
export interface MatchedCommand<Ctx extends CommandContext = CommandContext> {
  command: RegisteredCommand<Ctx>;
  args: string;
  run(ctx: Ctx): Promise<void>;
}

export class CommandRegistry<Ctx extends CommandContext = CommandContext> {
  private readonly entries: { definition: CommandDefinition<Ctx>; source: CommandSource; sourceInfo: SourceInfo }[] = [];
  private resolved: RegisteredCommand<Ctx>[] | undefined;

  register(definition: CommandDefinition<Ctx>, sourceInfo: SourceInfo, source: CommandSource = "extension"): void {
    this.entries.push({ definition, source, sourceInfo });
    this.resolved = undefined;
  }

  /** Drops everything one extension registered (it is being reloaded or has failed). */
  unregisterFrom(path: string): void {
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i]!.sourceInfo.path === path) this.entries.splice(i, 1);
    this.resolved = undefined;
  }

  clear(): void {
    this.entries.length = 0;
    this.resolved = undefined;
  }

  /** Every command with its invocation name, in registration order. */
  commands(): readonly RegisteredCommand<Ctx>[] {
    this.resolved ??= resolveInvocationNames(this.entries);
    return this.resolved;
  }

  get(invocationName: string): RegisteredCommand<Ctx> | undefined {
    return this.commands().find((c) => c.invocationName === invocationName);
  }

  /**
   * The command a prompt invokes: `/<invocationName>` alone or followed by a space and its
   * arguments (everything after the first space, as typed; "" when none).
   */
  match(text: string): MatchedCommand<Ctx> | undefined {
    if (!text.startsWith("/")) return undefined;
    const space = text.indexOf(" ");
    const name = space === -1 ? text.slice(1) : text.slice(1, space);
    const command = name ? this.get(name) : undefined;
    if (!command) return undefined;
    const args = space === -1 ? "" : text.slice(space + 1);
    return { command, args, run: (ctx) => command.handler(args, ctx) };
  }

  /** As RPC `get_commands` lists them. */
  list(): CommandListing[] {
    return this.commands().map((c) => ({
      name: c.invocationName,
      ...(c.description !== undefined ? { description: c.description } : {}),
      source: c.source,
      sourceInfo: c.sourceInfo,
    }));
  }
}

function resolveInvocationNames<Ctx extends CommandContext>(
  entries: readonly { definition: CommandDefinition<Ctx>; source: CommandSource; sourceInfo: SourceInfo }[],
): RegisteredCommand<Ctx>[] {
  const counts = new Map<string, number>();
  for (const { definition } of entries) counts.set(definition.name, (counts.get(definition.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  const taken = new Set<string>();
  return entries.map(({ definition, source, sourceInfo }) => {
    const occurrence = (seen.get(definition.name) ?? 0) + 1;
    seen.set(definition.name, occurrence);
    let invocationName = (counts.get(definition.name) ?? 0) > 1 ? `${definition.name}:${occurrence}` : definition.name;
    // A command literally named `x:1` keeps its name; the repeated `x` moves on to a free number.
    for (let n = occurrence; taken.has(invocationName); ) invocationName = `${definition.name}:${++n}`;
    taken.add(invocationName);
    return { ...definition, source, sourceInfo, invocationName };
  });
}

/**
 * Why `text` cannot be queued as a steer or follow-up (it invokes an extension command, which
 * runs at once or not at all); undefined when it can.
 */
export function unqueueableCommand(registry: CommandRegistry<CommandContext> | undefined, text: string): string | undefined {
  const matched = registry?.match(text);
  if (!matched) return undefined;
  return `Extension command "/${matched.command.invocationName}" cannot be queued. Use prompt() or execute the command when not streaming.`;
}

/** An error a handler threw, as the modes report it (`extension_error`, event `command`). */
export interface CommandFailure {
  extensionPath: string;
  event: "command";
  error: string;
}

/**
 * Runs the registered command `text` invokes, if any: true when it was one (its failure is
 * reported, not thrown, so the prompt counts as handled), false when `text` is for the agent.
 */
export async function runCommandIfAny<Ctx extends CommandContext>(
  registry: CommandRegistry<Ctx> | undefined,
  text: string,
  ctx: Ctx,
  onError: (failure: CommandFailure) => void,
): Promise<boolean> {
  const matched = registry?.match(text);
  if (!matched) return false;
  try {
    await matched.run(ctx);
  } catch (error) {
    onError({ extensionPath: matched.command.sourceInfo.path, event: "command", error: error instanceof Error ? error.message : String(error) });
  }
  return true;
}
