/**
 * Runs the fault-injection suite (test/faults) and prints the figures of the run as the table
 * docs/reliability.md shows: for each fault, the cases run and the cases that broke a promise.
 *
 *   bun scripts/fault-figures.ts
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const file = join(mkdtempSync(join(tmpdir(), "pig-faults-")), "figures.jsonl");
const proc = Bun.spawn([process.execPath, "test", "--timeout", "120000", "test/faults"], {
  cwd: root,
  env: { ...process.env, PIG_FAULT_FIGURES: file },
  stdout: "inherit",
  stderr: "inherit",
});
const code = await proc.exited;
let lines: { fault: string; cases: number; failures: number; note?: string }[] = [];
try {
  lines = readFileSync(file, "utf8").trimEnd().split("\n").filter(Boolean).map((l) => JSON.parse(l));
} catch {
  // No figures: the run failed before any case.
}
const date = new Date().toISOString().slice(0, 10);
console.log(`\n| fault | cases | failures | notes |\n| --- | ---: | ---: | --- |`);
for (const l of lines) console.log(`| ${l.fault} | ${l.cases} | ${l.failures} | ${l.note ?? ""} |`);
const cases = lines.reduce((n, l) => n + l.cases, 0);
const failures = lines.reduce((n, l) => n + l.failures, 0);
console.log(`| **all (${date})** | **${cases}** | **${failures}** | |`);
process.exit(code);
