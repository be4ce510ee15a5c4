// Runs every benchmark in sequence (one at a time, so they never compete for CPU or page cache),
// forwarding the command-line options, e.g. `--pi-only` or `--check`.
import { join } from "node:path";
import { requirePig } from "./pi-install.ts";

const SCRIPTS = ["startup.ts", "open-session.ts", "list-sessions.ts", "agent.ts", "compaction-prep.ts", "replay.ts"];

// Fail once, up front, rather than once per script with the same message.
if (!Bun.argv.includes("--pi-only")) requirePig();

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
