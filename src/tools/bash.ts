/**
 * `bash`: runs a command in the session's directory and returns its merged output, the tail of it
 * when long (with the full output in a temp file), streaming partial output while it runs.
 */
import { existsSync } from "node:fs";
import { commandEnv, type CommandEnvOptions } from "./command-env.ts";
import { resolveShell } from "./shell.ts";
import { runShellCommand, type BashDetails } from "./shell-command.ts";
import type { ToolDefinition, ToolResult, ToolUpdate } from "./types.ts";

export type { BashDetails };

export interface BashArgs {
  command: string;
  timeout?: number;
}

export interface BashToolOptions extends CommandEnvOptions {
  /** Setting `shellPath`: the shell to use instead of bash. */
  shellPath?: string;
  /** Setting `shellCommandPrefix`: run before every command (e.g. `shopt -s expand_aliases`). */
  shellCommandPrefix?: string;
}

export const BASH_PARAMETERS = {
  type: "object",
  required: ["command"],
  properties: {
    command: { type: "string", description: "Shell command to execute" },
    timeout: { type: "number", description: "Timeout in seconds (optional, no default timeout)" },
  },
};


export function createBashTool(options: BashToolOptions = {}): ToolDefinition<BashArgs, BashDetails | undefined> {
  return {
    name: "bash",
    label: "bash",
    description:
      "Run a bash command in the current working directory and get back its combined stdout and stderr. Long output keeps only its last 2000 lines or 50KB (whichever limit is reached first), and the complete output is written to a temp file you can inspect. Pass timeout (seconds) to stop commands that might hang.",
    parameters: BASH_PARAMETERS,
    constrainedSampling: { type: "json_schema", strict: "prefer" },
    promptSnippet: "Execute bash commands (ls, grep, find, etc.)",
    async execute(_id, args, signal, onUpdate: ToolUpdate<BashDetails | undefined>, context): Promise<ToolResult<BashDetails | undefined>> {
      const shell = resolveShell(options.shellPath);
      if (!existsSync(context.cwd)) {
        throw new Error(`Working directory does not exist: ${context.cwd}\nCannot execute bash commands.`);
      }
      if (signal.aborted) throw new Error("Command aborted");
      const command = options.shellCommandPrefix ? `${options.shellCommandPrefix}\n${args.command}` : args.command;
      const timeout = typeof args.timeout === "number" && args.timeout > 0 ? args.timeout : undefined;
      return runShellCommand({
        command,
        cwd: context.cwd,
        env: commandEnv(context.agentDir, options),
        shell,
        signal,
        timeout,
        onUpdate,
        ...(context.spillFiles ? { spillFiles: context.spillFiles } : {}),
      });
    },
  };
}
