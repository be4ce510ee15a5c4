/**
 * A short-lived lock around a read-modify-write of a file (settings, trusted projects): take
 * `<file>.lock`, run, release. A busy lock is retried (upstream: 10 tries, 20 ms apart); one
 * whose owner on this host is gone, or older than `staleMs` whoever holds it, is taken over.
 */
import { statSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { createLockFile, LockOwnerSchema, ownerGone, parseLockInfo, readLockText, takeOverStaleLock } from "./lock-owner.ts";

export class FileLockError extends Error {
  override name = "FileLockError";
}

export interface LockOptions {
  /** Tries before giving up (upstream: 10). */
  attempts?: number;
  /** Pause between tries (upstream: 20 ms). */
  delayMs?: number;
  /** A lock older than this is abandoned, whoever holds it. */
  staleMs?: number;
}

function isStale(lockPath: string, content: string, staleMs: number): boolean {
  let age: number;
  try {
    age = Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return true;
  }
  if (age > staleMs) return true;
  const info = parseLockInfo(LockOwnerSchema, content);
  // Empty or half-written (no info): its owner may be writing it right now, so only age can judge it.
  return info !== undefined && ownerGone(info);
}

/**
 * Removes a stale lock. Moving it aside first means that of several processes doing this at
 * once only one removes it; a process that finds it moved a fresh lock instead puts it back.
 */
function takeOverIfStale(lockPath: string, staleMs: number): boolean {
  const observed = readLockText(lockPath);
  if (observed === undefined) return true; // Released meanwhile: just try again.
  if (!isStale(lockPath, observed, staleMs)) return false;
  return takeOverStaleLock(lockPath, observed);
}

function holderOf(lockPath: string): string {
  const info = parseLockInfo(LockOwnerSchema, readLockText(lockPath));
  return info ? `process ${info.pid} on ${info.host}` : "another process";
}

/** Runs `fn` holding `<target>.lock` (created with O_EXCL). Throws `FileLockError` when busy. */
export function withFileLock<T>(target: string, fn: () => T, options: LockOptions = {}): T {
  const { attempts = 10, delayMs = 20, staleMs = 10_000 } = options;
  const lockPath = `${target}.lock`;
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), id: crypto.randomUUID() });
  for (let attempt = 1; ; attempt++) {
    if (createLockFile(lockPath, mine)) {
      try {
        return fn();
      } finally {
        // Only our own lock: if we were so slow that someone took it over, theirs stays.
        try {
          if (readLockText(lockPath) === mine) unlinkSync(lockPath);
        } catch {
          // Removed meanwhile (taken over as stale): nothing of ours is left.
        }
      }
    }
    if (takeOverIfStale(lockPath, staleMs) && attempt < attempts * 2) continue;
    if (attempt >= attempts) {
      throw new FileLockError(`${target} is locked by ${holderOf(lockPath)} (${lockPath}); gave up after ${attempts} tries`);
    }
    Bun.sleepSync(delayMs);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export interface AsyncLockOptions {
  /** A lock older than this is abandoned, whoever holds it (a dead holder's lock goes at once). */
  staleMs: number;
  /** How long to wait for a busy lock before giving up. */
  waitMs: number;
  /** Stops the wait (the lock is not taken then). */
  signal?: AbortSignal;
}

/**
 * `withFileLock` for work that awaits while it holds the lock (a token refresh over the
 * network): the same `<target>.lock`, so the two exclude each other, but a busy lock is waited
 * for without blocking the event loop.
 */
export async function withFileLockAsync<T>(target: string, fn: () => Promise<T>, options: AsyncLockOptions): Promise<T> {
  const lockPath = `${target}.lock`;
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), id: crypto.randomUUID() });
  const deadline = Date.now() + options.waitMs;
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    options.signal?.throwIfAborted();
    if (createLockFile(lockPath, mine)) {
      try {
        return await fn();
      } finally {
        try {
          if (readLockText(lockPath) === mine) unlinkSync(lockPath);
        } catch {
          // Taken over meanwhile: nothing of ours is left.
        }
      }
    }
    // Upstream's lock of the same file is a directory at the same path (proper-lockfile): it is
    // waited for, never taken over (its owner refreshes its time while it holds it).
    if (!isDirectory(lockPath) && takeOverIfStale(lockPath, options.staleMs) && Date.now() < deadline) continue;
    if (Date.now() >= deadline) throw new FileLockError(`${target} is locked by ${holderOf(lockPath)} (${lockPath}); gave up after ${Math.round(options.waitMs / 1000)} s`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, pause);
      function done() {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", done);
        resolve();
      }
      options.signal?.addEventListener("abort", done, { once: true });
    });
  }
}
