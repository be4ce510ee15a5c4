/**
 * Process groups that end when pig dies, however it dies. pig starts shell commands and
 * extension processes as leaders of process groups of their own and ends those groups itself
 * — but a pig killed with SIGKILL ends nothing, and a busy process (a loop that never yields)
 * cannot notice that pig is gone. So each group gets a guard: a small shell process in the
 * group that waits on a pipe from pig (the group's stdin). The kernel closes pig's end when pig
 * dies; the guard then reads end-of-file and kills its whole group. When pig is done with a
 * group that may outlive it (a shell command's background jobs), it writes `release` first and
 * the guard leaves quietly.
 *
 * The guard is detached from the shell that runs the command (a subshell starts it and exits),
 * so a `wait` in the command does not wait for it, and the command's own stdin is /dev/null.
 */
import type { FileSink } from "bun";
import { existsSync } from "node:fs";

/** Where groups can be guarded: a POSIX system with /bin/sh. */
export const GROUPS_GUARDED = process.platform !== "win32" && existsSync("/bin/sh");

/**
 * Shell text (POSIX sh, bash, zsh, ksh, dash) that starts the guard and leaves the rest of the
 * script with /dev/null as stdin; it ends in `;` and stays on one line, so line numbers in the
 * command's error messages do not move.
 */
export const GUARD_SCRIPT = 'exec 3<&0 </dev/null; ({ read -r pig_guard <&3; [ "$pig_guard" = release ] || kill -KILL 0; } &); exec 3<&-;';

/** `argv` behind a guard: `sh` starts it, then becomes the program (same pid, so it still leads the group). */
export function guardedArgv(argv: readonly string[]): string[] {
  return ["/bin/sh", "-c", `${GUARD_SCRIPT} exec "$@"`, "sh", ...argv];
}

/** Lets the guard go without killing its group (the group's leader has ended as it should). */
export function releaseGuard(stdin: FileSink | number | undefined | null): void {
  if (!stdin || typeof stdin === "number") return;
  try {
    stdin.write("release\n");
    void Promise.resolve(stdin.end()).catch(() => undefined);
  } catch {
    // The group is gone already (killed), and its guard with it.
  }
}
