/**
 * The private directory the extension socket lives in. 0700 on the directory (and 0600 on the
 * socket) is the first line of defence: only pig's own user can reach the socket at all; the
 * per-launch token then tells pig's children apart from anything else that user runs.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
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

export function createSocketDir(base: string = baseRuntimeDir()): SocketDir {
  removeStaleDirs(base);
  const dir = join(base, `${PREFIX}${process.pid}-${randomBytes(6).toString("hex")}`);
  mkdirSync(dir, { mode: 0o700 });
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
    const m = /^pig-ext-(\d+)-[0-9a-f]+$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    try {
      const path = join(base, name);
      if (statSync(path).uid !== process.getuid?.()) continue;
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
