/**
 * `pi.exec` with upstream's semantics: no shell, `{stdout, stderr, code, killed, truncated}`; a
 * timeout or abort sends SIGTERM and SIGKILL 5 s later; output over `maxBuffer` bytes (stdout and
 * stderr together) is cut there and ends the command; a spawn failure is code 1, a death by signal
 * 128 + the signal's number (143 for SIGTERM), as a shell reports it.
 */
import type { ExecOptions, ExecResult } from "../api/types.ts";

const KILL_GRACE_MS = 5_000;

/** Node's longest string; upstream's default cap is 256 MiB or that, whichever is less. */
function maxStringLength(): number {
  const { constants } = require("node:buffer") as typeof import("node:buffer");
  return constants.MAX_STRING_LENGTH;
}

/** The exit code a shell would report: the process's own, or 128 + signal number. */
export function shellExitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  if (!signal) return 1;
  const { constants } = require("node:os") as typeof import("node:os");
  return 128 + (constants.signals[signal] ?? 0);
}

export async function execCommand(command: string, args: readonly string[], cwd: string, options: ExecOptions = {}): Promise<ExecResult> {
  const limit = maxStringLength();
  const maxBuffer = options.maxBuffer ?? Math.min(256 * 1024 * 1024, limit);
  if (!Number.isInteger(maxBuffer) || maxBuffer < 0 || maxBuffer > limit) throw new RangeError(`maxBuffer must be an integer between 0 and ${limit} bytes`);
  return new Promise((resolve) => {
    // node:child_process brings Node's stream modules: a runner loads them when an extension
    // first runs a command, not at start-up.
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    const { StringDecoder } = require("node:string_decoder") as typeof import("node:string_decoder");
    const child = spawn(command, [...args], { cwd: options.cwd ?? cwd, shell: false, stdio: ["ignore", "pipe", "pipe"] });
    // Decoded across chunks, so a character split between two chunks stays whole.
    const out = new StringDecoder("utf8");
    const err = new StringDecoder("utf8");
    let stdout = "";
    let stderr = "";
    let bytes = 0;
    let truncated = false;
    let killed = false;
    let spawnError: Error | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const kill = (): void => {
      if (killed) return;
      killed = true;
      child.kill("SIGTERM");
      killTimer = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }, KILL_GRACE_MS);
    };
    if (options.signal?.aborted) kill();
    options.signal?.addEventListener("abort", kill, { once: true });
    if (options.timeout && options.timeout > 0) timer = setTimeout(kill, options.timeout);
    // What of a chunk fits under the cap; on overflow both pipes close (a descendant still
    // writing cannot hold the result back) and the command is ended.
    const withinCap = (chunk: Buffer): Buffer | undefined => {
      if (truncated) return undefined;
      const room = maxBuffer - bytes;
      if (chunk.length <= room) {
        bytes += chunk.length;
        return chunk;
      }
      truncated = true;
      child.stdout?.destroy();
      child.stderr?.destroy();
      kill();
      return room > 0 ? chunk.subarray(0, room) : undefined;
    };
    child.stdout?.on("data", (chunk: Buffer) => {
      const kept = withinCap(chunk);
      if (kept) stdout += out.write(kept);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      const kept = withinCap(chunk);
      if (kept) stderr += err.write(kept);
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (timer) clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", kill);
      child.stdout?.destroy();
      child.stderr?.destroy();
      // A cut result keeps only whole characters: a partial one at the cut is dropped.
      if (!truncated) {
        stdout += out.end();
        stderr += err.end();
      }
      let exit = spawnError ? 1 : shellExitCode(code, signal);
      if (spawnError && !stderr) stderr = spawnError.message;
      // A cut result never reads as success.
      if (truncated && exit === 0) exit = 1;
      resolve({ stdout, stderr, code: exit, killed, truncated });
    };
    waitForExit(child, (error) => (spawnError = error), finish);
  });
}

const EXIT_IDLE_MS = 100;

/**
 * Calls `done` once the child has exited and its pipes are drained. A descendant that inherited
 * the pipes (a `sleep` a killed shell started) can keep them open long after: once the child has
 * exited, the pipes are read until they end or stay quiet for EXIT_IDLE_MS, whichever is first.
 */
function waitForExit(child: import("node:child_process").ChildProcess, onError: (error: Error) => void, done: (code: number | null, signal: NodeJS.Signals | null) => void): void {
  let settled = false;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let open = (child.stdout ? 1 : 0) + (child.stderr ? 1 : 0);
  const settle = (): void => {
    if (settled || !exit) return;
    settled = true;
    if (idle) clearTimeout(idle);
    done(exit.code, exit.signal);
  };
  const quietAfterExit = (): void => {
    if (!exit || settled) return;
    if (idle) clearTimeout(idle);
    idle = setTimeout(settle, EXIT_IDLE_MS);
  };
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", quietAfterExit);
    stream?.once("close", () => {
      open -= 1;
      if (open === 0) settle();
    });
  }
  child.once("error", (error) => {
    onError(error);
    // A process that never started has no exit to wait for.
    exit ??= { code: null, signal: null };
    settle();
  });
  child.once("exit", (code, signal) => {
    exit = { code, signal };
    if (open === 0) settle();
    else quietAfterExit();
  });
}
