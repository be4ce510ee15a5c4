/**
 * What pig says about an extension process that ended on its own. An exit with the refusal
 * status (launch-env.ts) means the process found someone other than pig's user at the socket
 * it was given; its reason is the last line it wrote to its log since it started.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { EXIT_HOST_REFUSED } from "../launch-env.ts";

const REFUSAL = "refused the host socket: ";
const TAIL_BYTES = 4096;
const MAX_REASON = 300;

export function exitDetail(code: number | null, log: { path: string; startedAt: number }): string {
  if (code === null) return "was killed";
  if (code !== EXIT_HOST_REFUSED) return `exited (code ${code})`;
  const reason = refusalReason(lastLine(log.path, log.startedAt));
  return `refused the host socket: ${reason ?? `exit status ${EXIT_HOST_REFUSED}, its peer was not of pig's user`}`;
}

/** The reason in the process's last line: what follows "refused the host socket: ", or the whole line. */
export function refusalReason(line: string | undefined): string | undefined {
  if (!line) return undefined;
  const at = line.lastIndexOf(REFUSAL);
  const reason = (at >= 0 ? line.slice(at + REFUSAL.length) : line).trim();
  return reason === "" ? undefined : reason.slice(0, MAX_REASON);
}

/** The last non-empty line written to `path` after byte `from` (its size when the process started). */
export function lastLine(path: string, from: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    // A log that shrank meanwhile (rotated) is read from its start.
    const start = Math.max(size >= from ? from : 0, size - TAIL_BYTES);
    const bytes = Buffer.alloc(size - start);
    const n = readSync(fd, bytes, 0, bytes.length, start);
    const lines = bytes.subarray(0, n).toString("utf8").split("\n").map((l) => l.trim()).filter((l) => l !== "");
    return lines.at(-1);
  } finally {
    closeSync(fd);
  }
}

/** The size of the log before a process starts appending to it. */
export function logSize(path: string): number {
  try {
    const fd = openSync(path, "r");
    try {
      return fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  } catch {
    return 0;
  }
}
