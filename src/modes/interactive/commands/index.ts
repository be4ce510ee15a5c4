/**
 * The built-in slash commands of the interactive mode. Each is wrapped so that a failure (a
 * `PromptError` from the session, a compaction error, a file that cannot be written) is
 * shown as an error line instead of escaping into the prompt loop.
 */
import type { SlashCommand } from "../host.ts";
import { compactCommand } from "./compact.ts";
import { copyCommand } from "./copy.ts";
import { exportCommand } from "./export.ts";
import { extensionsCommand } from "./extensions.ts";
import { expandCommand } from "./expand.ts";
import { messageOf } from "./format.ts";
import { hotkeysCommand, sessionCommand } from "./info.ts";
import { importCommand } from "./import.ts";
import { loginCommand, logoutCommand } from "./auth.ts";
import { scopedModelsCommand } from "./scoped-models.ts";
import { shareCommand } from "./share.ts";
import { modelCommand } from "./model.ts";
import { pigletCommand } from "./piglet.ts";
import { resumeCommand } from "./resume.ts";
import { cloneCommand, exitCommand, newCommand, nameCommand, quitCommand, reloadCommand } from "./session.ts";
import { helpCommand } from "./help.ts";
import { settingsCommand } from "./settings.ts";
import { forkCommand, labelCommand, treeCommand } from "./tree.ts";

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

/** pig's own commands (completion and `/help` list them alphabetically). */
export function builtinCommands(): SlashCommand[] {
  const commands: SlashCommand[] = [];
  const all = [
    helpCommand(() => commands),
    modelCommand,
    pigletCommand,
    settingsCommand,
    resumeCommand,
    newCommand,
    nameCommand,
    sessionCommand,
    treeCommand,
    forkCommand,
    cloneCommand,
    labelCommand,
    compactCommand,
    copyCommand,
    expandCommand,
    exportCommand,
    importCommand,
    shareCommand,
    loginCommand,
    scopedModelsCommand,
    logoutCommand,
    reloadCommand,
    extensionsCommand,
    hotkeysCommand,
    quitCommand,
    exitCommand,
  ];
  commands.push(...all.map(guarded));
  return commands;
}
