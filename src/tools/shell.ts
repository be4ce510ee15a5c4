/**
 * Running one shell command the way the agent needs it: its own process group (so a kill takes
 * its children too), stdin closed, stdout and stderr merged into one ordered stream, and an end
 * that does not wait for background children that keep the output pipe open.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

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

export function runShell(options: RunShellOptions): Promise<RunShellOutcome> {
  return new Promise<RunShellOutcome>((resolve, reject) => {
    const { shell } = options;
    // stderr joins stdout in one pipe, so the two arrive in the order they were written. POSIX
    // shells do it themselves (`exec 2>&1;` before the command, on the same line so line numbers
    // in error messages stay right); other shells go through a small sh wrapper (one more exec).
    const posixShell = POSIX && /(^|\/)(ba|da|k|z)?sh$/.test(shell.shell);
    const merge = POSIX && !posixShell && existsSync("/bin/sh");
    const child = posixShell
      ? spawn(shell.shell, [...shell.args, `exec 2>&1; ${options.command}`], {
          cwd: options.cwd,
          env: options.env,
          detached: true,
          stdio: ["ignore", "pipe", "pipe"],
        })
      : merge
      ? spawn("/bin/sh", ["-c", 'exec "$@" 2>&1', "sh", shell.shell, ...shell.args, options.command], {
          cwd: options.cwd,
          env: options.env,
          detached: true,
          stdio: ["ignore", "pipe", "pipe"],
        })
      : spawn(shell.shell, [...shell.args, options.command], {
          cwd: options.cwd,
          env: options.env,
          detached: POSIX,
          stdio: ["ignore", "pipe", "pipe"],
        });

    let aborted = false;
    let timedOut = false;
    let exitCode: number | null = null;
    let settled = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let timeoutTimer: ReturnType<typeof setTimeout> | undefined;
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);

    const kill = () => {
      if (pid === undefined) return;
      killGroup(pid, () => child.kill("SIGKILL"));
    };
    const onAbort = () => {
      aborted = true;
      kill();
    };

    const finish = () => {
      if (settled) return;
      settled = true;
      if (graceTimer) clearTimeout(graceTimer);
      if (timeoutTimer) clearTimeout(timeoutTimer);
      options.signal?.removeEventListener("abort", onAbort);
      if (pid !== undefined) running.delete(pid);
      // Background children may still hold the pipes; stop listening so they can't keep us alive.
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ exitCode, aborted, timedOut });
    };

    child.stdout?.on("data", (chunk: Buffer) => {
      if (!settled) options.onData(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (!settled) options.onData(chunk);
    });
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      if (timeoutTimer) clearTimeout(timeoutTimer);
      options.signal?.removeEventListener("abort", onAbort);
      if (pid !== undefined) running.delete(pid);
      reject(error);
    });
    let exited = false;
    let closed = false;
    child.on("exit", (code) => {
      exited = true;
      exitCode = code;
      if (closed) finish();
      else graceTimer = setTimeout(finish, PIPE_GRACE_MS);
    });
    child.on("close", (code: number | null) => {
      closed = true;
      // Node reports exit before close; should a runtime not, the close carries the code too.
      if (exited) finish();
      else {
        exitCode = code;
        exited = true;
        finish();
      }
    });

    if (options.timeoutMs !== undefined) {
      timeoutTimer = setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs);
    }
    if (options.signal) {
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener("abort", onAbort, { once: true });
    }
  });
}
