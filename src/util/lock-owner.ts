/**
 * Lock files that name their owner (JSON with the owner's pid and host): creating one
 * exclusively, reading what it holds, and telling whether its owner is gone. How long to wait,
 * when to give up and how to take over a stale lock are the callers' own policies.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import * as v from "valibot";

/** What every lock file names: the owning process and its host. */
export const LockOwnerSchema = v.object({ pid: v.number(), host: v.string() });

/** A lock's owner; `started` (see `processStart`), when recorded, tells a reused pid from it. */
export interface LockOwner {
  pid: number;
  host: string;
  started?: string;
}

/** The process start time from /proc (Linux), to tell a reused pid from the owner. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 (starttime) counts from the field after the command name, which may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether the owner is certainly gone: on this host, its pid is not alive or (when the lock
 * recorded a start time) now belongs to another process. Owners on other hosts never are.
 */
export function ownerGone(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return false;
  if (!isAlive(owner.pid)) return true;
  if (owner.started === undefined) return false;
  const started = processStart(owner.pid);
  return started !== undefined && started !== owner.started;
}

/** The lock file's text, or undefined when it cannot be read (released meanwhile, say). */
export function readLockText(lockPath: string): string | undefined {
  try {
    return readFileSync(lockPath, "utf8");
  } catch {
    return undefined;
  }
}

/** What a lock file's `text` holds, or undefined when it is missing, not JSON or not `schema`. */
export function parseLockInfo<S extends v.GenericSchema>(schema: S, text: string | undefined): v.InferOutput<S> | undefined {
  if (text === undefined) return undefined;
  try {
    const result = v.safeParse(schema, JSON.parse(text));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

/** Creates `lockPath` (O_EXCL, mode 600) holding `content`; false when it exists already. */
export function createLockFile(lockPath: string, content: string): boolean {
  // Written whole under a private name, then linked into place: the lock never exists empty,
  // so another process can never read a half-made lock and take it for a stale one.
  const temp = `${lockPath}.${process.pid}-${crypto.randomUUID()}.tmp`;
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeSync(fd, content);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw error;
  }
  closeSync(fd);
  try {
    linkSync(temp, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    // A file system without hard links: create the lock in place instead.
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS") return createInPlace(lockPath, content);
    throw error;
  } finally {
    unlinkQuietly(temp);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function createInPlace(lockPath: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The process holding a `flock` on the file `dev`/`ino`, from the kernel's table of locks
 * (/proc/locks, Linux only); undefined elsewhere or when no local process is listed.
 */
export function flockHolder(dev: number, ino: number): number | undefined {
  let table: string;
  try {
    table = readFileSync("/proc/locks", "utf8");
  } catch {
    return undefined;
  }
  // Linux's dev_t: the major number in bits 8–19 and 32–43, the minor in bits 0–7 and 20–31.
  const major = Number((BigInt(dev) >> 8n) & 0xfffn) | Number((BigInt(dev) >> 32n) & ~0xfffn);
  const minor = Number(BigInt(dev) & 0xffn) | Number((BigInt(dev) >> 12n) & 0xfff00n);
  const device = `${major.toString(16).padStart(2, "0")}:${minor.toString(16).padStart(2, "0")}:${ino}`;
  for (const line of table.split("\n")) {
    // "1: FLOCK  ADVISORY  WRITE 1234 fe:00:5359479 0 EOF"; waiters' lines have "->" after the number.
    const fields = line.trim().split(/\s+/);
    if (fields[1] === "->") continue;
    const at = fields.indexOf(device);
    if (at < 1) continue;
    const pid = Number(fields[at - 1]);
    if (Number.isInteger(pid) && pid > 0) return pid;
  }
  return undefined;
}

/**
 * Takes over the stale lock `observed` at `lockPath`: moves what is there aside (of several
 * processes doing this at once, only one moves it), then checks what it moved. A competitor that
 * took the stale lock over first and made a fresh one may have had its lock moved instead, and
 * gets it back. False when that happened (the lock is busy again); true when the stale lock was
 * removed, or was gone already: then the lock is free to try for.
 */
export function takeOverStaleLock(lockPath: string, observed: string | undefined): boolean {
  const aside = `${lockPath}.stale-${process.pid}-${crypto.randomUUID()}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true; // Gone meanwhile.
  }
  const moved = readLockText(aside);
  if (moved !== observed) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // Yet another process holds the lock now; the one moved is lost either way.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // Already gone.
  }
  return moved === observed;
}
