/**
 * The private directory the extension socket lives in. 0700 on the directory (and 0600 on the
 * socket) is the first line of defence: only pig's own user can reach the socket at all; the
 * per-launch token then tells pig's children apart from anything else that user runs.
 *
 * Each launch's directory sits in one parent per user (`pig-ext-<uid>`, itself 0700 and owned
 * by that user), so finding the directories dead pig processes left behind means listing that
 * parent only — never the whole temp dir, which can hold hundreds of thousands of entries.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PREFIX = "pig-ext-";

export interface SocketDir {
  dir: string;
  socketPath: string;
  remove(): void;
}

export function baseRuntimeDir(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg) {
    try {
      if (statSync(xdg).isDirectory()) return xdg;
    } catch {
      // An unset-up runtime dir (common in containers) falls back to the temp dir.
    }
  }
  return tmpdir();
}

/**
 * The per-user parent, made if missing. Undefined when something else holds its name (another
 * user's directory, a link): then each launch gets a directory of its own right in `base`.
 */
function userParent(base: string): string | undefined {
  const uid = process.getuid?.() ?? 0;
  const parent = join(base, `${PREFIX}${uid}`);
  try {
    mkdirSync(parent, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  try {
    const info = lstatSync(parent);
    if (!info.isDirectory() || info.uid !== uid) return undefined;
    if ((info.mode & 0o777) !== 0o700) chmodSync(parent, 0o700);
    return parent;
  } catch {
    return undefined;
  }
}

export function createSocketDir(base: string = baseRuntimeDir()): SocketDir {
  const parent = userParent(base);
  let dir: string;
  if (parent) {
    removeStaleDirs(parent);
    dir = join(parent, `${process.pid}-${randomBytes(6).toString("hex")}`);
    mkdirSync(dir, { mode: 0o700 });
  } else {
    dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
  }
  // mkdir's mode is filtered by the umask; state it exactly.
  chmodSync(dir, 0o700);
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
