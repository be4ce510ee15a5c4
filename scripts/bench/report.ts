// The summary every benchmark ends with: one row per figure, pig beside each Pi release that
// was measured, pig's ratio against each of them, and the target judged against the latest Pi.
import { appendFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { resolve } from "node:path";
import type { PiInstall, PiRelease } from "./pi-install.ts";
import { otherPigBinary } from "./measure.ts";

/** How pig's figure is set against a Pi release's: `speed` = Pi / pig ("12.3×"), `share` = pig / Pi ("0.33"). */
export type RatioKind = "speed" | "share" | "none";

export type Target =
  /** Pi / pig ≥ factor, worded "≥ N× faster" (or "lower", for overheads). */
  | { kind: "speed"; factor: number; word: "faster" | "lower" }
  /** pig / Pi ≤ max. */
  | { kind: "share"; max: number; text: string }
  /** pig's own figure ≤ max, whatever Pi's. */
  | { kind: "absolute"; max: number; text: string }
  /** pig's figure below Pi's. */
  | { kind: "beats"; text: string };

export interface Row {
  metric: string;
  pig: number | undefined;
  pi: Partial<Record<PiRelease, number>>;
  /** Text shown instead of a figure for a release (say, what it cannot do). */
  piNote?: Partial<Record<PiRelease, string>>;
  format: (value: number) => string;
  ratio: RatioKind;
  /** No target: shown for information, with "—", and ignored by --check. */
  target?: Target;
}

export interface Report {
  title: string;
  releases: readonly PiInstall[];
  rows: readonly Row[];
  /** Exact command lines: pig's, and each release's. */
  commands: { pig: string; pi: Partial<Record<PiRelease, string>> };
  /** Lines printed under the table: how a figure was made, what a release could not do. */
  notes?: readonly string[];
}

export const fmtMs = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`);
export const fmtMB = (bytes: number): string => (Number.isNaN(bytes) ? "n/a" : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
export const fmtNumber = (digits: number) => (value: number): string => value.toFixed(digits);

function ratioText(kind: RatioKind, pig: number | undefined, pi: number | undefined): string {
  if (kind === "none" || pig === undefined || pi === undefined || Number.isNaN(pig) || Number.isNaN(pi)) return kind === "none" ? "—" : "n/a";
  if (kind === "speed") return `${(pi / pig).toFixed(1)}×`;
  return (pig / pi).toFixed(2);
}

function targetText(t: Target | undefined): string {
  if (t === undefined) return "—";
  if (t.kind === "speed") return `≥ ${t.factor}× ${t.word}`;
  return t.text;
}

/** true / false, or undefined when there is nothing to judge (pig or the latest Pi not measured). */
export function judge(row: Row): boolean | undefined {
  const t = row.target;
  const pig = row.pig;
  if (t === undefined || pig === undefined || Number.isNaN(pig)) return undefined;
  if (t.kind === "absolute") return pig <= t.max;
  const latest = row.pi.latest;
  if (latest === undefined || Number.isNaN(latest)) return undefined;
  if (t.kind === "speed") return latest / pig >= t.factor;
  if (t.kind === "share") return pig / latest <= t.max;
  return pig < latest;
}

function metText(row: Row): string {
  if (row.target === undefined) return "—";
  const met = judge(row);
  if (met === undefined) return row.pig === undefined ? "n/a" : "n/a (latest Pi not run)";
  return met ? "yes" : "NO";
}

const releaseLabel = (p: PiInstall): string => (p.release === "latest" ? `${p.version} (latest)` : p.version);

function table(header: readonly string[], body: readonly (readonly string[])[]): string[] {
  const widths = header.map((_, c) => Math.max(...[header, ...body].map((row) => (row[c] ?? "").length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)];
}

let nodeVersions: Map<string, string> | undefined;
function nodeVersion(node: string): string {
  nodeVersions ??= new Map();
  let v = nodeVersions.get(node);
  if (v === undefined) {
    const out = Bun.spawnSync([node, "--version"], { stdout: "pipe", stderr: "ignore" });
    v = out.exitCode === 0 ? out.stdout.toString().trim() : "unknown";
    nodeVersions.set(node, v);
  }
  return v;
}

function pigCommit(): string {
  const root = resolve(import.meta.dir, "..", "..");
  const rev = Bun.spawnSync(["git", "-C", root, "rev-parse", "--short", "HEAD"], { stdout: "pipe", stderr: "ignore" });
  const dirty = Bun.spawnSync(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"], { stdout: "pipe", stderr: "ignore" });
  const hash = rev.exitCode === 0 ? rev.stdout.toString().trim() : "unknown";
  return dirty.stdout.toString().trim() === "" ? hash : `${hash} + uncommitted changes`;
}

/** Prints the report as an aligned Markdown table with its context, and records it for all.ts. */
export function printReport(report: Report, check: boolean): void {
  const { releases, rows } = report;
  const header = [
    "metric",
    "pig",
    ...releases.map((p) => `Pi ${releaseLabel(p)}`),
    ...releases.map((p) => `pig vs ${p.version}`),
    "target (vs latest)",
    "met",
  ];
  const body = rows.map((row) => [
    row.metric,
    row.pig === undefined ? "n/a" : row.format(row.pig),
    ...releases.map((p) => row.piNote?.[p.release] ?? (row.pi[p.release] === undefined ? "n/a" : row.format(row.pi[p.release]!))),
    ...releases.map((p) => (row.piNote?.[p.release] !== undefined ? "—" : ratioText(row.ratio, row.pig, row.pi[p.release]))),
    targetText(row.target),
    metText(row),
  ]);
  console.log(`\n=== ${report.title} ===`);
  for (const line of table(header, body)) console.log(line);
  const cores = cpus();
  console.log(`machine: ${cores.length} cores (${cores[0]?.model.trim() ?? "unknown"}), ${Math.round(totalmem() / 2 ** 30)} GB, ${process.platform} ${process.arch}; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`);
  const other = otherPigBinary();
  console.log(`pig: ${other === undefined ? pigCommit() : `${other} (--pig)`}, Bun ${Bun.version}; ${releases.map((p) => `Pi ${p.version} on Node ${nodeVersion(p.node)}`).join("; ")}`);
  console.log("ratios: times are Pi ÷ pig (higher is better for pig); memory is pig ÷ Pi (lower is better). Targets are judged against the latest Pi.");
  for (const note of report.notes ?? []) console.log(`note: ${note}`);
  console.log(`pig command: ${report.commands.pig}`);
  for (const p of releases) console.log(`Pi ${p.version} command: ${report.commands.pi[p.release] ?? "(not run)"}`);
  if (check && rows.some((r) => r.target !== undefined && judge(r) !== true)) process.exitCode = 1;
  record(report);
}

/** A row of the overview all.ts prints at the end (one line per target). */
export interface RecordedTarget {
  benchmark: string;
  metric: string;
  pig: string;
  latest: string;
  ratio: string;
  target: string;
  met: string;
  /** The commands that made the figures: pig's, and the latest Pi's. */
  pigCommand?: string;
  latestCommand?: string;
}

// all.ts names a file here; each benchmark appends its targets to it as JSON lines.
export const RESULTS_ENV = "PIG_BENCH_RESULTS";

function record(report: Report): void {
  const file = process.env[RESULTS_ENV];
  if (!file) return;
  const latest = report.releases.find((p) => p.release === "latest");
  for (const row of report.rows) {
    if (row.target === undefined) continue;
    const entry: RecordedTarget = {
      benchmark: report.title.split(":")[0] ?? report.title,
      metric: row.metric,
      pig: row.pig === undefined ? "n/a" : row.format(row.pig),
      latest: latest === undefined || row.pi.latest === undefined ? "n/a" : `${row.format(row.pi.latest)} (${latest.version})`,
      ratio: ratioText(row.ratio, row.pig, row.pi.latest),
      target: targetText(row.target),
      met: metText(row),
      pigCommand: report.commands.pig,
      ...(latest === undefined ? {} : { latestCommand: report.commands.pi.latest ?? "(not run)" }),
    };
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
  }
}

/** Prints the overview of every recorded target (all.ts, after the last benchmark). */
export function printOverview(entries: readonly RecordedTarget[]): void {
  console.log("\n=== targets, against the latest Pi ===");
  const body = entries.map((e) => [e.benchmark, e.metric, e.pig, e.latest, e.ratio, e.target, e.met]);
  for (const line of table(["benchmark", "metric", "pig", "latest Pi", "ratio", "target", "met"], body)) console.log(line);
  // The command lines behind the rows, once per benchmark.
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.benchmark) || e.pigCommand === undefined) continue;
    seen.add(e.benchmark);
    console.log(`${e.benchmark}: pig: ${e.pigCommand}`);
    if (e.latestCommand !== undefined) console.log(`${e.benchmark}: latest Pi: ${e.latestCommand}`);
  }
}

/** Shell-quotes argv for the printed, copy-pasteable command lines. */
export function shellLine(argv: readonly string[], env: Record<string, string> = {}): string {
  const q = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
  return [...Object.entries(env).map(([k, v]) => `${k}=${q(v)}`), ...argv.map(q)].join(" ");
}
