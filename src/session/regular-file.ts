/**
 * Opening session files: only regular files. A FIFO would block the open (or the first read)
 * until some other process writes to it, and a device such as /dev/zero never ends; a socket or
 * directory cannot be read as lines. The path is checked first, then opened without blocking
 * (so a FIFO put in its place between the two cannot hold pig), and the open descriptor is
 * checked again, which is what counts.
 */
import { closeSync, constants, fstatSync, openSync, statSync, type Stats } from "node:fs";

/** A path that exists but is not a regular file; `what` says what it is ("a directory", "a FIFO"…). */
export class NotRegularFileError extends Error {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${path} is ${what}, not a regular file`);
    this.name = "NotRegularFileError";
  }
}

/** What a file system object is, in words, for messages. */
export function fileKind(stats: Stats): string {
  if (stats.isFile()) return "a regular file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "not a file";
}

// Windows has no O_NONBLOCK (and no FIFOs in the file system); 0 leaves the flags as they are.
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOCTTY = constants.O_NOCTTY ?? 0;

export type OpenPurpose = "read" | "append" | "lock";

const FLAGS: Record<OpenPurpose, number> = {
  read: constants.O_RDONLY,
  // For an exclusive flock on NFS, which needs a descriptor open for writing.
  lock: constants.O_RDWR,
  // Read too: the last byte tells whether a newline must come first.
  append: constants.O_RDWR | constants.O_APPEND,
};

/**
 * Opens `path` (a link to a regular file counts as one) for reading, appending or locking, or throws:
 * `NotRegularFileError` for anything else, the system's error (ENOENT, EACCES…) otherwise.
 */
export function openRegularFile(path: string, purpose: OpenPurpose = "read"): number {
  const before = statSync(path);
  if (!before.isFile()) throw new NotRegularFileError(path, fileKind(before));
  const fd = openSync(path, FLAGS[purpose] | NONBLOCK | NOCTTY);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(path, fileKind(stats));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}
