// Cold start: `pig --version` vs `pi --version`. Both print a version and exit, so this measures
// process start-up and module loading — the floor of every CLI invocation.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup, commonArgs, ensurePi, fmtMs, medianMs, piEnv, pigEnv, PI_VERSION, printSummary, requirePig, shellLine, timeBoth } from "./pi-install.ts";

const args = commonArgs({ runs: 20, warmup: 2 });
const pig = args.piOnly ? undefined : requirePig();
const pi = ensurePi();
const work = mkdtempSync(join(tmpdir(), "pig-bench-startup-"));
try {
  // Empty agent dirs so neither side reads the user's real settings.
  const agentDir = join(work, "agent");

  // Pi prints its version on stderr (stdout is reserved in non-interactive mode); check it once
  // so we are sure the timed runs exercise a working install.
  const check = Bun.spawnSync([pi.bin, "--version"], { env: piEnv(agentDir), stdout: "pipe", stderr: "pipe" });
  const printed = `${check.stdout.toString()}${check.stderr.toString()}`.trim();
  if (check.exitCode !== 0 || !printed.includes(PI_VERSION)) throw new Error(`pi --version printed ${JSON.stringify(printed)} (exit ${check.exitCode})`);

  const pigCmd = pig === undefined ? undefined : [pig, "--version"];
  const piCmd = [pi.bin, "--version"];
  const pigSide = pigCmd === undefined ? undefined : { cmd: pigCmd, opts: { env: pigEnv(agentDir), cwd: work } };
  const piSide = { cmd: piCmd, opts: { env: piEnv(agentDir), cwd: work } };
  const { pig: pigRuns, pi: piRuns } = await timeBoth(pigSide, piSide, args.runs, args.warmup);

  const piMs = medianMs(piRuns);
  const pigMs = pigRuns === undefined ? undefined : medianMs(pigRuns);
  printSummary(
    `startup: --version, median of ${args.runs} runs after ${args.warmup} warm-up`,
    [
      {
        metric: "wall time (median)",
        pig: pigMs === undefined ? "n/a" : fmtMs(pigMs),
        pi: fmtMs(piMs),
        ratio: pigMs === undefined ? "n/a" : `${(piMs / pigMs).toFixed(1)}× faster`,
        target: "≥ 40× faster",
        met: pigMs === undefined ? undefined : piMs / pigMs >= 40,
      },
    ],
    { pig: pigCmd === undefined ? "(not run: --pi-only)" : shellLine(pigCmd), pi: shellLine(piCmd, { PI_OFFLINE: "1" }) },
    args.check,
  );
} finally {
  cleanup(work, args.keep);
}
