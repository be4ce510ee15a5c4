/**
 * What the extensions attach to a session once their host is up: the hooks (guarded, so a hook
 * that throws counts as doing nothing and is reported) and the commands. Until then, none.
 */
import { NO_COMMANDS, type CommandPort } from "./command-port.ts";
import { guardHooks } from "./hook-guard.ts";
import { NO_HOOKS, type AgentHooks } from "./hooks.ts";
import type { ExtensionFailure } from "./session-events.ts";

export class AttachedExtensions {
  private hooksValue: AgentHooks = NO_HOOKS;
  private commandsValue: CommandPort;

  constructor(
    /** Where a failing hook is reported. */
    private readonly report: (failure: ExtensionFailure) => void,
    commands: CommandPort = NO_COMMANDS,
  ) {
    this.commandsValue = commands;
  }

  get hooks(): AgentHooks {
    return this.hooksValue;
  }

  /** Whether any extension hooks are attached (without them, nothing is asked or copied for them). */
  get hooked(): boolean {
    return this.hooksValue !== NO_HOOKS;
  }

  setHooks(hooks: AgentHooks): void {
    this.hooksValue = hooks === NO_HOOKS ? NO_HOOKS : guardHooks(hooks, (failure) => this.report({ extensionPath: "", ...failure }));
  }

  get commands(): CommandPort {
    return this.commandsValue;
  }

  setCommands(commands: CommandPort): void {
    this.commandsValue = commands;
  }
}
