/**
 * Shell commands the user runs themselves (`!cmd`, `!!cmd`, RPC `bash`): not a tool call, but a
 * `bashExecution` message. Output is cleaned for the model (no colour codes or control
 * characters), its tail kept, and the whole of it saved to a private temp file when it is long.
 */
import type { BashExecutionMessage } from "../session/format.ts";
import { resolveShell, runShell, shellEnv } from "../tools/shell.ts";
import { processSpillFiles, type SpillFiles } from "../tools/spill-files.ts";
import { DEFAULT_MAX_BYTES, truncateTail } from "../tools/truncate.ts";

const KEEP_CHARS = 100 * 1024;

export interface UserBashResult {
  output: string;
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
}

export interface UserBashOptions {
  cwd: string;
  agentDir: string;
  shellPath?: string;
  shellCommandPrefix?: string;
  signal?: AbortSignal;
  /** Called with each new piece of cleaned output as it arrives, for live display. */
  onOutput?: (text: string) => void;
  /** Where the whole output goes when it is long (the session's set). */
  spillFiles?: SpillFiles;
}

// CSI/OSC escape sequences, then control characters other than tab and newline.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f\ufff9-\ufffb]/g;

/** Output as the model should see it: no colour codes, no control characters, no `\r`. */
export function sanitizeOutput(text: string): string {
  return text.replace(ANSI, "").replace(/\r/g, "").replace(CONTROL, "");
}

const COMPLETE_ESCAPE = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/;
/** An escape sequence longer than this is not waited for: it is cleaned as it is. */
const MAX_HELD = 4096;

/**
 * Where an escape sequence that is not finished yet starts at the end of `text` (its rest is in
 * the next piece of output), if one does.
 */
export function unfinishedEscapeAt(text: string): number | undefined {
  // An OSC (a title, a link) runs to BEL or ESC \; its body cannot hold another ESC.
  const osc = text.lastIndexOf("\x1b]");
  if (osc >= 0 && !/\x07|\x1b\\/.test(text.slice(osc + 2))) return text.length - osc <= MAX_HELD ? osc : undefined;
  const at = text.lastIndexOf("\x1b");
  if (at < 0 || COMPLETE_ESCAPE.test(text.slice(at))) return undefined;
  return text.length - at <= MAX_HELD ? at : undefined;
}

/**
 * Cleans output that arrives in pieces: a colour code cut between two pieces waits for its rest
 * instead of leaving fragments such as `[3` and `1m` (upstream 1.x does the same).
 */
export class PieceSanitizer {
  private held = "";

  push(text: string): string {
    const all = this.held + text;
    const cut = unfinishedEscapeAt(all);
    this.held = cut === undefined ? "" : all.slice(cut);
    return sanitizeOutput(cut === undefined ? all : all.slice(0, cut));
  }

  /** What was held at the end of the output: a cut colour code is dropped, anything else cleaned as it is. */
  end(): string {
    const rest = this.held;
    this.held = "";
    return /^\x1b(?:\[[0-?]*[ -/]*)?$/.test(rest) ? "" : sanitizeOutput(rest);
  }
}

export async function runUserBash(command: string, options: UserBashOptions): Promise<UserBashResult> {
  const decoder = new TextDecoder();
  const clean = new PieceSanitizer();
  let kept = "";
  let full = "";
  let rawBytes = 0;
  let spilled = false;
  const outcome = await runShell({
    command: options.shellCommandPrefix ? `${options.shellCommandPrefix}\n${command}` : command,
    cwd: options.cwd,
    env: shellEnv(options.agentDir),
    shell: resolveShell(options.shellPath),
    ...(options.signal ? { signal: options.signal } : {}),
    onData: (chunk) => {
      rawBytes += chunk.length;
      const text = clean.push(decoder.decode(chunk, { stream: true }));
      full += text;
      kept += text;
      if (kept.length > KEEP_CHARS) kept = kept.slice(kept.length - KEEP_CHARS);
      if (rawBytes > DEFAULT_MAX_BYTES) spilled = true;
      if (text) options.onOutput?.(text);
    },
  });
  const rest = clean.push(decoder.decode()) + clean.end();
  if (rest) options.onOutput?.(rest);
  full += rest;
  kept += rest;
  const tail = truncateTail(kept);
  const truncated = tail.truncated || kept.length < full.length;
  const logPath = spilled || truncated ? (options.spillFiles ?? processSpillFiles).write(full) : undefined;
  const cancelled = outcome.aborted || outcome.timedOut;
  return {
    output: truncated ? tail.content : full,
    exitCode: cancelled ? undefined : (outcome.exitCode ?? undefined),
    cancelled,
    truncated,
    ...(logPath ? { fullOutputPath: logPath } : {}),
  };
}

/** The session message for a finished command (`exclude`: `!!`, kept out of the model's context). */
export function bashExecutionMessage(command: string, result: UserBashResult, exclude: boolean): BashExecutionMessage {
  return {
    role: "bashExecution",
    command,
    output: result.output,
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    cancelled: result.cancelled,
    truncated: result.truncated,
    ...(result.fullOutputPath ? { fullOutputPath: result.fullOutputPath } : {}),
    timestamp: Date.now(),
    ...(exclude ? { excludeFromContext: true } : {}),
  } as BashExecutionMessage;
}
