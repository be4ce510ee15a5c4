/**
 * The session lock where the system has no `flock` (Windows, or a file system that refuses it):
 * a lock file beside the session (`<file>.lock`) holding the owner's pid, host and process start
 * time. A lock whose process is gone (or whose pid now belongs to a different process) is stale
 * and is taken over. It is keyed by the path as given, so unlike the `flock` of lock.ts it
 * cannot tell two names of one file apart.
 */
import { unlinkSync } from "node:fs";
import { hostname } from "node:os";
import * as v from "valibot";
import { createLockFile, LockOwnerSchema, ownerGone, parseLockInfo, processStart, readLockText, takeOverStaleLock } from "../util/lock-owner.ts";
import { SessionFileError } from "./load.ts";
import { systemReason } from "./write.ts";

const LockInfoSchema = v.object({
  ...LockOwnerSchema.entries,
  /** The process start time from /proc (Linux), to tell a reused pid from the owner. */
  started: v.optional(v.string()),
  since: v.string(),
});
type LockInfo = v.InferOutput<typeof LockInfoSchema>;

/** A held write lock of a session file; `release` lets it go (once, however often it is called). */
export interface SessionLock {
  readonly path: string;
  /** A descriptor of the locked file itself, when the lock is held through one (lock.ts). */
  readonly fd?: number;
  release(): void;
}

/** Whether the lock's owner is certainly gone. Locks from other hosts are never judged stale. */
function isStale(info: LockInfo | undefined): boolean {
  return !info || ownerGone(info);
}

const held = new Map<string, number>();
let exitHookInstalled = false;

function releaseAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const lockPath of held.keys()) {
      try {
        unlinkSync(lockPath);
      } catch {
        // Already gone: nothing to release.
      }
    }
  });
}

/** Takes the lock file of `sessionPath`, or throws a `SessionFileError` naming the holder. */
export function acquireLockFile(sessionPath: string): SessionLock {
  const lockPath = `${sessionPath}.lock`;
  const count = held.get(lockPath);
  if (count !== undefined) {
    held.set(lockPath, count + 1);
    return lockHandle(lockPath);
  }
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    ...(processStart(process.pid) !== undefined ? { started: processStart(process.pid) } : {}),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    let created: boolean;
    try {
      created = createLockFile(lockPath, JSON.stringify(info));
    } catch (error) {
      // Read-only directory, full disk…: this session cannot be written here at all.
      throw new SessionFileError(sessionPath, "unwritable", `Cannot write to ${sessionPath}: its lock ${lockPath} cannot be made: ${systemReason(error)}`);
    }
    if (created) {
      held.set(lockPath, 1);
      releaseAllOnExit();
      return lockHandle(lockPath);
    }
    const observed = readLockText(lockPath);
    const holder = parseLockInfo(LockInfoSchema, observed);
    if (!isStale(holder)) {
      const who = holder ? `pig process ${holder.pid} on ${holder.host} (since ${holder.since})` : "another process";
      throw new SessionFileError(
        sessionPath,
        "locked",
        `Session ${sessionPath} is in use by ${who}. Close that pig first, or remove ${lockPath} if that process no longer exists.`,
      );
    }
    takeOverStaleLock(lockPath, observed);
  }
  throw new SessionFileError(sessionPath, "locked", `Could not take the lock ${lockPath}; another process keeps taking it`);
}

function lockHandle(lockPath: string): SessionLock {
  let released = false;
  return {
    path: lockPath,
    release() {
      if (released) return;
      released = true;
      const count = held.get(lockPath) ?? 0;
      if (count > 1) {
        held.set(lockPath, count - 1);
        return;
      }
      held.delete(lockPath);
      try {
        unlinkSync(lockPath);
      } catch {
        // Already gone.
      }
    },
  };
}
