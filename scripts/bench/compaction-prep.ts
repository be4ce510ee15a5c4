// Compaction preparation, without the LLM call: everything pig does before it can send the summary
// request, on generated linear branches of 10,000, 20,000 and 40,000 entries:
//   SessionStore.open(FILE) → store.getBranch() → prepareCompaction(branch, settings)
//   → serializeConversation(convertToLlm(preparation.messagesToSummarize))
// Every measured Pi release does the same at 40,000 entries, for comparison:
//   SessionManager.open(FILE).getBranch() → prepareCompaction(branch, settings)
//   → serializeConversation(convertToLlm(preparation.messagesToSummarize))
// Each side runs in its own child process (pig: Bun on src/, Pi: Node on its dist/), which times
// the steps in-process: `--warmup` unmeasured rounds, then `--runs` measured ones, with a full GC
// (untimed) before each run so one run's garbage is not collected inside the next one's time.
// pig's child measures all three sizes, alternating them round by round, so background load
// spreads over every size instead of skewing the growth ratio.
// The target is that pig's time grows no faster than linearly: t(40k) / t(10k) ≤ 4.5.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeSession } from "./gen-sessions.ts";
import { commonArgs } from "./options.ts";
import { ensurePis, type PiInstall, type PiRelease } from "./pi-install.ts";
import { cleanup, median } from "./measure.ts";
import { fmtMB, fmtMs, fmtNumber, printReport, type Row, shellLine } from "./report.ts";

const SIZES = [10_000, 20_000, 40_000] as const;
const PI_SIZE = 40_000;
// The same bytes per entry as open-session's 50 MB / 20,000 entries, so the sizes differ only in length.
const BYTES_PER_ENTRY = (50 * 1024 * 1024) / 20_000;
const SETTINGS = { reserveTokens: 16384, keepRecentTokens: 20000 };
const LINEAR_LIMIT = 4.5;

// Both children print one JSON line: per-run step times and, for the untimed same-output check,
// what the preparation came to. Module paths are arguments so nothing hardcodes an install.
const PIG_SCRIPT = `import { createHash } from "node:crypto";
const [src, runs, warmup, settingsJson, ...files] = process.argv.slice(2);
const { SessionStore } = await import(src + "/session/store.ts");
const { prepareCompaction, serializeConversation, isNothingToCompact } = await import(src + "/compaction/index.ts");
const { convertToLlm } = await import(src + "/session/convert.ts");
const settings = JSON.parse(settingsJson);
function once(file) {
  const t0 = performance.now();
  const store = SessionStore.open(file);
  const t1 = performance.now();
  const branch = store.getBranch();
  const t2 = performance.now();
  const prep = prepareCompaction(branch, settings);
  const t3 = performance.now();
  if (prep === undefined || isNothingToCompact(prep)) throw new Error("nothing to compact in " + file);
  const text = serializeConversation(convertToLlm(prep.messagesToSummarize));
  const t4 = performance.now();
  store.close();
  return { ms: { total: t4 - t0, open: t1 - t0, branch: t2 - t1, prepare: t3 - t2, serialize: t4 - t3 }, result: {
    branchLength: branch.length, firstKeptEntryId: prep.firstKeptEntryId, isSplitTurn: prep.isSplitTurn,
    messagesToSummarize: prep.messagesToSummarize.length, turnPrefixMessages: prep.turnPrefixMessages.length,
    tokensBefore: prep.tokensBefore, serializedChars: text.length, serializedSha1: createHash("sha1").update(text).digest("hex"),
  } };
}
// Rounds go through every file in turn (smallest first, then rotated), so a change in background
// load hits all sizes alike instead of whichever size happened to run at the time.
for (let i = 0; i < Number(warmup); i++) for (const file of files) { Bun.gc(true); once(file); }
const out = files.map(() => ({ samples: [], result: undefined }));
for (let i = 0; i < Number(runs); i++) {
  for (let j = 0; j < files.length; j++) {
    const k = (i + j) % files.length;
    Bun.gc(true);
    const r = once(files[k]);
    out[k].samples.push(r.ms);
    out[k].result = r.result;
  }
}
console.log(JSON.stringify(out));
`;

