/**
 * How to start pig's shared TypeScript runner: the pig executable itself in its hidden runner
 * mode. A compiled binary is its own entry; from source, Bun must be told the CLI's entry file.
 */
import { existsSync } from "node:fs";

export const RUNNER_SUBCOMMAND = "__extension-runner";

/**
 * The CLI's entry file, for a run from the sources. Bun's own conversion, and only when asked:
 * node:url would load on the way to spawning the runner, where a compiled binary never uses it.
 */
const cliEntry = (): string => Bun.fileURLToPath(new URL("../../cli/main.ts", import.meta.url));

/** True inside a `bun build --compile` executable, whose modules live in a virtual `$bunfs`. */
export function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/") || import.meta.url.includes("$bunfs") || /^[A-Z]:\\~BUN\\/.test(Bun.main);
}

export function runnerCommand(): string[] {
  if (isCompiled()) return [process.execPath, RUNNER_SUBCOMMAND];
  const entry = cliEntry();
  if (!existsSync(entry)) return [process.execPath, RUNNER_SUBCOMMAND];
  return [process.execPath, entry, RUNNER_SUBCOMMAND];
}
