// Runs every benchmark in sequence (one at a time, so they do not compete for the 2 cores),
// forwarding the command-line options, e.g. `--pi-only` or `--check`.
import { join } from "node:path";

const SCRIPTS = ["startup.ts", "open-session.ts", "list-sessions.ts"];

let failed = 0;
for (const script of SCRIPTS) {
  console.log(`\n##### ${script}`);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, script), ...Bun.argv.slice(2)], { stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) {
    failed++;
    console.log(`##### ${script} FAILED (exit ${proc.exitCode})`);
  }
}
if (failed > 0) process.exit(1);
