/**
 * One writer per session file. The lock is the kernel's `flock` on the session file itself, so
 * it belongs to the file, not to a name: the real path, a symbolic link and a hard link of one
 * session are one lock. The kernel drops it with the process that held it, however that process
 * ended, so there is no stale lock to judge or take over. Where `flock` is missing (Windows, a
 * file system that refuses it) the lock file of lock-file.ts is used instead.
 *
 * A new file is locked before it has its name (its temp file is locked, then linked into
 * place), and a migration locks its replacement before renaming it over the old file: no
 * moment exists where the file is under its name and unlocked.
 */
import { closeSync, fstatSync, statSync, type Stats } from "node:fs";
import { hostname } from "node:os";
import { tryExclusiveFlock } from "../util/libc.ts";
import { flockHolder } from "../util/lock-owner.ts";
import { openFailure, SessionFileError } from "./load.ts";
import { acquireLockFile, type SessionLock } from "./lock-file.ts";
import { openRegularFile } from "./regular-file.ts";
import { systemReason } from "./write.ts";

export type { SessionLock };

/** The locks this process holds, by file identity: a file locked twice here (by any name) is shared. */
const held = new Map<string, { fd: number; count: number }>();

const identity = (stats: Stats): string => `${stats.dev}:${stats.ino}`;

/**
 * Takes the write lock of the existing session file `sessionPath`, or throws a
 * `SessionFileError` naming the process that holds it.
 */
export function acquireLock(sessionPath: string): SessionLock {
  // A migration by the holder before us may rename a new file over this name: lock what the name
  // means once the lock is ours.
  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = openRegularFile(sessionPath, "read");
    } catch (error) {
      const failure = openFailure(sessionPath, error, `Cannot lock ${sessionPath} for writing: ${systemReason(error)}`);
      throw failure.kind === "unreadable" ? new SessionFileError(sessionPath, "unwritable", failure.message) : failure;
    }
    const lock = lockOpenFile(fd, sessionPath);
    if (lock === "unsupported") return acquireLockFile(sessionPath);
    if (sameFile(sessionPath, fstatSync(lock.fd))) return lock.handle;
    lock.handle.release();
  }
  throw new SessionFileError(sessionPath, "locked", `Could not lock ${sessionPath}: the file keeps being replaced`);
}

/**
 * Locks the new file `temp` that is about to become `sessionPath` (linked or renamed there).
 * It cannot be busy (nobody else knows the temp file); without `flock`, the lock file of
 * `sessionPath` stands in.
 */
export function lockNewFile(temp: string, sessionPath: string): SessionLock {
  const fd = openRegularFile(temp, "read");
  const lock = lockOpenFile(fd, sessionPath, temp);
  if (lock === "unsupported") return acquireLockFile(sessionPath);
  return lock.handle;
}

function sameFile(path: string, stats: Stats): boolean {
  try {
    return identity(statSync(path)) === identity(stats);
  } catch {
    return false;
  }
}

/**
 * Locks the open file `fd` (closing it when the lock is not taken), or says `flock` is not to be
 * had. The lock is taken through a read-only descriptor, which local file systems allow: a file
 * held open for writing would keep its file system from being remounted read-only. NFS wants a
 * descriptor open for writing (EBADF otherwise), so there it is opened again for that.
 */
function lockOpenFile(fd: number, sessionPath: string, path = sessionPath): { fd: number; handle: SessionLock } | "unsupported" {
  const stats = fstatSync(fd);
  const key = identity(stats);
  const mine = held.get(key);
  if (mine) {
    closeSync(fd);
    mine.count++;
    return { fd: mine.fd, handle: handleOf(key, sessionPath, mine.fd) };
  }
  let result = tryExclusiveFlock(fd);
  if (result.kind === "unsupported" && result.errno === EBADF) {
    const writable = reopenForWriting(path, stats);
    if (writable !== undefined) {
      closeSync(fd);
      fd = writable;
      result = tryExclusiveFlock(fd);
    }
  }
  if (result.kind === "locked") {
    held.set(key, { fd, count: 1 });
    return { fd, handle: handleOf(key, sessionPath, fd) };
  }
  closeSync(fd);
  if (result.kind === "unsupported") return "unsupported";
  const pid = flockHolder(stats.dev, stats.ino);
  const who = pid !== undefined ? `pig process ${pid} on ${hostname()}` : "another process (on this host or, for a shared file system, another)";
  throw new SessionFileError(sessionPath, "locked", `Session ${sessionPath} is in use by ${who}. Close that pig first; the lock goes when it exits.`);
}

const EBADF = 9;

/** `path` opened for reading and writing, if it still is the file `stats` describes. */
function reopenForWriting(path: string, stats: Stats): number | undefined {
  let fd: number;
  try {
    fd = openRegularFile(path, "lock");
  } catch {
    return undefined;
  }
  if (identity(fstatSync(fd)) === identity(stats)) return fd;
  closeSync(fd);
  return undefined;
}

function handleOf(key: string, path: string, fd: number): SessionLock {
  let released = false;
  return {
    path,
    fd,
    release() {
      if (released) return;
      released = true;
      const entry = held.get(key);
      if (!entry) return;
      if (--entry.count > 0) return;
      held.delete(key);
      // Closing the last descriptor of the open file lets its lock go.
      closeSync(entry.fd);
    },
  };
}