const PI_SCRIPT = `import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
const [core, runs, warmup, settingsJson, ...files] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(core + "/" + p).href);
const { SessionManager } = await load("session-manager.js");
const { prepareCompaction } = await load("compaction/compaction.js");
const { serializeConversation } = await load("compaction/utils.js");
const { convertToLlm } = await load("messages.js");
const settings = JSON.parse(settingsJson);
function once(file) {
  const t0 = performance.now();
  const manager = SessionManager.open(file);
  const t1 = performance.now();
  const branch = manager.getBranch();
  const t2 = performance.now();
  const prep = prepareCompaction(branch, settings);
  const t3 = performance.now();
  if (prep === undefined) throw new Error("nothing to compact in " + file);
  const text = serializeConversation(convertToLlm(prep.messagesToSummarize));
  const t4 = performance.now();
  return { ms: { total: t4 - t0, open: t1 - t0, branch: t2 - t1, prepare: t3 - t2, serialize: t4 - t3 }, result: {
    branchLength: branch.length, firstKeptEntryId: prep.firstKeptEntryId, isSplitTurn: prep.isSplitTurn,
    messagesToSummarize: prep.messagesToSummarize.length, turnPrefixMessages: prep.turnPrefixMessages.length,
    tokensBefore: prep.tokensBefore, serializedChars: text.length, serializedSha1: createHash("sha1").update(text).digest("hex"),
  } };
}
for (let i = 0; i < Number(warmup); i++) for (const file of files) { globalThis.gc(); once(file); }
const out = files.map(() => ({ samples: [], result: undefined }));
for (let i = 0; i < Number(runs); i++) {
  for (let j = 0; j < files.length; j++) {
    const k = (i + j) % files.length;
    globalThis.gc();
    const r = once(files[k]);
    out[k].samples.push(r.ms);
    out[k].result = r.result;
  }
}
console.log(JSON.stringify(out));
`;

type Step = "total" | "open" | "branch" | "prepare" | "serialize";
const STEPS: readonly Step[] = ["total", "open", "branch", "prepare", "serialize"];
type ChildOutput = Array<{ samples: Array<Record<Step, number>>; result: Record<string, unknown> }>;
interface Measured {
  entries: number;
  bytes: number;
  /** Median of each step over the measured runs. */
  ms: Record<Step, number>;
  /** Fastest and slowest measured total, to show how much background load spread the runs. */
  range: [number, number];
  result: Record<string, unknown>;
}

