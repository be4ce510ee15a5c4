/**
 * Private folders in shared places (the system temp folder): a per-user parent that only its
 * owner can enter, and inside it one folder per pig process, swept once that process is gone.
 *
 * A shared temp folder lets anyone make a name first. So a folder is never taken on its name
 * alone: it must be a real directory (not a link), owned by this user, with no access for group
 * or others. Anything else under the name is refused with an error that names the path, and
 * the caller falls back to a fresh `mkdtemp` folder, which no one else can have made.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

export class PrivateDirError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = "PrivateDirError";
  }
}

const uid = (): number | undefined => process.getuid?.();

/**
 * Makes `path` a 0700 directory of this user's, or checks that it already is one: a real
 * directory (not a link), ours, open to no one else. A looser one of ours is refused too, not
 * tightened: others may have put things in it already. The error names the path.
 */
export function ensurePrivateDir(path: string): string {
  let made = false;
  try {
    mkdirSync(path, { mode: 0o700 });
    made = true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST") throw new PrivateDirError(path, `cannot be created (${code ?? (error as Error).message})`);
  }
  // mkdir's mode went through the umask: a folder made just now is stated exactly.
  if (made && process.platform !== "win32") chmodSync(path, 0o700);
  const info = lstatSync(path);
  if (info.isSymbolicLink()) throw new PrivateDirError(path, "is a symbolic link, not a private directory");
  if (!info.isDirectory()) throw new PrivateDirError(path, "is not a directory");
  const me = uid();
  if (me === undefined) return path;
  if (info.uid !== me) throw new PrivateDirError(path, `belongs to uid ${info.uid}, not to this user (uid ${me})`);
  if ((info.mode & 0o077) !== 0) throw new PrivateDirError(path, `is open to other users (mode ${(info.mode & 0o777).toString(8)}, not 700)`);
  return path;
}

/** Whether `path` is already a real directory of this user's (nothing is made or changed). */
export function isOwnDir(path: string): boolean {
  try {
    const info = lstatSync(path);
    return !info.isSymbolicLink() && info.isDirectory() && (uid() === undefined || info.uid === uid());
  } catch {
    return false;
  }
}

/** `<base>/<name>-<uid>`: the per-user parent's path (made by userDir). */
export function userDirPath(base: string, name: string): string {
  return join(base, `${name}-${uid() ?? "user"}`);
}

/** `<base>/<name>-<uid>`, private to this user (see ensurePrivateDir). */
export function userDir(base: string, name: string): string {
  return ensurePrivateDir(userDirPath(base, name));
}

export interface ProcessDir {
  dir: string;
  /** Removes the folder and everything in it; safe to call more than once. */
  remove(): void;
}

/**
 * A fresh folder for this process in the per-user parent `<base>/<name>-<uid>`, named
 * `<pid>-<random>` so that a later pig can tell it left behind by a dead process and remove it.
 * When the parent cannot be used (someone else holds its name), a `mkdtemp` folder in `base`.
 */
export function createProcessDir(base: string, name: string): ProcessDir {
  let dir: string;
  try {
    const parent = userDir(base, name);
    removeDeadProcessDirs(parent);
    dir = join(parent, `${process.pid}-${randomBytes(6).toString("hex")}`);
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (!(error instanceof PrivateDirError)) throw error;
    dir = mkdtempSync(join(base, `${name}-${process.pid}-`));
  }
  chmodSync(dir, 0o700);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Removes the `<pid>-<random>` folders in `parent` whose process is gone. */
export function removeDeadProcessDirs(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^(\d+)-[0-9a-f]+$/.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || processAlive(pid)) continue;
    const path = join(parent, name);
    try {
      // Only a real directory of ours is removed; a link is never followed.
      if (isOwnDir(path)) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another pig may be removing it at the same moment.
    }
  }
}

/** Whether a process with this pid exists (EPERM: it does, and is another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
