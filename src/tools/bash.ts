/**
 * `bash`: runs a command in the session's directory and returns its merged output, the tail of it
 * when long (with the full output in a temp file), streaming partial output while it runs.
 */
import { existsSync } from "node:fs";
import { OutputAccumulator, type OutputSnapshot } from "./bash-output.ts";
import { resolveShell, runShell, shellEnv, type RunShellOutcome } from "./shell.ts";
import { DEFAULT_MAX_BYTES, formatSize, type TruncationResult } from "./truncate.ts";
import type { ToolDefinition, ToolResult, ToolUpdate } from "./types.ts";

export interface BashArgs {
  command: string;
  timeout?: number;
}

export interface BashDetails {
  truncation?: TruncationResult;
  fullOutputPath?: string;
}

export interface BashToolOptions {
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

/** Partial output is sent at most this often. */
const UPDATE_INTERVAL_MS = 100;

export function detailsOf(snapshot: OutputSnapshot): BashDetails {
  const details: BashDetails = {};
  if (snapshot.truncation) {
    details.truncation = snapshot.truncation;
    if (snapshot.fullOutputPath) details.fullOutputPath = snapshot.fullOutputPath;
  }
  return details;
}

/** The notice that follows truncated output, with line numbers over the whole output. */
export function truncationNotice(snapshot: OutputSnapshot): string {
  const t = snapshot.truncation;
  if (!t) return "";
  const full = snapshot.fullOutputPath
    ? `Full output: ${snapshot.fullOutputPath}`
    : `Full output could not be saved: ${snapshot.fullOutputError ?? "unknown error"}`;
  const end = t.totalLines;
  const start = end - t.outputLines + 1;
  if (t.lastLinePartial) {
    return `\n\n[Showing last ${formatSize(t.outputBytes)} of line ${end} (line is ${formatSize(snapshot.lastLineBytes)}). ${full}]`;
  }
  const limit = t.truncatedBy === "bytes" ? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)` : "";
  return `\n\n[Showing lines ${start}-${end} of ${t.totalLines}${limit}. ${full}]`;
}

/** Sends partial results no more often than every 100 ms, the last one always. */
export class UpdateThrottle {
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;

  constructor(
    private readonly emit: () => void,
  ) {}

  changed(): void {
    this.dirty = true;
    const wait = this.last + UPDATE_INTERVAL_MS - Date.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    this.last = Date.now();
    this.emit();
  }
}

export function createBashTool(options: BashToolOptions = {}): ToolDefinition<BashArgs, BashDetails | undefined> {
  return {
    name: "bash",
    label: "bash",
    description:
      "Run a bash command in the current working directory and get back its combined stdout and stderr. Long output keeps only its last 2000 lines or 50KB (whichever limit is reached first), and the complete output is written to a temp file you can inspect. Pass timeout (seconds) to stop commands that might hang.",
    parameters: BASH_PARAMETERS,
    promptSnippet: "Execute bash commands (ls, grep, find, etc.)",
    async execute(_id, args, signal, onUpdate: ToolUpdate<BashDetails | undefined>, context): Promise<ToolResult<BashDetails | undefined>> {
      const shell = resolveShell(options.shellPath);
      if (!existsSync(context.cwd)) {
        throw new Error(`Working directory does not exist: ${context.cwd}\nCannot execute bash commands.`);
      }
      if (signal.aborted) throw new Error("Command aborted");
      const command = options.shellCommandPrefix ? `${options.shellCommandPrefix}\n${args.command}` : args.command;
      const output = new OutputAccumulator();
      const throttle = new UpdateThrottle(() => {
        const snapshot = output.snapshot();
        onUpdate({ content: [{ type: "text", text: snapshot.text }], details: detailsOf(snapshot) });
      });

      onUpdate({ content: [], details: undefined });
      const timeout = typeof args.timeout === "number" && args.timeout > 0 ? args.timeout : undefined;
      let outcome: RunShellOutcome;
      try {
        outcome = await runShell({
          command,
          cwd: context.cwd,
          env: shellEnv(context.agentDir),
          shell,
          signal,
          timeoutMs: timeout !== undefined ? timeout * 1000 : undefined,
          onData: (chunk) => {
            output.push(chunk);
            throttle.changed();
          },
        });
      } finally {
        output.finish();
        throttle.flush();
      }

      const snapshot = output.snapshot();
      const notice = truncationNotice(snapshot);
      if (outcome.aborted || outcome.timedOut) {
        const text = snapshot.text + notice;
        const reason = outcome.aborted ? "Command aborted" : `Command timed out after ${timeout} seconds`;
        throw new Error(text ? `${text}\n\n${reason}` : reason);
      }
      const text = (snapshot.text || "(no output)") + notice;
      if (outcome.exitCode !== null && outcome.exitCode !== 0) {
        throw new Error(`${text}\n\nCommand exited with code ${outcome.exitCode}`);
      }
      return {
        content: [{ type: "text", text }],
        details: snapshot.truncation ? detailsOf(snapshot) : undefined,
      };
    },
  };
}
