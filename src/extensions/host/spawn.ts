/**
 * Starting an extension process in a process group of its own, and ending the whole group: an
 * extension that starts helpers of its own must not leave them behind when pig stops it.
 */
import { CappedLog } from "../../util/capped-log.ts";

export interface SpawnedProcess {
  pid: number;
  exited: Promise<number | null>;
  /** Settles once everything the process wrote to stderr is in its log. */
  logged: Promise<void>;
  /** Signals the process group (falls back to the process if the group is gone). */
  kill(signal?: NodeJS.Signals): void;
}

export interface SpawnOptions {
  command: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Where its stderr is appended (created with its folder when missing; capped, util/capped-log.ts). */
  logPath: string;
}

export function spawnExtension(options: SpawnOptions): SpawnedProcess {
  const [file, ...args] = options.command;
  if (!file) throw new Error("empty command");
  const child = Bun.spawn([file, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdin: "ignore",
    // stdout is not a channel: frames go over the socket, stray prints go nowhere.
    stdout: "ignore",
    // Through pig, not straight into the file, so that the log keeps to its cap.
    stderr: "pipe",
    // setsid(): the child leads a new process group, so the group can be signalled as one.
    detached: true,
  });
  const logged = drainInto(child.stderr, new CappedLog(options.logPath));
  const pid = child.pid;
  return {
    pid,
    exited: child.exited.then(
      (code) => code,
      () => null,
    ),
    logged,
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

/** Copies a pipe into the log until it closes (the process and whatever it started have ended). */
async function drainInto(stream: ReadableStream<Uint8Array>, log: CappedLog): Promise<void> {
  try {
    for await (const chunk of stream) log.write(chunk);
  } catch {
    // The pipe broke: there is no more output to keep.
  } finally {
    log.close();
  }
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
