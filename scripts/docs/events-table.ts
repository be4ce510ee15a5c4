/**
 * Writes what is derived from the event table (src/util/extension-events.ts) for readers outside
 * the TypeScript sources: the event table of docs/extension-protocol.md (between its markers) and
 * test/fixtures/extension-events/events.json, which the SDKs' tests read. `--check` writes
 * nothing and fails when either is out of date.
 *
 *   bun scripts/docs/events-table.ts [--check]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DERIVED_FILES, derivedText } from "./events-derived.ts";

const ROOT = join(import.meta.dir, "..", "..");
const check = process.argv.includes("--check");
let stale = 0;
for (const file of DERIVED_FILES) {
  const path = join(ROOT, file);
  const current = readFileSync(path, "utf8");
  const wanted = derivedText(file, current);
  if (current === wanted) continue;
  if (check) {
    process.stderr.write(`${file} is out of date: run bun scripts/docs/events-table.ts\n`);
    stale++;
  } else {
    writeFileSync(path, wanted);
    process.stdout.write(`wrote ${file}\n`);
  }
}
process.exit(stale > 0 ? 1 : 0);
