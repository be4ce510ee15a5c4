/**
 * `bash`: runs a command in the session's directory and returns its merged output, the tail of it
 * when long (with the full output in a temp file), streaming partial output while it runs.
 */
import { existsSync } from "node:fs";
import * as v from "valibot";
import { commandEnv, type CommandEnvOptions } from "./command-env.ts";
import { defineBuiltinTool } from "./define.ts";
import { extra, numberArgument, oneLine, stringArgument, type ToolPresentation } from "./presentation.ts";
import { runShellCommand, type BashDetails } from "./shell-command.ts";
import { resolveShell } from "./shell.ts";
import type { ToolResult, ToolUpdate } from "./types.ts";

export type { BashDetails };

export interface BashToolOptions extends CommandEnvOptions {
  /** Setting `shellPath`: the shell to use instead of bash. */
  shellPath?: string;
  /** Setting `shellCommandPrefix`: run before every command (e.g. `shopt -s expand_aliases`). */
  shellCommandPrefix?: string;
}

/** A shell tool's arguments, its command described for its shell. */
export function commandArguments(command: string) {
  return v.object({
    command: v.pipe(v.string(), v.description(command)),
    timeout: v.optional(v.pipe(v.number(), v.description("Timeout in seconds (optional, no default timeout)"))),
  });
}

const BashArguments = () => commandArguments("Shell command to execute");
export type BashArgs = v.InferOutput<ReturnType<typeof BashArguments>>;

/** A shell tool's calls: the command on one line, and the end of its output kept (the exit code and the last failure are there). */
export const commandPresentation: ToolPresentation = {
  summary: (args) => oneLine(args.text("command") ?? ""),
  keep: "tail",
  output: "command",
};

export const bashTool = defineBuiltinTool({
  name: "bash",
  description:
    "Run a bash command in the current working directory and get back its combined stdout and stderr. Long output keeps only its last 2000 lines or 50KB (whichever limit is reached first), and the complete output is written to a temp file you can inspect. Pass timeout (seconds) to stop commands that might hang.",
  arguments: BashArguments,
  constrainedSampling: { type: "json_schema", strict: "prefer" },
  promptSnippet: "Execute bash commands (ls, grep, find, etc.)",
  presentation: {
    ...commandPresentation,
    exportCall(args) {
      const command = stringArgument(args, "command");
      if (command === undefined) return undefined;
      const timeout = numberArgument(args, "timeout");
      return { head: timeout ? [extra(`timeout ${timeout}s`)] : [], body: { kind: "command", text: command } };
    },
  },
  async execute(
    _id,
    args,
    signal,
    onUpdate: ToolUpdate<BashDetails | undefined>,
    context,
    options: BashToolOptions,
  ): Promise<ToolResult<BashDetails | undefined>> {
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
});

export const createBashTool = (options: BashToolOptions = {}) => bashTool.create(options);

