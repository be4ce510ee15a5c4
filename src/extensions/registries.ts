/**
 * What extensions register besides tools and handlers, in one bundle the runtime creates once
 * per process and hands to the extension host (which fills it) and to the mode (which uses it).
 * Shortcuts are checked against the keys in force when the interactive mode starts.
 */
import { CommandRegistry, type CommandContext } from "./commands.ts";
import { FlagRegistry } from "./flags.ts";
import { ShortcutRegistry } from "./shortcuts.ts";
import type { ExtensionRow } from "./status.ts";
import type { ExtensionUI } from "./ui.ts";

export interface ExtensionRegistries {
  commands: CommandRegistry;
  flags: FlagRegistry;
  shortcuts: ShortcutRegistry<CommandContext>;
}

export function createRegistries(): ExtensionRegistries {
  return { commands: new CommandRegistry(), flags: new FlagRegistry(), shortcuts: new ShortcutRegistry<CommandContext>() };
}

/** What a mode is given of the extension platform. */
export interface ModeExtensions {
  registries: ExtensionRegistries;
  /** Called by the mode with its UI once it is up: handlers get it as `ctx.ui`. */
  bindUi?(ui: ExtensionUI): void;
  /** Each extension's process and state (RPC `get_extensions`). */
  status?(): ExtensionRow[];
  /** Extension errors from before the mode listened, once (the mode reports them as events). */
  drainStartupErrors?(): Array<{ extensionPath: string; event: string; error: string }>;
  /** The context a command or shortcut handler gets (default: the UI alone). */
  commandContext?(ui: ExtensionUI): CommandContext;
}

export function commandContextFor(extensions: ModeExtensions | undefined, ui: ExtensionUI): CommandContext {
  return extensions?.commandContext?.(ui) ?? { ui, hasUI: ui.hasUI };
}
