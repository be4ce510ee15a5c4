/**
 * Who is on the other end of the socket. Bun exposes no SO_PEERCRED, so the check works from
 * the pid the peer states in `initialize`: on Linux, /proc must show that process running as our
 * user and inside the process group pig started. A peer could state a false pid, which is why
 * this only adds to the token and the 0700 directory, never replaces them. The pid is required
 * (listener.ts refuses an `initialize` without one). Where /proc is not available (macOS) the
 * check is skipped.
 */
import { readFileSync } from "node:fs";

export function peerProblem(pid: number, pgid: number | undefined): string | undefined {
  let status: string;
  let stat: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return process.platform === "linux" ? `peer pid ${pid} does not exist` : undefined;
  }
  const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
  const myUid = process.getuid?.();
  if (uid !== undefined && myUid !== undefined && Number(uid) !== myUid) return `peer runs as uid ${uid}, not ${myUid}`;
  if (pgid !== undefined) {
    // Field 5 of /proc/<pid>/stat, counted after the parenthesised command name.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const group = Number(fields[2]);
    if (Number.isFinite(group) && group !== pgid) return `peer pid ${pid} is not a process pig started`;
  }
  return undefined;
}
