// Peak RSS of a whole process tree: the command plus every process it starts (for pig, its
// extension processes). GNU time's %M is the high-water mark of one process; this sums them.
//
// While the command runs, every SAMPLE_INTERVAL_MS: read /proc/*/stat, take the command's pid and every
// process whose parent chain leads to it (plus any process seen in the tree before, which keeps
// being followed after its parent exits and it is re-parented), and read each one's VmHWM from
// /proc/<pid>/status. VmHWM only grows, so the last value seen for a process is its peak (short
// of whatever it gained after the last sample). The total is the sum of those per-process peaks.
// RssAnon (private memory) is sampled alongside, highest value per process: a sum of VmHWM
// counts the pages of a file mapped by several processes (pig's executable, in pig and in each
// extension runner) once per process, a sum of RssAnon leaves file pages out altogether, and
// and Pss (smaps_rollup) shares each page among its mappers: its sum is taken at each sweep
// (a process's Pss rises when another that shared its pages exits), and the highest kept.
// Processes are told apart by pid and start time, so a reused pid is a new process.
import { readdirSync, readFileSync } from "node:fs";

/** Default pause between two sweeps of /proc. */
export const SAMPLE_INTERVAL_MS = 2;

export interface TreeProcess {
  pid: number;
  comm: string;
  /** Last VmHWM seen, in bytes. */
  hwmBytes: number;
  /** Highest RssAnon (private memory) and RssFile (mapped files: the executable, libraries) seen, in bytes. */
  anonBytes: number;
  fileBytes: number;
  /** Highest Pss seen (/proc/<pid>/smaps_rollup): its share of memory, a page mapped by n processes counting 1/n in each. */
  pssBytes: number;
  /** The command itself (the tree's root). */
  root: boolean;
  /** Still alive when the root exited; and for how long after (ms), if it was. */
  outlivedMs: number;
}

export interface TreeSample {
  ms: number;
  /** Sum of every process's peak. */
  totalBytes: number;
  /** The root's own peak (what GNU time's %M reports). */
  rootBytes: number;
  /** Sum of every process's highest RssAnon: the tree's private memory, without file pages counted once per process. */
  anonBytes: number;
  /** Highest sum over the tree, at one sweep, of each process's Pss: shared pages divided among the processes that map them. */
  pssBytes: number;
  processes: TreeProcess[];
  /** Sweeps of /proc made while it ran. */
  sweeps: number;
}

/** What /proc/<pid>/stat says of a process. */
export interface ProcStat {
  ppid: number;
  start: string;
  comm: string;
  /** utime + stime, in clock ticks (USER_HZ). */
  cpuTicks: number;
}
type Stat = ProcStat;

function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid … starttime(22) …"; comm may hold spaces and parentheses.
  const close = text.lastIndexOf(")");
  const comm = text.slice(text.indexOf("(") + 1, close);
  const rest = text.slice(close + 2).split(" ");
  return { ppid: Number(rest[1]), start: rest[19] ?? "", comm, cpuTicks: Number(rest[11]) + Number(rest[12]) };
}

interface Mem {
  hwm: number;
  anon: number;
  file: number;
  pss: number;
}

function readMem(pid: number): Mem | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kb = (field: string) => {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(text);
    return m ? Number(m[1]) * 1024 : 0;
  };
  // A zombie (exited, not yet reaped) has no memory lines left.
  if (!text.includes("VmHWM:")) return undefined;
  let pss = 0;
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    pss = m ? Number(m[1]) * 1024 : 0;
  } catch {
    // Gone between the two reads.
  }
  return { hwm: kb("VmHWM"), anon: kb("RssAnon"), file: kb("RssFile"), pss };
}

