/**
 * Running one shell command the way the agent needs it: its own process group (so a kill takes
 * its children too), stdin closed, stdout and stderr merged into one ordered stream, and an end
 * that does not wait for background children that keep the output pipe open.
 */
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { holdGroup, REGISTER_SCRIPT } from "../util/group-guard.ts";

export interface ShellConfig {
  shell: string;
  args: string[];
}

const shellCache = new Map<string, ShellConfig>();

/** The shell to run commands with: a configured path (which must exist), else bash, else sh. */
export function resolveShell(customPath?: string): ShellConfig {
  const key = customPath ?? "";
  const cached = shellCache.get(key);
  if (cached) return cached;
  let config: ShellConfig;
  if (customPath) {
    if (!existsSync(customPath)) throw new Error(`Custom shell path not found: ${customPath}`);
    config = { shell: customPath, args: ["-c"] };
  } else if (existsSync("/bin/bash")) {
    config = { shell: "/bin/bash", args: ["-c"] };
  } else {
    config = { shell: Bun.which("bash") ?? "sh", args: ["-c"] };
  }
  shellCache.set(key, config);
  return config;
}

/** The environment for commands: ours, with `<agentDir>/bin` first on PATH (tools pig installs). */
export function shellEnv(agentDir: string, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  const binDir = join(agentDir, "bin");
  // Windows spells it "Path"; keep whatever spelling is there.
  const pathKey = Object.keys(env).find((key) => key.toUpperCase() === "PATH") ?? "PATH";
  const entries = (env[pathKey] ?? "").split(delimiter).filter((entry) => entry !== "");
  if (!entries.includes(binDir)) env[pathKey] = [binDir, ...entries].join(delimiter);
  return env;
}

export interface RunShellOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  shell: ShellConfig;
  signal?: AbortSignal;
  /** Kill the command after this many milliseconds. */
  timeoutMs?: number;
  onData: (chunk: Buffer) => void;
}

export interface RunShellOutcome {
  /** null when the process died from a signal. */
  exitCode: number | null;
  aborted: boolean;
  timedOut: boolean;
}

/** How long to wait for the output pipe to close once the shell itself has exited. */
const PIPE_GRACE_MS = 100;

const running = new Set<number>();

function killGroup(pid: number, fallback: () => void): void {
  if (process.platform === "win32") {
    // No process groups: taskkill /T walks the tree the shell started (the shell must still be
    // alive for that, so the fallback, which ends only the shell, waits for taskkill to fail).
    try {
      const taskkill = Bun.spawn(["taskkill", "/pid", String(pid), "/T", "/F"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
      void taskkill.exited.then((code) => code !== 0 && fallback());
    } catch {
      fallback();
    }
    return;
  }
  try {
    // A negative pid addresses the whole process group the shell leads.
    process.kill(-pid, "SIGKILL");
  } catch {
    fallback();
  }
}

/** Kills every command still running (for pig's own SIGTERM/SIGHUP handling). */
export function killRunningCommands(): void {
  for (const pid of running) killGroup(pid, () => undefined);
  running.clear();
}

const POSIX = process.platform !== "win32";

/**
 * The command line to start: POSIX shells merge stderr into stdout themselves; others go through
 * sh. `guarded`: descriptor 3 is the group guard's socket, which the line registers with first.
 */
function commandLine(shell: ShellConfig, command: string, guarded: boolean): string[] {
  // stderr joins stdout in one pipe, so the two arrive in the order they were written. POSIX
  // shells do it themselves (`exec 2>&1;` before the command, on the same line so line numbers
  // in error messages stay right); other shells go through a small sh wrapper (one more exec).
  // The group registers with its guard (util/group-guard.ts) on that line too, so the command
  // dies with pig.
  const register = guarded ? ` ${REGISTER_SCRIPT}` : "";
  if (POSIX && /(^|\/)(ba|da|k|z)?sh$/.test(shell.shell)) return [shell.shell, ...shell.args, `exec 2>&1;${register} ${command}`];
  if (POSIX && existsSync("/bin/sh")) return ["/bin/sh", "-c", `exec 2>&1;${register} exec "$@"`, "sh", shell.shell, ...shell.args, command];
  return [shell.shell, ...shell.args, command];
}

/** Forwards a pipe's chunks until it closes or `stop` is called. */
function pump(stream: ReadableStream<Uint8Array>, onChunk: (chunk: Buffer) => void): { done: Promise<void>; stop: () => void } {
  const reader = stream.getReader();
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) return;
        onChunk(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      }
    } catch {
      // Cancelled after the grace period, or the pipe broke: either way there is no more output.
      // (onChunk itself does not throw: the caller's forwarder catches its consumer's errors.)
    }
  })();
  return { done, stop: () => void reader.cancel().catch(() => undefined) };
}

export async function runShell(options: RunShellOptions): Promise<RunShellOutcome> {
  // stdin closed. The group dies with pig, however pig dies (util/group-guard.ts), until its
  // shell has ended: what the shell left running in the background may then outlive pig, as it
  // would outlive a pig that exits normally. (A killed group is gone by then.)
  const child = holdGroup<["ignore", "pipe", "pipe"], Bun.Subprocess<"ignore", "pipe", "pipe">>(["ignore", "pipe", "pipe"], (stdio, guarded) =>
    Bun.spawn(commandLine(options.shell, options.command, guarded), {
      cwd: options.cwd,
      env: options.env,
      // Its own process group (setsid), so a kill reaches everything the command started.
      detached: POSIX,
      stdio,
    }),
  );
  const { pid } = child;
  running.add(pid);
  let aborted = false;
  let timedOut = false;
  let settled = false;
  const kill = () => killGroup(pid, () => child.kill("SIGKILL"));
  const onAbort = () => {
    aborted = true;
    kill();
  };
  // A consumer that fails (say, the temp file for long output cannot be written) stops the
  // command; the pipes are still drained so nothing blocks, and the failure is what the call ends with.
  let consumerError: unknown;
  const forward = (chunk: Buffer) => {
    if (settled || consumerError !== undefined) return;
    try {
      options.onData(chunk);
    } catch (error) {
      consumerError = error;
      kill();
    }
  };
  const out = pump(child.stdout, forward);
  const err = pump(child.stderr, forward);
  const timeoutTimer =
    options.timeoutMs !== undefined
      ? setTimeout(() => {
          timedOut = true;
          kill();
        }, options.timeoutMs)
      : undefined;
  if (options.signal) {
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });
  }
  try {
    await child.exited;
    // Output written just before the exit is still in the pipes: read it, but do not wait on
    // background children that keep them open.
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      graceTimer = setTimeout(resolve, PIPE_GRACE_MS);
    });
    await Promise.race([Promise.all([out.done, err.done]), grace]);
    clearTimeout(graceTimer);
  } finally {
    settled = true;
    if (timeoutTimer) clearTimeout(timeoutTimer);
    options.signal?.removeEventListener("abort", onAbort);
    running.delete(pid);
    out.stop();
    err.stop();
  }
  if (consumerError !== undefined) throw consumerError;
  return { exitCode: child.signalCode ? null : child.exitCode, aborted, timedOut };
}
