// Listing every session: `pig sessions list --all --json` vs each Pi release's
// SessionManager.listAll() printed as JSON, over an agent dir of 2,000 sessions in 20 project
// dirs (mostly 2–200 KB, three of 50 MB) — the shape of a long-lived ~/.pi/agent.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateAgentDir } from "./gen-sessions.ts";
import { commonArgs } from "./options.ts";
import { ensurePis, PI_QUIET_ENV, piEnv, piSessionModule, type PiRelease } from "./pi-install.ts";
import { captureJson, cleanup, medianMs, pigEnv, requirePig, type Side, timeSides } from "./measure.ts";
import { fmtMB, fmtMs, printReport, shellLine } from "./report.ts";

const CORPUS = { sessions: 2_000, projects: 20, big: 3, bigBytes: 50 * 1024 * 1024, seed: 7 };

// listAll() takes only optional arguments in every measured release (0.73.1: a progress callback;
// 0.87.1 and later also accept a session dir first) and reads PI_CODING_AGENT_DIR itself.
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
const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const work = mkdtempSync(join(tmpdir(), "pig-bench-list-"));
try {
  const agentDir = join(work, "agent");
  const t0 = performance.now();
  const gen = await generateAgentDir(agentDir, CORPUS);
  Bun.gc(true); // a smaller parent makes each spawn cheaper and steadier
  console.error(`[bench] generated ${gen.files} sessions (${fmtMB(gen.bytes)}) in ${fmtMs(performance.now() - t0)}`);
  const piScript = join(work, "pi-list.mjs");
  await Bun.write(piScript, PI_SCRIPT);

  const pigCmd = pig === undefined ? undefined : [pig, "sessions", "list", "--all", "--json"];
  const piCmds = new Map(pis.map((p) => [p.release, [p.node, piScript, piSessionModule(p, args.piEntry)]]));
  const sides = new Map<"pig" | PiRelease, Side>();
  if (pigCmd !== undefined) sides.set("pig", { cmd: pigCmd, opts: { env: pigEnv(agentDir), cwd: work } });
  for (const p of pis) sides.set(p.release, { cmd: piCmds.get(p.release)!, opts: { env: piEnv(p, agentDir), cwd: work } });
  const samples = await timeSides("list-sessions", sides, args.runs, args.warmup);

  // Untimed: everyone must list the same files, otherwise a ratio compares different work.
  const notes: string[] = [];
  const pigPaths = pigCmd === undefined ? undefined : paths(await captureJson(pigCmd, { env: pigEnv(agentDir), cwd: work }));
  for (const p of pis) {
    const piPaths = paths(await captureJson(piCmds.get(p.release)!, { env: piEnv(p, agentDir), cwd: work }));
    if (piPaths.length !== CORPUS.sessions) throw new Error(`Pi ${p.version} listed ${piPaths.length} sessions, expected ${CORPUS.sessions}`);
    if (pigPaths !== undefined) {
      const same = pigPaths.length === piPaths.length && pigPaths.every((x, i) => x === piPaths[i]);
      notes.push(`pig and Pi ${p.version} ${same ? `list the same ${piPaths.length} paths` : "list DIFFERENT paths (the ratio compares different work)"}`);
    }
  }
  for (const n of notes) console.error(`[bench] ${n}`);

  const pigRuns = samples.get("pig");
  printReport(
    {
      title: `list-sessions: ${gen.files} sessions / ${fmtMB(gen.bytes)}, median of ${args.runs} rounds (Pi imports ${args.piEntry === "module" ? "dist/core/session-manager.js" : "the package entry"})`,
      releases: pis,
      rows: [
        {
          metric: "wall time (median)",
          pig: pigRuns && medianMs(pigRuns),
          pi: Object.fromEntries(pis.map((p) => [p.release, medianMs(samples.get(p.release)!)])),
          format: fmtMs,
          ratio: "speed",
          target: { kind: "speed", factor: 10, word: "faster" },
        },
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
