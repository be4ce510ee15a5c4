/**
 * Files only their owner may read (credentials): the folder made 0700, the file written whole
 * through a temp file (0600) renamed into place, so neither another process nor a crash leaves
 * half a file. A symlinked file is written where the link points.
 */
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The file to lock and write: where a symlinked `path` points; its folder made (0700). */
export function privateFileTarget(path: string): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return existsSync(path) ? realpathSync(path) : path;
}

/** Writes `value` as indented JSON through a temp file (0600) renamed over `target`; the caller holds the file's lock. */
export function writePrivateJson(target: string, value: unknown): void {
  const temp = `${target}.tmp-${process.pid}`;
  try {
    writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, target);
  } finally {
    rmSync(temp, { force: true });
  }
}