async function runChild(cmd: readonly string[]): Promise<ChildOutput> {
  const proc = Bun.spawn([...cmd], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  if ((await proc.exited) !== 0) throw new Error(`${cmd.join(" ")} exited with ${proc.exitCode}:\n${err.slice(-2000)}`);
  return JSON.parse(out.trim().split("\n").at(-1) ?? "") as ChildOutput;
}

function measured(files: ReadonlyArray<{ entries: number; bytes: number }>, out: ChildOutput): Measured[] {
  return files.map((f, i) => {
    const o = out[i];
    if (o === undefined || o.samples.length === 0) throw new Error(`no samples for ${f.entries} entries`);
    const ms = Object.fromEntries(STEPS.map((s) => [s, median(o.samples.map((x) => x[s]))])) as Record<Step, number>;
    const totals = o.samples.map((x) => x.total);
    return { ...f, ms, range: [Math.min(...totals), Math.max(...totals)], result: o.result };
  });
}

const steps = (m: Measured): string => `${STEPS.slice(1).map((s) => `${s} ${fmtMs(m.ms[s])}`).join(", ")}; total ${fmtMs(m.range[0])}–${fmtMs(m.range[1])}`;

const args = commonArgs({ runs: 5, warmup: 1 });
if (args.runs < 5) console.error(`[bench] note: --runs ${args.runs} is below the 5 runs this benchmark is meant to report`);
const pis = ensurePis(args.pi);
const src = resolve(import.meta.dir, "..", "..", "src");
const work = mkdtempSync(join(tmpdir(), "pig-bench-compaction-"));
try {
  const pigScript = join(work, "pig-prep.ts");
  const piScript = join(work, "pi-prep.mjs");
  await Bun.write(pigScript, PIG_SCRIPT);
  await Bun.write(piScript, PI_SCRIPT);
  const head = [String(args.runs), String(args.warmup), JSON.stringify(SETTINGS)];

  const files: Array<{ entries: number; bytes: number; path: string }> = [];
  for (const entries of SIZES) {
    const path = join(work, `session-${entries}.jsonl`);
    const gen = await writeSession(path, { targetBytes: Math.round(entries * BYTES_PER_ENTRY), entries, seed: 1 });
    files.push({ entries, bytes: gen.bytes, path });
    console.error(`[bench] generated ${path}: ${fmtMB(gen.bytes)}, ${gen.lines} lines`);
  }
  Bun.gc(true); // a smaller parent leaves the children more memory and page cache

  // pig: one process measures every size, alternating them round by round.
  const pigCmd = [process.execPath, pigScript, src, ...head, ...files.map((f) => f.path)];
  let pigRuns: Measured[] = [];
  if (!args.piOnly) {
    console.error(`[bench] measuring pig (${args.warmup} warm-up + ${args.runs} rounds over ${SIZES.length} sizes)…`);
    pigRuns = measured(files, await runChild(pigCmd));
    for (const m of pigRuns) console.error(`[bench] pig ${m.entries}: ${fmtMs(m.ms.total)} (${steps(m)})`);
  }
  const piFile = files.find((f) => f.entries === PI_SIZE);
  if (piFile === undefined) throw new Error(`no ${PI_SIZE}-entry session`);
  // Each release's own dist/core: the four modules exist under the same paths in every measured release.
  const piCmd = (p: PiInstall) => [p.node, "--expose-gc", piScript, join(p.pkgDir, "dist", "core"), ...head, piFile.path];
  const piRuns = new Map<PiRelease, Measured>();
  for (const p of pis) {
    console.error(`[bench] measuring Pi ${p.version} at ${PI_SIZE} entries…`);
    const [run] = measured([piFile], await runChild(piCmd(p)));
    if (run === undefined) throw new Error(`Pi ${p.version} was not measured`);
    piRuns.set(p.release, run);
    console.error(`[bench] pi ${p.version} ${run.entries}: ${fmtMs(run.ms.total)} (${steps(run)})`);
  }

  // Untimed: every side must have planned the same compaction, or a ratio compares different work.
  const notes: string[] = [];
  const pigAtPi = pigRuns.find((m) => m.entries === PI_SIZE);
  for (const p of pis) {
    const run = piRuns.get(p.release)!;
    if (pigAtPi === undefined) continue;
    const diff = Object.keys(run.result).filter((k) => !Bun.deepEquals(pigAtPi.result[k], run.result[k]));
    notes.push(
      diff.length === 0
        ? `pig and Pi ${p.version} prepared the same compaction: ${JSON.stringify(run.result)}`
        : `pig and Pi ${p.version} preparations DIFFER (the ratio compares different work) in ${diff.map((k) => `${k} (pig ${JSON.stringify(pigAtPi.result[k])}, Pi ${JSON.stringify(run.result[k])})`).join(", ")}`,
    );
  }
  for (const n of notes) console.error(`[bench] ${n}`);

  const dash = Object.fromEntries(pis.map((p) => [p.release, "—"])) as Partial<Record<PiRelease, string>>;
  const rows: Row[] = files.map((f) => {
    const m = pigRuns.find((x) => x.entries === f.entries);
    const isPi = f.entries === PI_SIZE;
    return {
      metric: `${f.entries.toLocaleString("en-US")} entries / ${fmtMB(f.bytes)} (median)`,
      pig: m?.ms.total,
      pi: isPi ? Object.fromEntries([...piRuns].map(([r, run]) => [r, run.ms.total])) : {},
      ...(isPi ? {} : { piNote: dash }),
      format: fmtMs,
      ratio: "speed",
    };
  });
  const at = (entries: number): Measured | undefined => pigRuns.find((m) => m.entries === entries);
  const t10 = at(SIZES[0]);
  const t20 = at(SIZES[1]);
  const t40 = at(SIZES[2]);
  const growth = t10 !== undefined && t40 !== undefined ? t40.ms.total / t10.ms.total : undefined;
  rows.push({ metric: "growth t(20k) / t(10k) (linear = 2)", pig: t10 && t20 && t20.ms.total / t10.ms.total, pi: {}, piNote: dash, format: fmtNumber(2), ratio: "none" });
  rows.push({
    metric: "growth t(40k) / t(10k) (linear = 4)",
    pig: growth,
    pi: {},
    piNote: dash,
    format: fmtNumber(2),
    ratio: "none",
    target: { kind: "absolute", max: LINEAR_LIMIT, text: `≤ ${LINEAR_LIMIT}` },
  });

  printReport(
    {
      title: `compaction-prep: open → getBranch → prepareCompaction → serializeConversation(convertToLlm(…)), no LLM call; median of ${args.runs} in-process runs after ${args.warmup} warm-up; reserveTokens ${SETTINGS.reserveTokens}, keepRecentTokens ${SETTINGS.keepRecentTokens}`,
      releases: pis,
      rows,
      commands: { pig: args.piOnly ? "(not run: --pi-only)" : shellLine(pigCmd), pi: Object.fromEntries(pis.map((p) => [p.release, shellLine(piCmd(p))])) },
      notes: [...notes, "the growth target is pig's own (t(40k) / t(10k)); Pi is measured at 40,000 entries only, for the ratio"],
    },
    args.check,
  );
  console.log("steps (medians; total = fastest–slowest run):");
  for (const m of pigRuns) console.log(`  pig ${String(m.entries).padStart(6)}: ${steps(m)}`);
  for (const p of pis) console.log(`  pi ${p.version} ${String(PI_SIZE).padStart(6)}: ${steps(piRuns.get(p.release)!)}`);
  if (t10 !== undefined && t40 !== undefined) {
    console.log(`  pig growth t(40k)/t(10k) per step: ${STEPS.map((s) => `${s} ${(t40.ms[s] / t10.ms[s]).toFixed(2)}`).join(", ")}`);
  }
  if (growth !== undefined && growth > LINEAR_LIMIT) {
    console.log(`NOT LINEAR: pig's preparation time grows faster than linearly, t(40k) / t(10k) = ${growth.toFixed(2)} > ${LINEAR_LIMIT}`);
  }
} finally {
  cleanup(work, args.keep);
}
