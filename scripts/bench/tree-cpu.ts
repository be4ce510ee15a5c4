// CPU time and memory of a running process tree, read from /proc: a process and every process
// whose parent chain leads to it, at the moment of the call.
import { addDescendants, allStats, peakRssOf } from "./tree-rss.ts";

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface TreeUsage {
  /** utime + stime of every process in the tree, in ms. */
  cpuMs: number;
  /** Sum of each process's VmHWM (peak RSS so far), in bytes. */
  hwmBytes: number;
  pids: number[];
}

/** The tree under `root` now. A process that has exited no longer counts (pig and Pi start none while streaming). */
export function treeUsage(root: number): TreeUsage {
  const stats = allStats();
  const inTree = new Set<number>([root]);
  addDescendants(stats, inTree);
  const pids = [...inTree].filter((pid) => stats.has(pid));
  const ticks = pids.reduce((sum, pid) => sum + stats.get(pid)!.cpuTicks, 0);
  return { cpuMs: (ticks * 1000) / TICKS_PER_SECOND, hwmBytes: pids.reduce((sum, pid) => sum + (peakRssOf(pid) ?? 0), 0), pids };
}
