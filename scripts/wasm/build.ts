/**
 * Builds src/session/json-check.wasm from its AssemblyScript source, wasm/json-check.ts. The
 * .wasm is kept in the repository, so that running pig from source and `npm run build` need no
 * compiler; test/session/json-check-wasm.test.ts rebuilds it and fails when the two differ.
 *   node_modules/.bin/bun scripts/wasm/build.ts [OUT]
 */
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");
export const JSON_CHECK_SOURCE = join(root, "wasm", "json-check.ts");
export const JSON_CHECK_WASM = join(root, "src", "session", "json-check.wasm");
// The compiler's command (run, not imported: its type declarations are global and would clash
// with pig's).
const ASC = join(root, "node_modules", "assemblyscript", "bin", "asc.js");

/**
 * The compiler's flags: fully optimised, SIMD on, the smallest runtime (the module allocates
 * nothing), no assertion traps, two 64 KiB pages to start with (the tables and stack fill the
 * first; the caller grows the memory for long lines).
 */
const FLAGS = ["-O3", "--enable", "simd", "--runtime", "stub", "--noAssert", "--initialMemory", "2"];

/** Compiles the source to `out`; throws with the compiler's messages when it fails. */
export function buildJsonCheckWasm(out: string): void {
  const run = Bun.spawnSync([process.execPath, ASC, JSON_CHECK_SOURCE, ...FLAGS, "--outFile", out], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`compiling ${JSON_CHECK_SOURCE} failed (exit ${run.exitCode}):\n${run.stdout.toString()}${run.stderr.toString()}`);
}

if (import.meta.main) {
  const out = process.argv[2] ?? JSON_CHECK_WASM;
  buildJsonCheckWasm(out);
  console.log(`built ${out}`);
}
