// Compaction preparation, without the LLM call: everything pig does before it can send the summary
// request, on generated linear branches of 10,000, 20,000 and 40,000 entries:
//   SessionStore.open(FILE) → store.getBranch() → prepareCompaction(branch, settings)
//   → serializeConversation(convertToLlm(preparation.messagesToSummarize))
// pig's steps are timed in a child process (Bun on src/): `--warmup` unmeasured rounds, then
// `--runs` measured ones, with a full GC (untimed) before each run so one run's garbage is not
// collected inside the next one's time. The child measures all three sizes, alternating them
// round by round, so background load spreads over every size instead of skewing the growth ratio.
// The target is that pig's time grows no faster than linearly: t(40k) / t(10k) ≤ 4.5.
// Against Pi, the commands race as a user runs them, at 40,000 entries: `--mode rpc --session
// COPY` and a `compact` command, from the spawn until the summary request reaches the fake LLM
// server (pig's built binary; each Pi release through its package's bin). That is start-up, the
// open, the preparation and the serialisation; the process is stopped once the request is in.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeSession } from "./gen-sessions.ts";
import { commonArgs } from "./options.ts";
import { ensurePis, PI_QUIET_ENV, piEnv, type PiRelease } from "./pi-install.ts";
import { cleanup, interleave, median, pigEnv, requirePig } from "./measure.ts";
import { type CompactSample, type CompactSide, RequestWaiter, timeCompactCommand } from "./compact-command.ts";
import { writeFakeAgentDir } from "./fake-agent.ts";
import { startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
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
const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const src = resolve(import.meta.dir, "..", "..", "src");
const work = mkdtempSync(join(tmpdir(), "pig-bench-compaction-"));
try {
  const pigScript = join(work, "pig-prep.ts");
  await Bun.write(pigScript, PIG_SCRIPT);
  const head = [String(args.runs), String(args.warmup), JSON.stringify(SETTINGS)];

  // The sessions' recorded working directory: the commands run there (both refuse a missing one).
  const cwd = join(work, "cwd");
  await Bun.write(join(cwd, ".keep"), "");
  const files: Array<{ entries: number; bytes: number; path: string }> = [];
  for (const entries of SIZES) {
    const path = join(work, `session-${entries}.jsonl`);
    const gen = await writeSession(path, { targetBytes: Math.round(entries * BYTES_PER_ENTRY), entries, seed: 1, cwd });
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

  // The commands, raced in interleaved rounds at 40,000 entries: pig's binary and each Pi's bin.
  const waiter = new RequestWaiter();
  const llm = await startFakeLlm({ mode: "text", onRequest: (r) => waiter.arrived(r) });
  const compactSettings = { compaction: { enabled: true, ...SETTINGS } };
  const sides = new Map<"pig" | PiRelease, CompactSide>();
  const lines: { pig: string; pi: Partial<Record<PiRelease, string>> } = { pig: "(not run: --pi-only)", pi: {} };
  const shown = (cmd: readonly string[], env: Record<string, string>) => `echo '{"type":"compact"}' | ${shellLine([...cmd, "--mode", "rpc", "--session", "COPY_OF_40K.jsonl"], env)}`;
  if (pig !== undefined) {
    const agentDir = join(work, "agent-pig");
    writeFakeAgentDir(agentDir, `${llm.url}/v1`, { settings: compactSettings });
    sides.set("pig", { cmd: [pig], env: pigEnv(agentDir), cwd });
    lines.pig = `${shown([pig], { PIG_CODING_AGENT_DIR: agentDir })}  (steps: ${shellLine(pigCmd)})`;
  }
  for (const p of pis) {
    const agentDir = join(work, `agent-pi-${p.version}`);
    writeFakeAgentDir(agentDir, `${llm.url}/v1`, { settings: compactSettings });
    sides.set(p.release, { cmd: p.cmd, env: piEnv(p, agentDir), cwd });
    lines.pi[p.release] = shown(p.cmd, { ...PI_QUIET_ENV, PI_CODING_AGENT_DIR: agentDir });
  }
  let raced: Map<"pig" | PiRelease, CompactSample[]>;
  let run = 0;
  try {
    raced = await interleave("compact command", [...sides.keys()], args.runs, args.warmup, (key) => timeCompactCommand(sides.get(key)!, piFile.path, work, waiter, run++));
  } finally {
    llm.close();
  }
  const racedMs = (key: "pig" | PiRelease) => median((raced.get(key) ?? []).map((x) => x.ms));
  const bodies = (key: "pig" | PiRelease) => median((raced.get(key) ?? []).map((x) => x.bodyChars));
  const notes: string[] = [];
  for (const p of pis) {
    if (!sides.has("pig")) break;
    notes.push(`summary request body at ${PI_SIZE.toLocaleString("en-US")} entries: pig ${(bodies("pig") / 1e6).toFixed(1)} M characters, Pi ${p.version} ${(bodies(p.release) / 1e6).toFixed(1)} M (each serialises the same messages to summarise; 1.6.0 leaves thinking out)`);
  }

  const dash = Object.fromEntries(pis.map((p) => [p.release, "—"])) as Partial<Record<PiRelease, string>>;
  const rows: Row[] = [
    {
      metric: `\`--mode rpc --session\` + \`compact\` of ${PI_SIZE.toLocaleString("en-US")} entries / ${fmtMB(piFile.bytes)}: spawn → summary request (median)`,
      pig: sides.has("pig") ? racedMs("pig") : undefined,
      pi: Object.fromEntries(pis.map((p) => [p.release, racedMs(p.release)])),
      format: fmtMs,
      ratio: "speed",
    },
    ...files.map((f): Row => ({
      metric: `pig's steps, ${f.entries.toLocaleString("en-US")} entries / ${fmtMB(f.bytes)} (median, in-process)`,
      pig: pigRuns.find((x) => x.entries === f.entries)?.ms.total,
      pi: {},
      piNote: dash,
      format: fmtMs,
      ratio: "none",
    })),
  ];
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
      title: `compaction-prep: everything before the summary request; median of ${args.runs} after ${args.warmup} warm-up; reserveTokens ${SETTINGS.reserveTokens}, keepRecentTokens ${SETTINGS.keepRecentTokens}`,
      releases: pis,
      rows,
      commands: lines,
      notes: [...notes, "the growth target is pig's own steps, in-process (open → getBranch → prepareCompaction → serializeConversation(convertToLlm(…))): t(40k) / t(10k); the race with Pi is the command at 40,000 entries"],
    },
    args.check,
  );
  console.log("steps (medians; total = fastest–slowest run):");
  for (const m of pigRuns) console.log(`  pig ${String(m.entries).padStart(6)}: ${steps(m)}`);
  if (t10 !== undefined && t40 !== undefined) {
    console.log(`  pig growth t(40k)/t(10k) per step: ${STEPS.map((s) => `${s} ${(t40.ms[s] / t10.ms[s]).toFixed(2)}`).join(", ")}`);
  }
  if (growth !== undefined && growth > LINEAR_LIMIT) {
    console.log(`NOT LINEAR: pig's preparation time grows faster than linearly, t(40k) / t(10k) = ${growth.toFixed(2)} > ${LINEAR_LIMIT}`);
  }
} finally {
  cleanup(work, args.keep);
}
