// Listing every session: `pig sessions list --all --json` vs Pi's SessionManager.listAll()
// printed as JSON, over an agent dir of 2,000 sessions in 20 project dirs (mostly 2–200 KB,
// three of 50 MB) — the shape of a long-lived ~/.pi/agent.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateAgentDir } from "./gen-sessions.ts";
import { captureJson, cleanup, commonArgs, ensurePi, fmtMB, fmtMs, medianMs, piEnv, pigEnv, piSessionModule, printSummary, requirePig, shellLine, timeBoth } from "./pi-install.ts";

const CORPUS = { sessions: 2_000, projects: 20, big: 3, bigBytes: 50 * 1024 * 1024, seed: 7 };

// listAll() takes only an optional progress callback and reads PI_CODING_AGENT_DIR itself.
const PI_SCRIPT = `import { pathToFileURL } from "node:url";
const [modulePath] = process.argv.slice(2);
const { SessionManager } = await import(pathToFileURL(modulePath).href);
process.stdout.write(JSON.stringify(await SessionManager.listAll()));
`;

/** Session file paths in a listing, tolerating either a bare array or an object wrapping one. */
function paths(listing: unknown): string[] {
  const arr = Array.isArray(listing) ? listing : typeof listing === "object" && listing !== null ? Object.values(listing).find(Array.isArray) : undefined;
  if (!Array.isArray(arr)) return [];
  return arr.map((s: unknown) => (typeof s === "object" && s !== null && "path" in s ? String(s.path) : "")).sort();
}

const args = commonArgs({ runs: 5, warmup: 1 });
const pig = args.piOnly ? undefined : requirePig();
const pi = ensurePi();
const work = mkdtempSync(join(tmpdir(), "pig-bench-list-"));
try {
  const agentDir = join(work, "agent");
  const t0 = performance.now();
  const gen = await generateAgentDir(agentDir, CORPUS);
  Bun.gc(true); // a smaller parent makes each spawn cheaper and steadier
  console.error(`[bench] generated ${gen.files} sessions (${fmtMB(gen.bytes)}) in ${fmtMs(performance.now() - t0)}`);
  const piScript = join(work, "pi-list.mjs");
  await Bun.write(piScript, PI_SCRIPT);

  const piCmd = ["node", piScript, piSessionModule(pi, args.piEntry)];
  const pigCmd = pig === undefined ? undefined : [pig, "sessions", "list", "--all", "--json"];
  const pigSide = pigCmd === undefined ? undefined : { cmd: pigCmd, opts: { env: pigEnv(agentDir), cwd: work } };
  const piSide = { cmd: piCmd, opts: { env: piEnv(agentDir), cwd: work } };
  const { pig: pigRuns, pi: piRuns } = await timeBoth(pigSide, piSide, args.runs, args.warmup);

  // Untimed: both must list the same files, otherwise the ratio compares different work.
  const piPaths = paths(await captureJson(piCmd, { env: piEnv(agentDir), cwd: work }));
  if (piPaths.length !== CORPUS.sessions) throw new Error(`Pi listed ${piPaths.length} sessions, expected ${CORPUS.sessions}`);
  if (pigCmd !== undefined) {
    const pigPaths = paths(await captureJson(pigCmd, { env: pigEnv(agentDir), cwd: work }));
    const same = pigPaths.length === piPaths.length && pigPaths.every((p, i) => p === piPaths[i]);
    console.error(`[bench] pig listed ${pigPaths.length} sessions; ${same ? "same paths as Pi" : "DIFFERENT paths from Pi (ratio compares different work)"}`);
  }

  const piMs = medianMs(piRuns);
  const pigMs = pigRuns === undefined ? undefined : medianMs(pigRuns);
  printSummary(
    `list-sessions: ${gen.files} sessions / ${fmtMB(gen.bytes)}, median of ${args.runs} runs`,
    [
      {
        metric: "wall time (median)",
        pig: pigMs === undefined ? "n/a" : fmtMs(pigMs),
        pi: fmtMs(piMs),
        ratio: pigMs === undefined ? "n/a" : `${(piMs / pigMs).toFixed(1)}× faster`,
        target: "≥ 10× faster",
        met: pigMs === undefined ? undefined : piMs / pigMs >= 10,
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
