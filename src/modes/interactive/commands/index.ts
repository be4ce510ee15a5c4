/**
 * The built-in slash commands of the interactive mode. Each is wrapped so that a failure (a
 * `PromptError` from the session, a compaction error, a file that cannot be written) is
 * shown as an error line instead of escaping into the prompt loop.
 */
import type { SlashCommand } from "../host.ts";
import { about, type BuiltinCommandName } from "./about.ts";
import { messageOf } from "./format.ts";

export { findCommand, parseSlash, type ParsedSlash } from "./dispatch.ts";

/** Reports what `command` throws through the host. */
export function guarded(command: SlashCommand): SlashCommand {
  return {
    ...command,
    async run(host, args) {
      try {
        await command.run(host, args);
      } catch (error) {
        host.error(messageOf(error));
      }
    },
  };
}

/**
 * A command known by its name, description and argument hint (about.ts) whose module is loaded
 * the first time it runs: an interactive start draws its prompt without evaluating the code of
 * commands it may never run (~2.5 ms for all of them). A load that fails is tried again next time.
 */
function onFirstUse(name: BuiltinCommandName, load: () => Promise<SlashCommand>): SlashCommand {
  let loading: Promise<SlashCommand> | undefined;
  return {
    ...about(name),
    async run(host, args) {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      await (await loading).run(host, args);
    },
  };
}

/** Loads a built-in command's module and gives the command; `commands` is the whole list, for `/help`. */
type CommandLoader = (commands: readonly SlashCommand[]) => Promise<SlashCommand>;

/**
 * How each built-in command's module is loaded, by its name. Listed in the order the commands
 * were added (completion and `/help` sort them).
 */
export const BUILTIN_COMMAND_LOADERS: Record<BuiltinCommandName, CommandLoader> = {
  help: async (commands) => (await import("./help.ts")).helpCommand(() => commands),
  model: async () => (await import("./model.ts")).modelCommand,
  piglet: async () => (await import("./piglet.ts")).pigletCommand,
  settings: async () => (await import("./settings.ts")).settingsCommand,
  resume: async () => (await import("./resume.ts")).resumeCommand,
  new: async () => (await import("./session.ts")).newCommand,
  name: async () => (await import("./session.ts")).nameCommand,
  session: async () => (await import("./info.ts")).sessionCommand,
  tree: async () => (await import("./tree.ts")).treeCommand,
  fork: async () => (await import("./tree.ts")).forkCommand,
  clone: async () => (await import("./session.ts")).cloneCommand,
  label: async () => (await import("./tree.ts")).labelCommand,
  compact: async () => (await import("./compact.ts")).compactCommand,
  copy: async () => (await import("./copy.ts")).copyCommand,
  expand: async () => (await import("./expand.ts")).expandCommand,
  export: async () => (await import("./export.ts")).exportCommand,
  import: async () => (await import("./import.ts")).importCommand,
  share: async () => (await import("./share.ts")).shareCommand,
  login: async () => (await import("./auth.ts")).loginCommand,
  "scoped-models": async () => (await import("./scoped-models.ts")).scopedModelsCommand,
  logout: async () => (await import("./auth.ts")).logoutCommand,
  reload: async () => (await import("./session.ts")).reloadCommand,
  extensions: async () => (await import("./extensions.ts")).extensionsCommand,
  hotkeys: async () => (await import("./info.ts")).hotkeysCommand,
  quit: async () => (await import("./session.ts")).quitCommand,
  exit: async () => (await import("./session.ts")).exitCommand,
};

/** pig's own commands (completion and `/help` list them alphabetically). */
export function builtinCommands(): SlashCommand[] {
  const commands: SlashCommand[] = [];
  for (const [name, load] of Object.entries(BUILTIN_COMMAND_LOADERS) as [BuiltinCommandName, CommandLoader][]) {
    commands.push(guarded(onFirstUse(name, () => load(commands))));
  }
  return commands;
}
