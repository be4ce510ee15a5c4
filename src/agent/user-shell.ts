/**
 * The user's own shell commands in a session (`!cmd`, `!!cmd`, RPC `bash`): the user-bash hook
 * may supply the outcome instead of running it; otherwise it runs (user-bash.ts) as the
 * session's one `bash` activity, which `abort` stops. Either way the result is recorded.
 */
import type { Settings } from "../resources/settings.ts";
import type { AgentMessage, BashExecutionMessage } from "../session/format.ts";
import type { SpillFiles } from "../tools/spill-files.ts";
import type { Activity } from "./activity.ts";
import type { AgentHooks } from "./hooks.ts";
import { bashExecutionMessage, runUserBash, type UserBashResult } from "./user-bash.ts";

export interface UserShellPorts {
  activity: Activity;
  agentDir: string;
  spillFiles: SpillFiles;
  hooks(): AgentHooks;
  /** Where commands run: the session's recorded directory. */
  cwd(): string;
  settings(): Settings;
  /** Adds the result to the session (held while a run goes on). */
  record(message: AgentMessage): void;
}

export class UserShell {
  constructor(private readonly ports: UserShellPorts) {}

  /** Runs `command` and records it (`exclude`: kept out of the context). */
  async run(
    command: string,
    options: { exclude?: boolean; /** Each new piece of output as it arrives. */ onOutput?: (text: string) => void } = {},
  ): Promise<UserBashResult & { message: BashExecutionMessage }> {
    const { activity, agentDir, spillFiles } = this.ports;
    const exclude = options.exclude ?? false;
    const cwd = this.ports.cwd();
    const settings = this.ports.settings();
    const hooked = await this.ports.hooks().userBash({ command, excludeFromContext: exclude, cwd });
    const result =
      hooked?.result ??
      (await activity.during("bash", (signal) =>
        runUserBash(command, {
          cwd,
          agentDir,
          ...(settings.shellPath ? { shellPath: settings.shellPath } : {}),
          ...(settings.shellCommandPrefix ? { shellCommandPrefix: settings.shellCommandPrefix } : {}),
          signal,
          ...(options.onOutput ? { onOutput: options.onOutput } : {}),
          spillFiles,
        }),
      ));
    const message = bashExecutionMessage(command, result, exclude);
    this.ports.record(message);
    return { ...result, message };
  }

  abort(): void {
    this.ports.activity.abort("bash");
  }
}
