/**
 * Starting an extension process in a process group of its own, and ending the whole group: an
 * extension that starts helpers of its own must not leave them behind when pig stops it, nor
 * when pig itself is killed.
 */
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { CappedLog } from "../../util/capped-log.ts";
import { guardedArgv, holdGroup } from "../../util/group-guard.ts";

export interface SpawnedProcess {
  pid: number;
  exited: Promise<number | null>;
  /** Settles once everything the process wrote to stderr is in its log. */
  logged: Promise<void>;
  /** Signals the process group (falls back to the process if the group is gone). */
  kill(signal?: NodeJS.Signals): void;
  /** Lets pig exit while the process is still ending (a killed process pig no longer waits for). */
  unref(): void;
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
  // stdin closed; stdout is not a channel (frames go over the socket, stray prints go nowhere);
  // stderr through pig, not straight into the file, so that the log keeps to its cap.
  // Guarded (util/group-guard.ts): a pig killed with SIGKILL takes the group with it, even while
  // the extension is too busy to notice that its socket closed. `sh` registers the group, then
  // becomes the program.
  const child = holdGroup<["ignore", "ignore", "pipe"], Bun.Subprocess<"ignore", "ignore", "pipe">>(
    ["ignore", "ignore", "pipe"],
    (stdio, guarded) =>
      Bun.spawn(guarded ? guardedArgv([programPath(file, options), ...args]) : [file, ...args], {
        cwd: options.cwd,
        env: options.env,
        stdio,
        // setsid(): the child leads a new process group, so the group can be signalled as one.
        detached: true,
      }),
    // Once the extension has ended, whatever is left of its group goes with it.
    (pid) => {
      if (process.platform === "win32") return;
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Nothing is left of the group.
      }
    },
  );
  const pid = child.pid;
  const logged = drainInto(child.stderr, new CappedLog(options.logPath));
  return {
    pid,
    exited: child.exited.then(
      (code) => code,
      () => null,
    ),
    logged,
    unref() {
      child.unref();
    },
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

/**
 * The program's path, found as spawning it directly would find it: behind the guard's `sh` a
 * missing program would only be an exit code 127, not the error that names it.
 */
export function programPath(file: string, options: Pick<SpawnOptions, "cwd" | "env">): string {
  if (file.includes("/")) {
    const path = isAbsolute(file) ? file : resolve(options.cwd, file);
    if (!existsSync(path)) throw new Error(`ENOENT: no such file or directory, posix_spawn '${file}'`);
    return path;
  }
  const found = Bun.which(file, { PATH: options.env.PATH ?? "", cwd: options.cwd });
  if (!found) throw new Error(`Executable not found in $PATH: "${file}"`);
  return found;
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
