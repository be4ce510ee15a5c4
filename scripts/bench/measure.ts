// Running commands and timing them: wall clock and peak RSS of one run, and rounds that
// interleave pig with every Pi release so a change in background load hits all of them alike.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import type { PiRelease } from "./pi-install.ts";

/** Who is measured: pig, or one upstream release. */
export type Contender = "pig" | PiRelease;

export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

/** Linear-interpolated percentile (p in 0..100). */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new Error("percentile of an empty sample");
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] ?? 0;
  const b = sorted[hi] ?? a;
  return a + (b - a) * (rank - lo);
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Also measure peak RSS (wraps the command in GNU time, costing ~1 ms of wall time). */
  rss?: boolean;
  /** The exit code a run must end with (default 0): a refusal can be the work being timed. */
  exitCode?: number;
}

export interface RunSample {
  ms: number;
  /** Peak resident set size of the command in bytes; NaN when not measured. */
  maxRssBytes: number;
}

const GNU_TIME = "/usr/bin/time";
let gnuTime: boolean | undefined;
function hasGnuTime(): boolean {
  gnuTime ??= existsSync(GNU_TIME) && Bun.spawnSync([GNU_TIME, "-f", "%M", "true"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
  return gnuTime;
}

/**
 * Runs cmd once with stdin from /dev/null and stdout to /dev/null; returns wall time (and peak
 * RSS if asked). Not Bun's proc.resourceUsage().maxRSS: Linux carries the rusage high-water
 * mark across fork+exec, so it reports at least the benchmark process's own RSS (~300 MB after
 * generating a 50 MB session) even for /bin/true. GNU time forks from a ~1 MB process, so its %M
 * is the command's.
 */
export async function runOnce(cmd: readonly string[], opts: RunOptions = {}): Promise<RunSample> {
  const rssFile = opts.rss && hasGnuTime() ? join(tmpdir(), `pig-bench-rss-${process.pid}.txt`) : undefined;
  const argv = rssFile === undefined ? [...cmd] : [GNU_TIME, "-f", "%M", "-o", rssFile, ...cmd];
  const start = performance.now();
  const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: opts.env, cwd: opts.cwd });
  // Drain stderr concurrently so a chatty child cannot block on a full pipe.
  const stderr = new Response(proc.stderr).text();
  const polled = opts.rss && rssFile === undefined ? pollVmHwm(proc) : undefined;
  const code = await proc.exited;
  const ms = performance.now() - start;
  if (code !== (opts.exitCode ?? 0)) throw new Error(`${cmd.join(" ")} exited with ${code}:\n${(await stderr).slice(-2000)}`);
  let maxRssBytes = Number.NaN;
  if (rssFile !== undefined) {
    maxRssBytes = Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1)) * 1024;
    rmSync(rssFile, { force: true });
  } else if (polled !== undefined) maxRssBytes = await polled;
  return { ms, maxRssBytes };
}

/** Fallback without GNU time: the exec'd image's VmHWM, sampled until exit (can miss a final spike). */
async function pollVmHwm(proc: Subprocess): Promise<number> {
  let last = Number.NaN;
  while (proc.exitCode === null && proc.signalCode === null) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"));
      if (m) last = Number(m[1]) * 1024;
    } catch {
      // Exited between the check and the read; keep the last sample.
    }
    await Bun.sleep(5);
  }
  return last;
}

/**
 * Runs every contender `warmup` times unmeasured (page cache, compile caches), then `runs`
 * measured rounds. Each round runs every contender once; the order rotates from round to round,
 * so none of them always runs right after the same neighbour.
 */
export async function interleave<K extends string, S>(
  label: string,
  keys: readonly K[],
  runs: number,
  warmup: number,
  run: (key: K) => Promise<S>,
): Promise<Map<K, S[]>> {
  for (let i = 0; i < warmup; i++) for (const key of keys) await run(key);
  const out = new Map<K, S[]>(keys.map((k) => [k, []]));
  process.stderr.write(`[bench] ${label}: measuring `);
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < keys.length; j++) {
      const key = keys[(i + j) % keys.length]!;
      out.get(key)!.push(await run(key));
    }
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  return out;
}

export interface Side {
  cmd: readonly string[];
  opts: RunOptions;
}

/** `interleave` over plain commands: each contender's samples. */
export function timeSides<K extends string>(label: string, sides: ReadonlyMap<K, Side>, runs: number, warmup: number): Promise<Map<K, RunSample[]>> {
  return interleave(label, [...sides.keys()], runs, warmup, (key) => {
    const side = sides.get(key)!;
    return runOnce(side.cmd, side.opts);
  });
}

export const medianMs = (s: readonly RunSample[]): number => median(s.map((x) => x.ms));
export const maxRss = (s: readonly RunSample[]): number => Math.max(...s.map((x) => x.maxRssBytes));
export const medianRss = (s: readonly RunSample[]): number => median(s.map((x) => x.maxRssBytes));

/** Runs cmd to completion and parses its stdout as JSON; used for the untimed same-output checks. */
export async function captureJson(cmd: readonly string[], opts: RunOptions = {}): Promise<unknown> {
  const proc = Bun.spawn([...cmd], { stdin: "ignore", stdout: "pipe", stderr: "inherit", env: opts.env, cwd: opts.cwd });
  const out = await new Response(proc.stdout).text();
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited with ${code}`);
  return JSON.parse(out);
}

/** Removes a benchmark's temp dir unless --keep asked to leave it for manual re-runs. */
export function cleanup(dir: string, keep: boolean): void {
  if (keep) console.error(`[bench] kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

const DIST_PIG = resolve(import.meta.dir, "..", "..", "dist", "pig");
let chosenPig: string | undefined;

/** The binary measured as pig when it is not dist/pig (`--pig PATH`), for the summary. */
export function otherPigBinary(): string | undefined {
  return chosenPig !== undefined && chosenPig !== DIST_PIG ? chosenPig : undefined;
}

/**
 * Absolute path of the pig binary (`--pig PATH`, else dist/pig); exits with a clear message when
 * it has not been built.
 */
export function requirePig(args: { pigBin?: string | undefined } = {}): string {
  const bin = resolve(args.pigBin ?? DIST_PIG);
  chosenPig = bin;
  if (!existsSync(bin)) {
    console.error(`[bench] ${bin} not found: run npm run build first (or pass --pi-only to measure Pi alone)`);
    process.exit(1);
  }
  return bin;
}

export function pigEnv(agentDir: string): Record<string, string | undefined> {
  return { ...process.env, PIG_CODING_AGENT_DIR: agentDir };
}

/**
 * Drops the page cache of each file (GNU dd's `iflag=nocache`, posix_fadvise DONTNEED), so the
 * next run maps the executable as read back from disk. Without it, peak RSS depends on the file's
 * history rather than on the program: a binary written moments ago (a fresh build) sits in large
 * page-cache folios, which the kernel maps whole on the first fault, and that adds up to ~5 MB of
 * file pages to pig's `-p` run. The file is synced first, as pages not yet written back (a build
 * of a moment ago) cannot be dropped. Pages that a running process has mapped stay cached;
 * nothing is changed or deleted.
 */
export function dropPageCache(paths: readonly string[]): void {
  for (const path of paths) {
    if (!existsSync(path)) continue;
    Bun.spawnSync(["sync", path], { stdout: "ignore", stderr: "ignore" });
    Bun.spawnSync(["dd", `if=${path}`, "iflag=nocache", "count=0", "status=none"], { stdout: "ignore", stderr: "ignore" });
  }
}
