/**
 * Writing an export (an HTML page, a branch as JSONL) to the file the user named. An export
 * holds the whole conversation, so it gets the session file's own mode, 0600, whatever the
 * umask says; an existing file that is overwritten is narrowed to 0600 as well.
 */
import { closeSync, constants, fchmodSync, ftruncateSync, openSync, writeSync } from "node:fs";

export interface ExportWriteOptions {
  /** Refuse an existing file (EEXIST) instead of overwriting it. */
  exclusive?: boolean;
}

export function writeExportFile(path: string, content: string, options: ExportWriteOptions = {}): void {
  // Opened without truncating, so the mode is narrowed before the old bytes are replaced.
  const { O_WRONLY, O_CREAT, O_EXCL } = constants;
  const fd = openSync(path, O_WRONLY | O_CREAT | (options.exclusive ? O_EXCL : 0), 0o600);
  try {
    fchmodSync(fd, 0o600);
    ftruncateSync(fd, 0);
    const data = Buffer.from(content, "utf8");
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done, data.length - done);
  } finally {
    closeSync(fd);
  }
}
