/**
 * The built `pig` binary for end-to-end tests: built once per test run when it is missing or
 * older than the sources, so `npm test` on a fresh clone tests the real executable.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { withPermissions } from "./permissions.ts";

const root = join(import.meta.dir, "..", "..");
export const PIG_BINARY = join(root, "dist", "pig");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

let built: string | undefined;

export function pigBinary(): string {
  if (built) return built;
  const stale =
    !existsSync(PIG_BINARY) ||
    statSync(PIG_BINARY).mtimeMs < Math.max(newestSource(join(root, "src")), statSync(join(root, "package.json")).mtimeMs);
  if (stale) {
    const proc = Bun.spawnSync([process.execPath, join(root, "scripts", "build.ts")], { cwd: root, stdout: "pipe", stderr: "pipe" });
    if (proc.exitCode !== 0) throw new Error(`building pig failed:\n${proc.stderr.toString()}`);
  }
  built = PIG_BINARY;
  return built;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
  /** File permissions apply even when the tests run as root: a read-only file cannot be written. */
  permissions?: boolean;
}

/** Runs the binary to completion with a clean environment (plus `env`). */
export function runPig(args: string[], options: RunOptions = {}): RunResult {
  const argv = [pigBinary(), ...args];
  const proc = Bun.spawnSync(options.permissions ? withPermissions(argv) : argv, {
    cwd: options.cwd ?? root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...options.env },
    stdin: options.stdin !== undefined ? Buffer.from(options.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: proc.exitCode ?? -1, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}
