/**
 * A first start after install: every cache a contender keeps between runs points at a fresh,
 * empty directory, one per run.
 *
 * - pig: its extension runner's transpiled modules (`BUN_RUNTIME_TRANSPILER_CACHE_PATH`, which
 *   pig passes on to the runner; pig's own code is bytecode in the executable and has no cache).
 *   Bun keeps only large files there (a few hundred KB of source), so small extensions are
 *   transpiled on every start, first or not.
 * - Pi: Node's compile cache, which Pi's `bin` turns on with `module.enableCompileCache()`
 *   (`NODE_COMPILE_CACHE`), and jiti's cache of the extensions it transpiled, which it keeps
 *   under the temp dir (`TMPDIR`; `<tmp>/jiti`).
 *
 * The files themselves stay in the page cache: a first start after install reads what the
 * install has just written.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

export type CacheKind = "pig" | "pi";

/** The variables that send `kind`'s caches into `dir` (the printed command lines show `EMPTY_DIR`). */
export function firstStartEnv(kind: CacheKind, dir: string): Record<string, string> {
  if (kind === "pig") return { BUN_RUNTIME_TRANSPILER_CACHE_PATH: join(dir, "transpiler") };
  return { NODE_COMPILE_CACHE: join(dir, "node-compile-cache"), TMPDIR: join(dir, "tmp") };
}

/** Runs `run` with `kind`'s caches in a fresh directory under `base`, removed afterwards. */
export async function withEmptyCaches<T>(kind: CacheKind, base: string, run: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(base, "first-start-"));
  try {
    const env = firstStartEnv(kind, dir);
    if (env.TMPDIR) mkdirSync(env.TMPDIR);
    return await run(env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
