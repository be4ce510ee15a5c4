// Opening a large session: `pig sessions show FILE --json` vs each Pi release's
// SessionManager.open(FILE).buildSessionContext() serialised to stdout, on one generated
// 50 MB / 20,000-entry v3 session. Every side reads the whole file, resolves the branch and
// writes the same JSON to /dev/null.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSession } from "./gen-sessions.ts";
import { commonArgs } from "./options.ts";
import { ensurePis, PI_QUIET_ENV, piEnv, piSessionModule, type PiRelease } from "./pi-install.ts";
import { captureJson, cleanup, dropPageCache, maxRss, medianMs, pigEnv, requirePig, type RunSample, type Side, timeSides } from "./measure.ts";
import { fmtMB, fmtMs, printReport, shellLine } from "./report.ts";

const SIZE_MB = 50;
const ENTRIES = 20_000;

// Plain JS so Node runs it as is; the module path is an argument so the script never hardcodes an install.
const PI_SCRIPT = `import { pathToFileURL } from "node:url";
const [modulePath, file] = process.argv.slice(2);
const { SessionManager } = await import(pathToFileURL(modulePath).href);
process.stdout.write(JSON.stringify(SessionManager.open(file).buildSessionContext()));
`;

const args = commonArgs({ runs: 5, warmup: 1 });
const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const work = mkdtempSync(join(tmpdir(), "pig-bench-open-"));
try {
  const agentDir = join(work, "agent");
  const file = join(work, "session.jsonl");
  const gen = await writeSession(file, { targetBytes: SIZE_MB * 1024 * 1024, entries: ENTRIES, seed: 1 });
  Bun.gc(true); // a smaller parent makes each spawn cheaper and steadier
  console.error(`[bench] generated ${file}: ${fmtMB(gen.bytes)}, ${gen.lines} lines`);
  const piScript = join(work, "pi-open.mjs");
  await Bun.write(piScript, PI_SCRIPT);

  const pigCmd = pig === undefined ? undefined : [pig, "sessions", "show", file, "--json"];
  const piCmds = new Map(pis.map((p) => [p.release, [p.node, piScript, piSessionModule(p, args.piEntry), file]]));
  const sides = new Map<"pig" | PiRelease, Side>();
  if (pigCmd !== undefined) sides.set("pig", { cmd: pigCmd, opts: { env: pigEnv(agentDir), cwd: work, rss: true } });
  for (const p of pis) sides.set(p.release, { cmd: piCmds.get(p.release)!, opts: { env: piEnv(p, agentDir), cwd: work, rss: true } });
  // Every executable as read back from disk (see dropPageCache); the warm-up runs read it in again.
  const executables = [...(pig === undefined ? [] : [pig]), ...new Set(pis.map((p) => p.node))];
  dropPageCache(executables);
  const samples = await timeSides("open-session", sides, args.runs, args.warmup);

  // Untimed: every release must produce pig's context, otherwise its ratio compares different work.
  const notes: string[] = [`peak RSS is GNU time's %M; the page cache of ${executables.join(", ")} was dropped before the warm-up runs (dd iflag=nocache)`];
  if (pigCmd !== undefined) {
    const pigOut = await captureJson(pigCmd, { env: pigEnv(agentDir), cwd: work });
    for (const p of pis) {
      const same = Bun.deepEquals(pigOut, await captureJson(piCmds.get(p.release)!, { env: piEnv(p, agentDir), cwd: work }));
      notes.push(`Pi ${p.version}'s context ${same ? "is identical to pig's" : "DIFFERS from pig's (its ratio compares different work)"}`);
    }
  }
  for (const n of notes) console.error(`[bench] ${n}`);

  const per = (f: (s: RunSample[]) => number) => Object.fromEntries(pis.map((p) => [p.release, f(samples.get(p.release)!)])) as Partial<Record<PiRelease, number>>;
  const pigRuns = samples.get("pig");
  printReport(
    {
      title: `open-session: ${fmtMB(gen.bytes)} / ${ENTRIES} entries, median of ${args.runs} rounds (Pi imports ${args.piEntry === "module" ? "dist/core/session-manager.js" : "the package entry"})`,
      releases: pis,
      rows: [
        { metric: "wall time (median)", pig: pigRuns && medianMs(pigRuns), pi: per(medianMs), format: fmtMs, ratio: "speed", target: { kind: "speed", factor: 10, word: "faster" } },
        { metric: "peak RSS (max)", pig: pigRuns && maxRss(pigRuns), pi: per(maxRss), format: fmtMB, ratio: "share", target: { kind: "share", max: 1 / 3, text: "≤ ⅓ (0.33)" } },
      ],
      commands: {
        pig: pigCmd === undefined ? "(not run: --pi-only)" : `${shellLine(pigCmd, { PIG_CODING_AGENT_DIR: agentDir })} > /dev/null`,
        pi: Object.fromEntries(pis.map((p) => [p.release, `${shellLine(piCmds.get(p.release)!, { ...PI_QUIET_ENV, PI_CODING_AGENT_DIR: agentDir })} > /dev/null`])),
      },
      notes,
    },
    args.check,
  );
} finally {
  cleanup(work, args.keep);
}
