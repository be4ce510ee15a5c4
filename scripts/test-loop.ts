/**
 * Runs test files again and again, optionally with every core kept busy, and reports which tests
 * failed in which run: the check that a test waits for states rather than for time.
 *
 *   bun scripts/test-loop.ts --runs 20 --busy test/e2e/interactive.test.ts
 *   bun scripts/test-loop.ts --runs 10 --busy --whole        # the whole suite, 10 times in a row
 *   bun scripts/test-loop.ts --runs 20 --busy --each test/e2e test/faults
 *
 * `--each` runs every test file under the given paths on its own, `--runs` times each.
 * `--busy` starts one busy loop per core for the whole loop. Exit code 1 when any run failed.
 */
import { spawn, type Subprocess } from "bun";
import { cpus } from "node:os";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";

const root = join(import.meta.dir, "..");

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "10" },
    busy: { type: "boolean", default: false },
    whole: { type: "boolean", default: false },
    each: { type: "boolean", default: false },
    bail: { type: "boolean", default: false },
  },
});

const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive whole number, not ${values.runs}`);

function testFiles(path: string): string[] {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => relative(root, join(full, name)))
    .sort();
}

const targets: string[][] = values.whole
  ? [[]]
  : values.each
    ? positionals.flatMap(testFiles).map((file) => [file])
    : [positionals];
if (!values.whole && positionals.length === 0) throw new Error("name the test files or folders to run, or pass --whole");

const busy: Subprocess[] = [];
if (values.busy) {
  for (let i = 0; i < cpus().length; i++) {
    busy.push(spawn([process.execPath, "-e", "for (;;) {}"], { stdout: "ignore", stderr: "ignore" }));
  }
}
const stopBusy = () => {
  for (const p of busy) p.kill(9);
};
process.on("SIGINT", () => {
  stopBusy();
  process.exit(130);
});

interface Outcome {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
  seconds: number;
  /** Everything the run printed, kept for a failed run. */
  output: string;
}

/** Where the output of failed runs goes, one file per run. */
const logDir = mkdtempSync(join(tmpdir(), "pig-test-loop-"));

async function runOnce(files: string[]): Promise<Outcome> {
  const started = performance.now();
  const proc = spawn([process.execPath, "test", "--timeout", "60000", ...files], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  const text = `${out}\n${err}`;
  const count = (word: string) => Number(text.match(new RegExp(`^\\s*(\\d+) ${word}$`, "m"))?.[1] ?? 0);
  const failures = [...text.matchAll(/^\(fail\) (.+?)(?: \[[\d.]+m?s\])?$/gm)].map((m) => m[1]!);
  const failed = Math.max(count("fail"), failures.length, proc.exitCode === 0 ? 0 : 1);
  return { passed: count("pass"), failed, skipped: count("skip"), failures, seconds: (performance.now() - started) / 1000, output: text };
}

let failedRuns = 0;
let totalRuns = 0;
const tally = new Map<string, number>();
try {
  for (const files of targets) {
    const name = files.length === 0 ? "whole suite" : files.join(" ");
    let bad = 0;
    for (let run = 1; run <= runs; run++) {
      const outcome = await runOnce(files);
      totalRuns++;
      const line = `${name} run ${run}/${runs}: ${outcome.passed} passed, ${outcome.failed} failed, ${outcome.skipped} skipped (${outcome.seconds.toFixed(1)} s)`;
      console.log(line);
      if (outcome.failed > 0) {
        bad++;
        failedRuns++;
        const log = join(logDir, `${totalRuns}.log`);
        writeFileSync(log, outcome.output);
        console.log(`  output: ${log}`);
        for (const failure of outcome.failures) {
          console.log(`  (fail) ${failure}`);
          const key = `${name} :: ${failure}`;
          tally.set(key, (tally.get(key) ?? 0) + 1);
        }
        if (values.bail) break;
      }
    }
    console.log(`${name}: ${bad} of ${runs} runs failed`);
  }
} finally {
  stopBusy();
}
console.log(`\n${totalRuns - failedRuns} of ${totalRuns} runs passed${values.busy ? ` with ${busy.length} busy loops` : ""}`);
for (const [key, times] of [...tally].sort((a, b) => b[1] - a[1])) console.log(`  ${times}× ${key}`);
process.exit(failedRuns > 0 ? 1 : 0);
