/**
 * Where `-e npm:…` / `-e git:…` / `-e <git URL>` packages live: fetched once into the user's own
 * cache, `<pig's cache folder>/extensions/` (`npm/` and `git/`, laid out as in a scope), and
 * found there by later runs. Never a shared folder such as the system temp dir: whatever is found
 * there is run, so another user able to put a package there first would run code as this one.
 * The folder is 0700 and checked (with every folder above it) before anything in it is installed
 * or reused. The `-e` value itself stays what the user typed, so resources keep it as their
 * source; this module says which folder it stands for.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { pigCacheDir, privateCacheDir } from "../util/cache-dir.ts";
import { currentUid, dirFacts } from "../util/dir-safety.ts";
import { packageDir, type InstallPlace } from "./package-place.ts";
import { isRemoteSource, PackageSourceError, parsePackageSource } from "./package-source.ts";

const FOLDER = "extensions";

function cacheRoot(env: Record<string, string | undefined>): string {
  const cache = pigCacheDir(env);
  try {
    // The real path, as checked and made by prepareTemporaryPlace.
    return join(realpathSync(cache), FOLDER);
  } catch {
    return join(cache, FOLDER);
  }
}

export function temporaryPlace(cwd: string, env: Record<string, string | undefined> = process.env): InstallPlace {
  return { agentDir: cacheRoot(env), cwd, scope: "user" };
}

/**
 * The place, made (0700) when missing and checked: pig's cache folder and every folder above it
 * safe (util/dir-safety.ts), the packages folder this user's alone. Throws UnsafeDirError naming
 * the folder at fault.
 */
export function prepareTemporaryPlace(cwd: string, env: Record<string, string | undefined> = process.env): InstallPlace {
  return { agentDir: privateCacheDir(FOLDER, "pig's package cache", { env }), cwd, scope: "user" };
}

/**
 * Why a package found in the place must not be run, or undefined: it must be this user's own
 * and not writable by everyone. (Group-writable is left to the umask: npm and git make folders
 * 0775 under a umask of 002, and no one else can reach inside the 0700 place anyway.)
 */
export function reuseProblem(dir: string, uid: number | undefined = currentUid()): string | undefined {
  if (uid === undefined) return undefined;
  const facts = dirFacts(dir);
  if (facts.isSymbolicLink) return `${dir} is a symbolic link`;
  if (facts.uid !== uid) return `${dir} belongs to uid ${facts.uid}, not ${uid}`;
  if ((facts.mode & 0o002) !== 0) return `${dir} is writable by every user (mode ${(facts.mode & 0o777).toString(8)})`;
  return undefined;
}

/** The folder a remote `-e` value is installed in; undefined for a local path (or a source pig cannot read). */
export function temporaryPackageDir(raw: string, cwd: string): string | undefined {
  if (!isRemoteSource(raw)) return undefined;
  try {
    return packageDir(parsePackageSource(raw, cwd), temporaryPlace(cwd));
  } catch (error) {
    if (error instanceof PackageSourceError) return undefined;
    throw error;
  }
}
