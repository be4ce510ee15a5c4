/**
 * Builds `dist/pig`: one executable with the Bun runtime, pig's code as bytecode. The flags, and
 * why each is there, are in build-flags.ts. The bytecode is laid out in the order pig's usual
 * runs load it, recorded from a first build (bytecode-order.ts).
 *
 *   bun scripts/build.ts [--sourcemap] [--no-bytecode-order] [OUTFILE]
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { COMPILE_FLAGS, PIG_FLAGS } from "./build-flags.ts";
import { withBytecodeOrder } from "./bytecode-order.ts";

const root = join(import.meta.dir, "..");
const USAGE = "usage: bun scripts/build.ts [--sourcemap] [--no-bytecode-order] [OUTFILE]";
const OPTIONS = new Set(["--sourcemap", "--no-bytecode-order"]);
const given = process.argv.slice(2);
const unknown = given.find((a) => a.startsWith("-") && !OPTIONS.has(a));
const files = given.filter((a) => !a.startsWith("-"));
if (unknown || files.length > 1) {
  console.error(`build: ${unknown ? `unknown option ${unknown}` : `one output file, not ${files.length}`}\n${USAGE}`);
  process.exit(2);
}
// `--sourcemap` embeds source maps, so that profiles (scripts/bench/profile.ts) and stack traces
// name source files; release builds leave them out.
const sourcemap = given.includes("--sourcemap");
// `--no-bytecode-order`: one build, its bytecode in the bundler's order (to compare the two).
const ordered = !given.includes("--no-bytecode-order");
const outfile = files[0] ?? join(root, "dist", "pig");
try {
  mkdirSync(join(outfile, ".."), { recursive: true });
} catch (error) {
  console.error(`build: cannot make the folder of ${outfile}: ${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}

const buildArgs = [join(root, "src", "cli", "main.ts"), ...COMPILE_FLAGS, ...PIG_FLAGS, ...(sourcemap ? ["--sourcemap=linked"] : [])];
function build(order: string[]): void {
  const proc = Bun.spawnSync([process.execPath, "build", ...buildArgs, ...order, "--outfile", outfile], { stdout: "inherit", stderr: "inherit", cwd: root });
  if (proc.exitCode !== 0) throw new Error(`exit ${proc.exitCode}`);
}
try {
  if (ordered) await withBytecodeOrder(buildArgs, root, (flag) => build([flag]));
  else build([]);
} catch (error) {
  const hint = ordered ? "\n(`--no-bytecode-order` builds once, without running the first build)" : "";
  console.error(`build failed: ${(error as Error).message}${hint}`);
  process.exitCode = 1;
}
if (!process.exitCode) console.log(`built ${outfile}`);
