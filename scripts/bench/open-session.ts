// Opening a large session: `pig sessions show FILE --json` vs Pi's SessionManager.open(FILE)
// .buildSessionContext() serialised to stdout, on one generated 50 MB / 20,000-entry v3 session.
// Both sides parse the whole file, resolve the branch and write the same JSON to /dev/null.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSession } from "./gen-sessions.ts";
import { captureJson, cleanup, commonArgs, ensurePi, fmtMB, fmtMs, maxRss, medianMs, piEnv, pigEnv, piSessionModule, printSummary, requirePig, shellLine, timeBoth } from "./pi-install.ts";

const SIZE_MB = 50;
const ENTRIES = 20_000;

// Plain JS so Node runs it as is; the module path is an argument so the script never hardcodes an install.
const PI_SCRIPT = `import { pathToFileURL } from "node:url";
const [modulePath, file] = process.argv.slice(2);
const { SessionManager } = await import(pathToFileURL(modulePath).href);
process.stdout.write(JSON.stringify(SessionManager.open(file).buildSessionContext()));
`;

const args = commonArgs({ runs: 5, warmup: 1 });
const pig = args.piOnly ? undefined : requirePig();
const pi = ensurePi();
const work = mkdtempSync(join(tmpdir(), "pig-bench-open-"));
try {
  const agentDir = join(work, "agent");
  const file = join(work, "session.jsonl");
  const gen = await writeSession(file, { targetBytes: SIZE_MB * 1024 * 1024, entries: ENTRIES, seed: 1 });
  Bun.gc(true); // a smaller parent makes each spawn cheaper and steadier
  console.error(`[bench] generated ${file}: ${fmtMB(gen.bytes)}, ${gen.lines} lines`);
  const piScript = join(work, "pi-open.mjs");
  await Bun.write(piScript, PI_SCRIPT);

  const piCmd = ["node", piScript, piSessionModule(pi, args.piEntry), file];
  const pigCmd = pig === undefined ? undefined : [pig, "sessions", "show", file, "--json"];
  const pigSide = pigCmd === undefined ? undefined : { cmd: pigCmd, opts: { env: pigEnv(agentDir), cwd: work, rss: true } };
  const piSide = { cmd: piCmd, opts: { env: piEnv(agentDir), cwd: work, rss: true } };
  const { pig: pigRuns, pi: piRuns } = await timeBoth(pigSide, piSide, args.runs, args.warmup);

  // Untimed: confirm both sides produced the same context, otherwise the ratio compares different work.
  if (pigCmd !== undefined) {
    const same = Bun.deepEquals(await captureJson(pigCmd, { env: pigEnv(agentDir), cwd: work }), await captureJson(piCmd, { env: piEnv(agentDir), cwd: work }));
    console.error(`[bench] pig and Pi output ${same ? "are identical" : "DIFFER (ratio compares different work)"}`);
  }

  const piMs = medianMs(piRuns);
  const piRss = maxRss(piRuns);
  const pigMs = pigRuns === undefined ? undefined : medianMs(pigRuns);
  const pigRss = pigRuns === undefined ? undefined : maxRss(pigRuns);
  printSummary(
    `open-session: ${fmtMB(gen.bytes)} / ${ENTRIES} entries, median of ${args.runs} runs (Pi imports ${args.piEntry === "module" ? "dist/core/session-manager.js" : "the package entry"})`,
    [
      {
        metric: "wall time (median)",
        pig: pigMs === undefined ? "n/a" : fmtMs(pigMs),
        pi: fmtMs(piMs),
        ratio: pigMs === undefined ? "n/a" : `${(piMs / pigMs).toFixed(1)}× faster`,
        target: "≥ 5× faster",
        met: pigMs === undefined ? undefined : piMs / pigMs >= 5,
      },
      {
        metric: "peak RSS (max)",
        pig: pigRss === undefined ? "n/a" : fmtMB(pigRss),
        pi: fmtMB(piRss),
        ratio: pigRss === undefined ? "n/a" : `${(pigRss / piRss).toFixed(2)} of Pi`,
        target: "≤ 0.33 of Pi",
        met: pigRss === undefined ? undefined : pigRss / piRss <= 1 / 3,
      },
    ],
    {
      pig: pigCmd === undefined ? "(not run: --pi-only)" : `${shellLine(pigCmd, { PIG_CODING_AGENT_DIR: agentDir })} > /dev/null`,
      pi: `${shellLine(piCmd, { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" })} > /dev/null`,
    },
    args.check,
  );
} finally {
  cleanup(work, args.keep);
}
