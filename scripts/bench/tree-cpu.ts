// CPU time and memory of a running process tree, read from /proc: a process and every process
// whose parent chain leads to it, at the moment of the call.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface TreeUsage {
  /** utime + stime of every process in the tree, in ms. */
  cpuMs: number;
  /** Sum of each process's VmHWM (peak RSS so far), in bytes. */
  hwmBytes: number;
  pids: number[];
}

interface Stat {
  ppid: number;
  cpuTicks: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name, in parentheses, may hold spaces: fields are counted after its last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

function hwm(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The tree under `root` now. A process that has exited no longer counts (pig and Pi start none while streaming). */
export function treeUsage(root: number): TreeUsage {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.set(Number(name), stat);
  }
  const inTree = new Set<number>([root]);
  // Parents may be listed after their children: repeat until nothing is added.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, stat] of stats) {
      if (!inTree.has(pid) && inTree.has(stat.ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  const pids = [...inTree].filter((pid) => stats.has(pid));
  const ticks = pids.reduce((sum, pid) => sum + stats.get(pid)!.cpuTicks, 0);
  return { cpuMs: (ticks * 1000) / TICKS_PER_SECOND, hwmBytes: pids.reduce((sum, pid) => sum + hwm(pid), 0), pids };
}
