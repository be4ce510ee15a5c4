/**
 * `powershell`: the Windows counterpart of `bash` (chosen instead of it on win32, and available
 * everywhere with `--tools powershell`). Same contract: merged stdout and stderr, the tail of long
 * output with the rest in a temp file, partial output while it runs, timeout and abort.
 */
import { existsSync } from "node:fs";
import type { BashArgs, BashDetails } from "./bash.ts";
import { POWERSHELL_FLAGS, isPowerShellPath, powershellScript, resolvePowerShell } from "./powershell-args.ts";
import { commandEnv, type CommandEnvOptions } from "./command-env.ts";
import { runShellCommand } from "./shell-command.ts";
import type { ToolDefinition, ToolResult, ToolUpdate } from "./types.ts";

export interface PowerShellToolOptions extends CommandEnvOptions {
  /** Setting `shellPath`: used when it names pwsh or powershell.exe. */
  shellPath?: string;
}

export const POWERSHELL_PARAMETERS = {
  type: "object",
  required: ["command"],
  properties: {
    command: { type: "string", description: "PowerShell command or script to execute" },
    timeout: { type: "number", description: "Timeout in seconds (optional, no default timeout)" },
  },
};

function pathOf(env: Record<string, string>): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === "PATH");
  return key ? env[key] : undefined;
}

export function createPowerShellTool(options: PowerShellToolOptions = {}): ToolDefinition<BashArgs, BashDetails | undefined> {
  return {
    name: "powershell",
    label: "powershell",
    description:
      "Run a PowerShell command in the current working directory and get back its combined output and error streams. Long output keeps only its last 2000 lines or 50KB (whichever limit is reached first), and the complete output is written to a temp file you can inspect. Pass timeout (seconds) to stop commands that might hang.",
    parameters: POWERSHELL_PARAMETERS,
    promptSnippet: "Execute PowerShell commands (Get-ChildItem, Select-String, etc.)",
    async execute(_id, args, signal, onUpdate: ToolUpdate<BashDetails | undefined>, context): Promise<ToolResult<BashDetails | undefined>> {
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
  };
}
