/**
 * pig's own cache folder: `$XDG_CACHE_HOME/pig`, else `~/.cache/pig`. Things pig can make again
 * (fetched Bun runtimes, the extension runner's transpiled modules) live there, never in another
 * tool's folder.
 */
import { chmodSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { currentUid, dirFacts, ensurePrivateDir, safeRealDir, UnsafeDirError } from "./dir-safety.ts";

export function pigCacheDir(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(base, "pig");
}

/**
 * `<pig's cache folder>/<name>`, this user's alone: the cache folder made when missing and
 * checked with every folder above it (safeRealDir), `name` in it made 0700 or checked to be
 * (ensurePrivateDir). `narrowOwn`: an existing `name` of ours that nobody else could write to
 * (made 0755 by a release before the check) is narrowed to 0700 rather than refused. Returns the
 * real path; throws UnsafeDirError naming the folder at fault (`what` names `name` in it).
 */
export function privateCacheDir(
  name: string,
  what: string,
  options: { env?: Record<string, string | undefined>; narrowOwn?: boolean } = {},
): string {
  const { env = process.env, narrowOwn = false } = options;
  const cache = pigCacheDir(env);
  try {
    mkdirSync(cache, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UnsafeDirError(`cannot create pig's cache folder ${cache}: ${(error as Error).message}`);
  }
  const safe = safeRealDir(cache);
  if ("problem" in safe) throw new UnsafeDirError(`pig's cache folder is not safe to use: ${safe.problem}`);
  const dir = join(safe.path, name);
  const uid = currentUid();
  if (narrowOwn && uid !== undefined) {
    try {
      const facts = dirFacts(dir);
      const ours = facts.isDirectory && !facts.isSymbolicLink && facts.uid === uid;
      if (ours && (facts.mode & 0o022) === 0 && (facts.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    } catch {
      // Not there yet: made below.
    }
  }
  try {
    ensurePrivateDir(dir, uid);
  } catch (error) {
    if (error instanceof UnsafeDirError) throw new UnsafeDirError(`${what} is not safe to use: ${error.message}`);
    throw error;
  }
  return dir;
}
