// Runs every benchmark in sequence (one at a time, so they never compete for CPU or page cache),
// forwarding the command-line options (e.g. `--pi latest`, `--pi-only`, `--check`), then prints
// every target of the run in one table, judged against the latest Pi.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commonArgs } from "./options.ts";
import { requirePig } from "./measure.ts";
import { printOverview, RESULTS_ENV, type RecordedTarget } from "./report.ts";

const SCRIPTS = ["startup.ts", "open-session.ts", "list-sessions.ts", "agent.ts", "long-session.ts", "compaction-prep.ts", "replay.ts", "extensions.ts", "interactive-stream.ts"];

// Fail once, up front, on bad options or a missing binary, rather than once per script.
const args = commonArgs({ runs: 1, warmup: 0 });
if (!args.piOnly) requirePig(args);

const dir = mkdtempSync(join(tmpdir(), "pig-bench-all-"));
const results = join(dir, "targets.jsonl");
let failed = 0;
try {
  for (const script of SCRIPTS) {
    console.log(`\n##### ${script}`);
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, script), ...Bun.argv.slice(2)], {
      stdout: "inherit",
      stderr: "inherit",
      env: { ...process.env, [RESULTS_ENV]: results },
    });
    if ((await proc.exited) !== 0) {
      failed++;
      console.log(`##### ${script} FAILED (exit ${proc.exitCode})`);
    }
  }
  const entries = existsSync(results)
    ? readFileSync(results, "utf8").trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as RecordedTarget)
    : [];
  printOverview(entries);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed > 0) process.exit(1);
