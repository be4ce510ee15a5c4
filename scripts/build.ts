/**
 * Builds `dist/pig`: one executable with the Bun runtime, pig's code as bytecode. The flags, and
 * why each is there, are in build-flags.ts.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { COMPILE_FLAGS, PIG_FLAGS } from "./build-flags.ts";

const root = join(import.meta.dir, "..");
// `--sourcemap` embeds source maps, so that profiles (scripts/bench/profile.ts) and stack traces
// name source files; release builds leave them out.
const sourcemap = process.argv.includes("--sourcemap");
const outfile = process.argv.slice(2).find((a) => a !== "--sourcemap") ?? join(root, "dist", "pig");
mkdirSync(join(outfile, ".."), { recursive: true });

const args = ["build", join(root, "src", "cli", "main.ts"), ...COMPILE_FLAGS, ...PIG_FLAGS, ...(sourcemap ? ["--sourcemap=linked"] : []), "--outfile", outfile];
const proc = Bun.spawnSync([process.execPath, ...args], { stdout: "inherit", stderr: "inherit", cwd: root });
if (proc.exitCode !== 0) {
  console.error(`build failed (exit ${proc.exitCode})`);
  process.exit(proc.exitCode ?? 1);
}
console.log(`built ${outfile}`);
