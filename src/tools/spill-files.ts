/**
 * Files that hold the whole output of a long shell command (the model sees the tail and the
 * file's path, and may read the file later in the session). Output can be anything a command
 * printed — keys, tokens, file contents — so the files are private: created new (O_EXCL) with
 * mode 0600 in a folder of this process's inside `<tmp>/pig-<uid>/`, which only this user can
 * enter (util/process-dir.ts), in a temp folder no other user controls (util/dir-safety.ts).
 *
 * They live as long as a session can point to them: a session's files are removed when it
 * leaves the process's hands (a new or resumed session replaces it), every file when pig exits,
 * and the folder a killed pig left behind when the next pig makes its own.
 */
import { closeSync, constants, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomHex } from "../util/light-crypto.ts";
import { firstSafeDir } from "../util/dir-safety.ts";
import { createProcessDir, isOwnDir, removeDeadProcessDirs, userDirPath, type ProcessDir } from "../util/process-dir.ts";

const NAME = "pig";

/** The temp folder the spill folders go in: the first of $TMPDIR and /tmp no other user controls. */
function spillBase(): string {
  return firstSafeDir([tmpdir(), "/tmp"], "command output files");
}

let processDir: ProcessDir | undefined;

function spillDir(): string {
  if (processDir) return processDir.dir;
  const made = createProcessDir(spillBase(), NAME);
  processDir = made;
  // 'exit' runs on every ending pig takes itself (a signal pig handles exits through it too).
  process.once("exit", () => made.remove());
  return made.dir;
}

export interface SpillFile {
  path: string;
  fd: number;
}

/** The spill files of one session; each session (and the process, for callers without one) has its own set. */
export class SpillFiles {
  private readonly paths = new Set<string>();

  /** A new private file for a command's output (or, `kind` "tool", a tool's), open for writing. */
  open(kind: "bash" | "tool" = "bash"): SpillFile {
    const path = join(spillDir(), `${kind}-${randomHex(8)}.log`);
    const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
    this.paths.add(path);
    return { path, fd };
  }

  /** A new private file holding `data`; returns its path. */
  write(data: string, kind: "bash" | "tool" = "bash"): string {
    const file = this.open(kind);
    try {
      writeSync(file.fd, data);
    } finally {
      closeSync(file.fd);
    }
    return file.path;
  }

  /** Removes every file of this set (the session they belonged to is gone from this process). */
  removeAll(): void {
    for (const path of this.paths) rmSync(path, { force: true });
    this.paths.clear();
  }
}

/** Removes the spill folders of pig processes that are gone (killed before they could). */
export function removeSpillLeftovers(base?: string): void {
  let parent: string;
  try {
    parent = userDirPath(base ?? spillBase(), NAME);
  } catch {
    // No safe temp folder: nothing of ours can be there.
    return;
  }
  if (isOwnDir(parent)) removeDeadProcessDirs(parent);
}

/** The set for callers that run commands outside a session. */
export const processSpillFiles = new SpillFiles();
