/** Facts about processes the tests started, read from /proc. */
import { readFileSync } from "node:fs";

/** Whether a process with this pid is running (a zombie waiting to be reaped is not). */
export function processAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
