/**
 * Private folders in shared places (the system temp folder): a per-user parent that only its
 * owner can enter, and inside it one folder per pig process, swept once that process is gone.
 *
 * A shared temp folder lets anyone make a name first. So a folder is never taken on its name
 * alone: it must be a real directory (not a link), owned by this user, with no access for group
 * or others (util/dir-safety.ts). Anything else under the name is passed over for a fresh
 * `mkdtemp` folder, which no one else can have made. The base itself must already be safe
 * (`firstSafeDir`): in a folder another user owns, that user could move any folder of ours away.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { randomHex } from "./light-crypto.ts";
import { ensurePrivateDir, UnsafeDirError } from "./dir-safety.ts";
import { isAlive } from "./lock-owner.ts";

const uid = (): number | undefined => process.getuid?.();

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

/** `<base>/<name>-<uid>`, private to this user (see ensurePrivateDir); throws UnsafeDirError. */
export function userDir(base: string, name: string): string {
  const path = userDirPath(base, name);
  ensurePrivateDir(path);
  return path;
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
    dir = join(parent, `${process.pid}-${randomHex(6)}`);
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (!(error instanceof UnsafeDirError)) throw error;
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
    if (pid === process.pid || isAlive(pid)) continue;
    const path = join(parent, name);
    try {
      // Only a real directory of ours is removed; a link is never followed.
      if (isOwnDir(path)) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another pig may be removing it at the same moment.
    }
  }
}
