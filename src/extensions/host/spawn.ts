/**
 * Starting an extension process in a process group of its own, and ending the whole group: an
 * extension that starts helpers of its own must not leave them behind when pig stops it.
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";

export interface SpawnedProcess {
  pid: number;
  exited: Promise<number | null>;
  /** Signals the process group (falls back to the process if the group is gone). */
  kill(signal?: NodeJS.Signals): void;
}

export interface SpawnOptions {
  command: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Appended to; created with its directory when missing. */
  logPath: string;
}

export function spawnExtension(options: SpawnOptions): SpawnedProcess {
  const [file, ...args] = options.command;
  if (!file) throw new Error("empty command");
  mkdirSync(dirname(options.logPath), { recursive: true });
  const logFd = openSync(options.logPath, "a", 0o600);
  let child: ReturnType<typeof Bun.spawn>;
  try {
    child = Bun.spawn([file, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdin: "ignore",
      // stdout is not a channel: frames go over the socket, stray prints go nowhere.
      stdout: "ignore",
      stderr: logFd,
      // setsid(): the child leads a new process group, so the group can be signalled as one.
      detached: true,
    });
  } finally {
    closeSync(logFd);
  }
  const pid = child.pid;
  return {
    pid,
    exited: child.exited.then(
      (code) => code,
      () => null,
    ),
    kill(signal = "SIGKILL") {
      try {
        process.kill(-pid, signal);
      } catch {
        try {
          child.kill(signal);
        } catch {
          // Already gone.
        }
      }
    },
  };
}

/** Whether any process of the group `pgid` still exists. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
