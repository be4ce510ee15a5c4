/**
 * What extensions register besides tools and handlers, in one bundle the runtime creates once
 * per process and hands to the extension host (which fills it) and to the mode (which uses it).
 * Shortcuts are checked against the keys in force when the interactive mode starts.
 */
import { CommandRegistry, type CommandContext } from "./commands.ts";
import { FlagRegistry } from "./flags.ts";
import { ShortcutRegistry } from "./shortcuts.ts";

export interface ExtensionRegistries<Ctx extends CommandContext = CommandContext> {
  commands: CommandRegistry<Ctx>;
  flags: FlagRegistry;
  shortcuts: ShortcutRegistry<Ctx>;
}

export function createRegistries<Ctx extends CommandContext = CommandContext>(): ExtensionRegistries<Ctx> {
  return { commands: new CommandRegistry<Ctx>(), flags: new FlagRegistry(), shortcuts: new ShortcutRegistry<Ctx>() };
}
