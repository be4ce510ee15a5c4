/**
 * Process groups that end when pig dies, however it dies. pig starts shell commands and
 * extension processes as leaders of process groups of their own and ends those groups itself
 * — but a pig killed with SIGKILL ends nothing, and a busy process (a loop that never yields)
 * cannot notice that pig is gone. So one guard watches them all: a small `/bin/sh` process per
 * pig, started before the first guarded spawn, that reads lines from a socket whose other end
 * pig holds. Each group registers itself: its leader starts with descriptor 3 a copy of pig's
 * end, writes `guard <its pid>` there and closes it, all before the command or program runs
 * (REGISTER_SCRIPT, shell builtins only: no fork). pig writes `release <pgid>` once the group's
 * leader has ended (what is left of the group may then outlive pig, as a shell command's
 * background jobs outlive a pig that exits normally). The guard reads end-of-file when every
 * copy of pig's end is closed — pig's own when pig dies, and a leader's once it has registered
 * — and then kills every group still registered, and leaves.
 *
 * A group registers from inside, so a pig killed at any moment after the spawn leaves no group
 * behind: a leader that has not registered yet still holds the socket open, so the guard reads
 * its line before the end. The guard is in a session of its own (Ctrl+C and a hang-up do not
 * reach it) and holds nothing of pig's or of a command's output, so it never keeps open a pipe
 * someone reads to its end. A guard that dies while pig lives is started again and told the
 * groups pig still holds. On Windows (no `/bin/sh`, no process groups) nothing is guarded.
 * docs/decisions.md D89 says why a reused process-group id is not a risk.
 */
import { closeSync, existsSync, writeSync } from "node:fs";

/** Where groups can be guarded: a POSIX system with /bin/sh. */
const GROUPS_GUARDED = process.platform !== "win32" && existsSync("/bin/sh");

/**
 * The guard: keeps the registered pgids as a space-separated list (no process per group, no
 * fork per line: `read`, `case` and the expansions are built into every POSIX sh), and kills
 * them all at end-of-file. Lines that are not a word and a number are ignored.
 */
const GUARD_SCRIPT = [
  "trap '' INT HUP QUIT",
  "groups=' '",
  "while read -r word pgid; do",
  "  case $pgid in ''|*[!0-9]*) continue;; esac",
  "  case $word in",
  '    guard) groups="$groups$pgid ";;',
  '    release) case $groups in *" $pgid "*) groups="${groups%% $pgid *} ${groups#* $pgid }";; esac;;',
  "  esac",
  "done <&3",
  'for pgid in $groups; do kill -s KILL -- "-$pgid"; done 2>/dev/null',
].join("\n");

/**
 * Shell text (POSIX sh, bash, zsh, ksh, dash) that registers the shell's process group with the
 * guard on descriptor 3 and closes it; it ends in `;` and stays on one line, so line numbers in
 * the command's error messages do not move. A dead guard's socket fails the write (EPIPE, with
 * SIGPIPE ignored only for that write and its complaint dropped), and the command still runs.
 */
export const REGISTER_SCRIPT = `trap '' PIPE; echo "guard $$" >&3 2>/dev/null; trap - PIPE; exec 3>&-;`;

interface RunningGuard {
  pid: number;
  /** pig's end of the guard's socket. */
  fd: number;
}

let guard: RunningGuard | undefined;
/** Every group started and not released, so that a guard started again can be told them. */
const guarded = new Set<number>();
/** Guards started since the last group: a /bin/sh that dies at once is not restarted forever. */
let restarts = 0;

/** What holdGroup needs of the process it started: the group's leader. */
export interface GroupLeader {
  readonly pid: number;
  readonly exited: Promise<unknown>;
}

/**
 * Starts a process as the leader of a group the guard holds until that leader has ended.
 * `spawn` gets `stdio` with descriptor 3, the guard's socket, added where groups are guarded,
 * and `guarded` true then: its command line must register the group first (REGISTER_SCRIPT, or
 * guardedArgv) and it must start the group (`detached`). Once the leader has been reaped,
 * `onLeaderEnded` (which may end what is left of the group) runs, then the group is let go.
 */
