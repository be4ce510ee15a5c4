/**
 * `powershell`: the Windows counterpart of `bash` (chosen instead of it on win32, and available
 * everywhere with `--tools powershell`). Same contract: merged stdout and stderr, the tail of long
 * output with the rest in a temp file, partial output while it runs, timeout and abort.
 */
import { existsSync } from "node:fs";
import { commandArguments, commandPresentation } from "./bash.ts";
import { commandEnv, type CommandEnvOptions } from "./command-env.ts";
import { defineBuiltinTool } from "./define.ts";
import { POWERSHELL_FLAGS, isPowerShellPath, powershellScript, resolvePowerShell } from "./powershell-args.ts";
import { runShellCommand, type BashDetails } from "./shell-command.ts";
import type { ToolResult, ToolUpdate } from "./types.ts";

export interface PowerShellToolOptions extends CommandEnvOptions {
  /** Setting `shellPath`: used when it names pwsh or powershell.exe. */
  shellPath?: string;
}

const PowerShellArguments = () => commandArguments("PowerShell command or script to execute");

function pathOf(env: Record<string, string>): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === "PATH");
  return key ? env[key] : undefined;
}

export const powershellTool = defineBuiltinTool({
  name: "powershell",
  description:
    "Run a PowerShell command in the current working directory and get back its combined output and error streams. Long output keeps only its last 2000 lines or 50KB (whichever limit is reached first), and the complete output is written to a temp file you can inspect. Pass timeout (seconds) to stop commands that might hang.",
  arguments: PowerShellArguments,
  promptSnippet: "Execute PowerShell commands (Get-ChildItem, Select-String, etc.)",
  presentation: commandPresentation,
  async execute(
    _id,
    args,
    signal,
    onUpdate: ToolUpdate<BashDetails | undefined>,
    context,
    options: PowerShellToolOptions,
  ): Promise<ToolResult<BashDetails | undefined>> {
    const env = commandEnv(context.agentDir, options);
    const PATH = pathOf(env);
    const customPath = options.shellPath && isPowerShellPath(options.shellPath) ? options.shellPath : undefined;
    const executable = resolvePowerShell({
      ...(customPath ? { customPath } : {}),
      which: (name) => Bun.which(name, PATH !== undefined ? { PATH } : {}),
      exists: existsSync,
    });
    if (!existsSync(context.cwd)) {
      throw new Error(`Working directory does not exist: ${context.cwd}\nCannot execute PowerShell commands.`);
    }
    if (signal.aborted) throw new Error("Command aborted");
    const timeout = typeof args.timeout === "number" && args.timeout > 0 ? args.timeout : undefined;
    return runShellCommand({
      command: powershellScript(args.command),
      cwd: context.cwd,
      env,
      shell: { shell: executable, args: [...POWERSHELL_FLAGS] },
      signal,
      timeout,
      onUpdate,
      ...(context.spillFiles ? { spillFiles: context.spillFiles } : {}),
    });
  },
});

export const createPowerShellTool = (options: PowerShellToolOptions = {}) => powershellTool.create(options);

