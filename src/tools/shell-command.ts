/**
 * One shell command as a tool runs it (bash, powershell): its output streamed to the caller as
 * it comes (throttled), kept to its tail with the whole of it in a temp file, and the outcome
 * as the model reads it — the output, or an error with the output and why it ended.
 */
import { OutputAccumulator, type OutputSnapshot } from "./bash-output.ts";
import type { SpillFiles } from "./spill-files.ts";
import { runShell, type RunShellOptions, type RunShellOutcome } from "./shell.ts";
import { DEFAULT_MAX_BYTES, formatSize, type TruncationResult } from "./truncate.ts";
import type { ToolResult, ToolUpdate } from "./types.ts";

/** Partial output is sent at most this often. */
const UPDATE_INTERVAL_MS = 100;

/** What a shell command's result carries besides its text: how the output was cut, and where all of it is. */
export interface BashDetails {
  truncation?: TruncationResult;
  fullOutputPath?: string;
}

export interface ShellCommandRun extends Omit<RunShellOptions, "onData" | "timeoutMs"> {
  /** Seconds, as the tool's `timeout` argument gives it. */
  timeout: number | undefined;
  onUpdate: ToolUpdate<BashDetails | undefined>;
  /** Where the whole output goes when it is long (the session's set). */
  spillFiles?: SpillFiles;
}

export async function runShellCommand(run: ShellCommandRun): Promise<ToolResult<BashDetails | undefined>> {
  const { timeout, onUpdate, spillFiles, ...shell } = run;
  const output = new OutputAccumulator(spillFiles);
  const throttle = new UpdateThrottle(() => {
    const snapshot = output.snapshot();
    onUpdate({ content: [{ type: "text", text: snapshot.text }], details: detailsOf(snapshot) });
  });
  onUpdate({ content: [], details: undefined });
  let outcome: RunShellOutcome;
  try {
    outcome = await runShell({
      ...shell,
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
  return { content: [{ type: "text", text }], details: snapshot.truncation ? detailsOf(snapshot) : undefined };
}

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
