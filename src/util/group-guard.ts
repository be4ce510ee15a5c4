/**
 * Process groups that end when pig dies, however it dies. pig starts shell commands and
 * extension processes as leaders of process groups of their own and ends those groups itself
 * — but a pig killed with SIGKILL ends nothing, and a busy process (a loop that never yields)
 * cannot notice that pig is gone. So each group gets a guard: a small shell process in the
 * group that waits on a socket from pig (the group leader's descriptor 3). The kernel closes
 * pig's end when pig dies; the guard then reads end-of-file and kills its whole group. When pig
 * is done with a group that may outlive it (a shell command's background jobs), it writes
 * `release` first and the guard leaves quietly.
 *
 * The guard is detached from the shell that runs the command (a subshell starts it and exits),
 * so a `wait` in the command does not wait for it, and descriptor 3 is closed before the
 * command runs. It holds none of the command's output: pig reads a command's output until its
 * pipes close, and a guard keeping them open would make every command wait out the grace pig
 * gives background jobs that keep the output open. (Not stdin: bash takes a socket on its stdin for a remote login and would read
 * ~/.bashrc.)
 */
import { closeSync, existsSync, writeSync } from "node:fs";

/** Where groups can be guarded: a POSIX system with /bin/sh. */
export const GROUPS_GUARDED = process.platform !== "win32" && existsSync("/bin/sh");

/**
 * The `stdio` of a spawn, with descriptor 3 as the guard's socket where groups are guarded. (Bun
 * takes "pipe" beyond the first three, and hands pig's end over as a descriptor in `stdio[3]`;
 * its types know only the first three, which the result keeps.)
 */
export function guardedStdio<T extends [unknown, unknown, unknown]>(stdio: T): T {
  return (GROUPS_GUARDED ? [...stdio, "pipe"] : stdio) as T;
}

/**
 * Shell text (POSIX sh, bash, zsh, ksh, dash) that starts the guard; it ends in `;` and stays on
 * one line, so line numbers in the command's error messages do not move.
 */
export const GUARD_SCRIPT = '({ read -r pig_guard <&3; [ "$pig_guard" = release ] || kill -KILL 0; } </dev/null >/dev/null 2>&1 &); exec 3<&-;';

/** `argv` behind a guard: `sh` starts it, then becomes the program (same pid, so it still leads the group). */
export function guardedArgv(argv: readonly string[]): string[] {
  return ["/bin/sh", "-c", `${GUARD_SCRIPT} exec "$@"`, "sh", ...argv];
}

/** pig's end of a spawned process's guard socket (its `stdio[3]`), if it has one. */
export function guardOf(child: { stdio: readonly unknown[] }): number | undefined {
  const fd = child.stdio[3];
  return typeof fd === "number" ? fd : undefined;
}

/** Lets the guard go without killing its group (the group's leader has ended as it should). Closes pig's end. */
export function releaseGuard(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    writeSync(fd, "release\n");
  } catch {
    // The group is gone already (killed), and its guard with it.
  }
  closeGuard(fd);
}

/** Closes pig's end without a word: the guard kills whatever is left of its group. */
export function closeGuard(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    closeSync(fd);
  } catch {
    // Closed already.
  }
}