/** The peak RSS (VmHWM) of a running process in bytes; undefined when it is gone (or a zombie). */
export function peakRssOf(pid: number): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Adds to `tree` every process of `stats` whose parent chain leads into it (a child can be listed before its parent). */
export function addDescendants(stats: ReadonlyMap<number, ProcStat>, tree: Set<number>): void {
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of stats) {
      if (!tree.has(pid) && tree.has(s.ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
}

/** Every process now, by pid. */
export function allStats(): Map<number, Stat> {
  const out = new Map<number, Stat>();
  for (const name of readdirSync("/proc")) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const pid = Number(name);
    const s = readStat(pid);
    if (s) out.set(pid, s);
  }
  return out;
}

export interface TreeRunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Milliseconds between sweeps (default SAMPLE_INTERVAL_MS). */
  intervalMs?: number;
  /** How long to keep following processes that outlive the root (default 5 s). */
  lingerMs?: number;
  /** Do not throw when the command exits non-zero. */
  allowFailure?: boolean;
}

/** Runs cmd (stdin and stdout /dev/null) and samples its whole process tree until every process in it is gone. */
export async function runTree(cmd: readonly string[], opts: TreeRunOptions = {}): Promise<TreeSample> {
  const interval = opts.intervalMs ?? SAMPLE_INTERVAL_MS;
  const linger = opts.lingerMs ?? 5000;
  const start = performance.now();
  const proc = Bun.spawn([...cmd], { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: opts.env, cwd: opts.cwd });
  const stderr = new Response(proc.stderr).text();
  let exitedAt: number | undefined;
  void proc.exited.then(() => {
    exitedAt = performance.now();
  });
  const rootPid = proc.pid;
  // key "pid:starttime" → what was seen of it.
  const seen = new Map<string, TreeProcess & { key: string }>();
  let rootKey: string | undefined;
  let sweeps = 0;
  let pssPeak = 0;
  const sweep = () => {
    sweeps++;
    const stats = allStats();
    const inTree = new Set<number>();
    const rs = stats.get(rootPid);
    if (rs && (rootKey === undefined || rootKey === `${rootPid}:${rs.start}`)) {
      rootKey = `${rootPid}:${rs.start}`;
      inTree.add(rootPid);
    }
    for (const [pid, s] of stats) if (seen.has(`${pid}:${s.start}`)) inTree.add(pid);
    addDescendants(stats, inTree);
    const now = performance.now();
    let pssNow = 0;
    for (const pid of inTree) {
      const s = stats.get(pid)!;
      const key = `${pid}:${s.start}`;
      const mem = readMem(pid);
      let p = seen.get(key);
      if (!p) {
        p = { key, pid, comm: s.comm, hwmBytes: 0, anonBytes: 0, fileBytes: 0, pssBytes: 0, root: key === rootKey, outlivedMs: 0 };
        seen.set(key, p);
      }
      p.comm = s.comm; // after exec, the new program's name
      if (mem !== undefined) {
        p.hwmBytes = Math.max(p.hwmBytes, mem.hwm);
        p.anonBytes = Math.max(p.anonBytes, mem.anon);
        p.fileBytes = Math.max(p.fileBytes, mem.file);
        p.pssBytes = Math.max(p.pssBytes, mem.pss);
        pssNow += mem.pss;
      }
      if (exitedAt !== undefined && !p.root) p.outlivedMs = now - exitedAt;
    }
    pssPeak = Math.max(pssPeak, pssNow);
    return inTree.size;
  };
  for (;;) {
    const alive = sweep();
    if (exitedAt !== undefined && (alive === 0 || performance.now() - exitedAt > linger)) break;
    await Bun.sleep(interval);
  }
  const code = await proc.exited;
  const ms = (exitedAt ?? performance.now()) - start;
  if (code !== 0 && !opts.allowFailure) throw new Error(`${cmd.join(" ")} exited with ${code}:\n${(await stderr).slice(-2000)}`);
  const processes = [...seen.values()].map(({ key: _key, ...p }) => p);
  return {
    ms,
    totalBytes: processes.reduce((a, p) => a + p.hwmBytes, 0),
    rootBytes: processes.find((p) => p.root)?.hwmBytes ?? Number.NaN,
    anonBytes: processes.reduce((a, p) => a + p.anonBytes, 0),
    pssBytes: pssPeak,
    processes,
    sweeps,
  };
}
