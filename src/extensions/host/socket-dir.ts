/**
 * The private directory the extension socket lives in. 0700 on the directory (and 0600 on the
 * socket) is the first line of defence: only pig's own user can reach the socket at all; the
 * per-launch token then tells pig's children apart from anything else that user runs.
 *
 * The base it sits in must be safe all the way up (util/dir-safety.ts): root keeps another
 * user's XDG_RUNTIME_DIR after `su` or `sudo -E`, and that user could otherwise move pig's
 * directory away and answer in its place. An unsafe base is passed over for the next one
 * ($XDG_RUNTIME_DIR, then $TMPDIR, then /tmp); pig never uses it.
 *
 * Each launch's directory sits in one parent per user (`pig-ext-<uid>`, itself 0700 and owned
 * by that user), so finding the directories dead pig processes left behind means listing that
 * parent only — never the whole temp dir, which can hold hundreds of thousands of entries.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { currentUid, dirFacts, privateDirProblem, safeRealDir, UnsafeDirError } from "../../util/dir-safety.ts";

const PREFIX = "pig-ext-";

export interface SocketDir {
  dir: string;
  socketPath: string;
  remove(): void;
}

/** The places the socket may go, most preferred first. */
export function socketBaseCandidates(env: Record<string, string | undefined> = process.env): string[] {
  const out: string[] = [];
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg) {
    try {
      // An unset-up runtime dir (common in containers) falls back to the temp dir.
      if (statSync(xdg).isDirectory()) out.push(xdg);
    } catch {
      // Not there.
    }
  }
  out.push(env === process.env ? tmpdir() : env.TMPDIR || tmpdir(), "/tmp");
  return [...new Set(out)];
}

/** The first safe base (its real path); throws naming each one passed over when none is. */
export function baseRuntimeDir(env: Record<string, string | undefined> = process.env): string {
  const problems: string[] = [];
  for (const candidate of socketBaseCandidates(env)) {
    const safe = safeRealDir(candidate);
    if ("path" in safe) return safe.path;
    problems.push(safe.problem);
  }
  throw new UnsafeDirError(`no safe directory for the extension socket: ${problems.join("; ")}`);
}

/**
 * The per-user parent, made if missing. Undefined when something else holds its name (another
 * user's directory, a link): then each launch gets a directory of its own right in `base`.
 */
function userParent(base: string, uid: number): string | undefined {
  const parent = join(base, `${PREFIX}${uid}`);
  try {
    mkdirSync(parent, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  try {
    const info = lstatSync(parent);
    if (info.isSymbolicLink() || !info.isDirectory() || info.uid !== uid) return undefined;
    // Ours: narrowed if the umask or a person widened it. Each launch's directory inside has a
    // random name made with mkdir (which never reuses what is there) and is checked itself.
    if ((info.mode & 0o777) !== 0o700) chmodSync(parent, 0o700);
    return parent;
  } catch {
    return undefined;
  }
}

export function createSocketDir(base?: string): SocketDir {
  if (base === undefined) base = baseRuntimeDir();
  else {
    const safe = safeRealDir(base);
    if ("problem" in safe) throw new UnsafeDirError(`not a safe directory for the extension socket: ${safe.problem}`);
    base = safe.path;
  }
  const uid = currentUid();
  const parent = uid === undefined ? undefined : userParent(base, uid);
  let dir: string;
  if (parent) {
    removeStaleDirs(parent);
    dir = join(parent, `${process.pid}-${randomBytes(6).toString("hex")}`);
    mkdirSync(dir, { mode: 0o700 });
  } else {
    dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
  }
  // mkdir's mode is filtered by the umask; state it exactly, then check what is there now.
  chmodSync(dir, 0o700);
  if (uid !== undefined) {
    const problem = privateDirProblem(dir, dirFacts(dir), uid);
    if (problem) {
      throw new UnsafeDirError(`the extension socket's directory is not private: ${problem}`);
    }
  }
  return {
    dir,
    socketPath: join(dir, "host.sock"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Directories of pig processes that died without cleaning up (crash, SIGKILL). */
export function removeStaleDirs(base: string): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(\d+)-[0-9a-f]+$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    try {
      const path = join(base, name);
      // lstat: a link is never followed nor removed — only a real directory of our own is ours.
      const info = lstatSync(path);
      if (info.isSymbolicLink() || !info.isDirectory() || info.uid !== process.getuid?.()) continue;
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Another pig may be removing it at the same moment.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive but someone else's.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