export function holdGroup<T extends [unknown, unknown, unknown], C extends GroupLeader>(
  stdio: T,
  spawn: (stdio: T, guarded: boolean) => C,
  onLeaderEnded?: (pid: number) => void,
): C {
  const withGuard = guardedStdio(stdio);
  const child = spawn(withGuard, withGuard.length > 3);
  noteGroup(child.pid);
  const release = () => {
    onLeaderEnded?.(child.pid);
    releaseGroup(child.pid);
  };
  void child.exited.then(release, release);
  return child;
}

/**
 * The `stdio` of a guarded spawn: descriptor 3 a copy of pig's end of the guard's socket, for
 * REGISTER_SCRIPT (the guard is started if none runs). Unchanged where groups are not guarded
 * or no guard could be started. (Bun takes numbers beyond the first three; its types know only
 * the first three, which the result keeps.)
 */
function guardedStdio<T extends [unknown, unknown, unknown]>(stdio: T): T {
  if (GROUPS_GUARDED && !guard) startGuard();
  return (guard ? [...stdio, guard.fd] : stdio) as T;
}

/** `argv` behind REGISTER_SCRIPT: `sh` registers its group, then becomes the program (same pid, so it still leads the group). */
export function guardedArgv(argv: readonly string[]): string[] {
  return ["/bin/sh", "-c", `${REGISTER_SCRIPT} exec "$@"`, "sh", ...argv];
}

/** Notes a group started with guardedStdio, for a guard started again to be told (the group registers itself). */
function noteGroup(pgid: number): void {
  if (!GROUPS_GUARDED || !Number.isSafeInteger(pgid) || pgid <= 1) return;
  guarded.add(pgid);
  restarts = 0;
}

/**
 * Lets a group go: it may outlive pig (pig ended the rest, or leaves it on purpose). Only once its
 * leader has been reaped: the leader's own registration is then in the socket before this.
 */
function releaseGroup(pgid: number): void {
  if (!guarded.delete(pgid) || !guard) return;
  send(guard, `release ${pgid}\n`);
}

/** The guard's pid, while one runs (for tests and diagnostics). */
export function guardPid(): number | undefined {
  return guard?.pid;
}

function startGuard(): void {
  let child: ReturnType<typeof Bun.spawn>;
  try {
    child = Bun.spawn(["/bin/sh", "-c", GUARD_SCRIPT], {
      // Descriptor 3 is the socket (Bun takes "pipe" beyond the first three and hands pig's end
      // over as a number in stdio[3]); nothing else of pig's is open in the guard.
      stdio: ["ignore", "ignore", "ignore", "pipe"],
      // setsid(): no controlling terminal, and out of pig's process group.
      detached: true,
    });
  } catch {
    // No process can be started now: the groups stay unguarded until the next guarded spawn tries again.
    return;
  }
  const fd = child.stdio[3];
  if (typeof fd !== "number") {
    child.kill("SIGKILL");
    return;
  }
  // The guard must not keep pig running.
  child.unref();
  const started: RunningGuard = { pid: child.pid, fd };
  guard = started;
  void child.exited.then(() => guardEnded(started));
  if (guarded.size > 0) send(started, [...guarded].map((pgid) => `guard ${pgid}\n`).join(""));
}

function guardEnded(ended: RunningGuard): void {
  if (guard !== ended) return;
  guard = undefined;
  try {
    closeSync(ended.fd);
  } catch {
    // Closed already.
  }
  if (guarded.size > 0 && restarts++ < 1) startGuard();
}

function send(to: RunningGuard, line: string): void {
  try {
    writeSync(to.fd, line);
  } catch (error) {
    // The guard is gone (its socket says so before its exit is seen): start another, which is
    // told every group. Any other failure loses this line only: the guard still runs, and
    // closing its socket would make it kill every group it holds.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EPIPE" || code === "ECONNRESET" || code === "EBADF") guardEnded(to);
  }
}
