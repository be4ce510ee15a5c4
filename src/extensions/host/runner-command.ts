/**
 * How to start pig's shared TypeScript runner: the pig executable itself in its hidden runner
 * mode. A compiled binary is its own entry; from source, Bun must be told the CLI's entry file.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const RUNNER_SUBCOMMAND = "__extension-runner";

const CLI_ENTRY = fileURLToPath(new URL("../../cli/main.ts", import.meta.url));

/** True inside a `bun build --compile` executable, whose modules live in a virtual `$bunfs`. */
export function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/") || import.meta.url.includes("$bunfs") || /^[A-Z]:\\~BUN\\/.test(Bun.main);
}

export function runnerCommand(): string[] {
  if (isCompiled() || !existsSync(CLI_ENTRY)) return [process.execPath, RUNNER_SUBCOMMAND];
  return [process.execPath, CLI_ENTRY, RUNNER_SUBCOMMAND];
}
