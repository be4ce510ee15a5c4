/**
 * Whether a directory can hold this user's private things (the extension socket, fetched
 * packages): no other user may be able to rename, replace or fill any directory on its path.
 * That holds when every directory from it up to `/` is owned by this user or by root and is not
 * writable by group or others — except a sticky one (like /tmp, 1777), where others may add
 * entries but not move ours, so there only the owner of the next directory down matters (and
 * that one is checked in turn). Where there are no uids (Windows) nothing is checked.
 */
import { chmodSync, lstatSync, mkdirSync, realpathSync, type Stats } from "node:fs";
import { dirname } from "node:path";

export interface DirFacts {
  isDirectory: boolean;
  isSymbolicLink: boolean;
  uid: number;
  mode: number;
}

const STICKY = 0o1000;
const WRITABLE_BY_OTHERS = 0o022;

export function currentUid(): number | undefined {
  return process.getuid?.();
}

function factsOf(info: Stats): DirFacts {
  return { isDirectory: info.isDirectory(), isSymbolicLink: info.isSymbolicLink(), uid: info.uid, mode: info.mode };
}

/** The facts of `path` itself (a link is not followed). */
export function dirFacts(path: string): DirFacts {
  return factsOf(lstatSync(path));
}

/** What is wrong with one directory on the way up, judged from its facts alone. */
export function ancestorProblem(path: string, facts: DirFacts, uid: number): string | undefined {
  if (facts.isSymbolicLink) return `${path} is a symbolic link`;
  if (!facts.isDirectory) return `${path} is not a directory`;
  if (facts.uid !== uid && facts.uid !== 0) return `${path} belongs to uid ${facts.uid}, not ${uid}`;
  if ((facts.mode & WRITABLE_BY_OTHERS) !== 0 && (facts.mode & STICKY) === 0) {
    return `${path} is writable by other users (mode ${(facts.mode & 0o7777).toString(8)})`;
  }
  return undefined;
}

/** What is wrong with a directory that must be this user's alone: a real directory, ours, 0700. */
export function privateDirProblem(path: string, facts: DirFacts, uid: number): string | undefined {
  if (facts.isSymbolicLink) return `${path} is a symbolic link`;
  if (!facts.isDirectory) return `${path} is not a directory`;
  if (facts.uid !== uid) return `${path} belongs to uid ${facts.uid}, not ${uid}`;
  if ((facts.mode & 0o077) !== 0) return `${path} is open to other users (mode ${(facts.mode & 0o777).toString(8)}, not 700)`;
  return undefined;
}

/**
 * The directory's real path when it and every directory above it are safe (see above); else
 * `{ problem }` naming the first one that is not. The real path is what callers must use: a
 * link on the way could be re-pointed by whoever owns the directory it sits in.
 */
export function safeRealDir(path: string, uid: number | undefined = currentUid()): { path: string } | { problem: string } {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    return { problem: `${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  if (uid === undefined) return { path: real };
  for (let dir = real; ; dir = dirname(dir)) {
    let facts: DirFacts;
    try {
      facts = factsOf(lstatSync(dir));
    } catch (error) {
      return { problem: `${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
    }
    const problem = ancestorProblem(dir, facts, uid);
    if (problem) return { problem };
    if (dirname(dir) === dir) return { path: real };
  }
}

/** Thrown when a private directory cannot be had safely; the message names the directory at fault. */
export class UnsafeDirError extends Error {}

/**
 * `dir` (inside `parent`, which must already be safe) as this user's private directory: made
 * 0700 when missing, or checked when it exists — a real directory, ours, 0700. An existing one
 * of ours with a wider mode is refused, not narrowed: others may have put things in it already.
 */
export function ensurePrivateDir(dir: string, uid: number | undefined = currentUid()): void {
  let made = false;
  try {
    mkdirSync(dir, { mode: 0o700 });
    made = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new UnsafeDirError(`cannot create ${dir}: ${(error as Error).message}`);
  }
  if (uid === undefined) return;
  // mkdir's mode is filtered by the umask; a directory made just now is stated exactly.
  if (made) chmodSync(dir, 0o700);
  const problem = privateDirProblem(dir, factsOf(lstatSync(dir)), uid);
  if (problem) throw new UnsafeDirError(problem);
}

/**
 * The real path of the first of `candidates` that is safe all the way up (see safeRealDir), for
 * `what` (named in the error); throws UnsafeDirError naming each one passed over when none is.
 */
export function firstSafeDir(candidates: readonly string[], what: string): string {
  const problems: string[] = [];
  for (const candidate of new Set(candidates)) {
    const safe = safeRealDir(candidate);
    if ("path" in safe) return safe.path;
    problems.push(safe.problem);
  }
  throw new UnsafeDirError(`no safe directory for ${what}: ${problems.join("; ")}`);
}
