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
import { statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { currentUid, dirFacts, firstSafeDir, privateDirProblem, safeRealDir, UnsafeDirError } from "../../util/dir-safety.ts";
import { createProcessDir, removeDeadProcessDirs } from "../../util/process-dir.ts";

const NAME = "pig-ext";

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
  return firstSafeDir(socketBaseCandidates(env), "the extension socket");
}

export function createSocketDir(base?: string): SocketDir {
  if (base === undefined) base = baseRuntimeDir();
  else {
    const safe = safeRealDir(base);
    if ("problem" in safe) throw new UnsafeDirError(`not a safe directory for the extension socket: ${safe.problem}`);
    base = safe.path;
  }
  const { dir, remove } = createProcessDir(base, NAME);
  const uid = currentUid();
  // Checked again now that it is there: what the socket's safety rests on.
  if (uid !== undefined) {
    const problem = privateDirProblem(dir, dirFacts(dir), uid);
    if (problem) {
      throw new UnsafeDirError(`the extension socket's directory is not private: ${problem}`);
    }
  }
  return {
    dir,
    socketPath: join(dir, "host.sock"),
    remove,
  };
}

/** Directories of pig processes that died without cleaning up (crash, SIGKILL). */
export const removeStaleDirs = removeDeadProcessDirs;
