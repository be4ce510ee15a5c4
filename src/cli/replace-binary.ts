/**
 * Putting a new pig binary where the running one is, so that the path is at every moment either
 * the old binary or the whole new one: the new one is written beside it (same directory, so the
 * rename is atomic), synced, checked to run, and renamed over it. Windows does not let a running
 * .exe be overwritten but lets it be renamed: the old one moves aside to `<name>.old` first (and
 * comes back if the new one cannot move in); the next update removes it.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync, chmodSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CliError } from "./errors.ts";

/** Writes `data` beside `target` as a private file, synced to disk; returns its path. */
export function stageBeside(target: string, data: Uint8Array): string {
  const staged = join(dirname(target), `.${basename(target)}.new.${process.pid}`);
  let fd: number;
  try {
    fd = openSync(staged, "wx", 0o700);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
      throw new CliError(`no write permission on ${dirname(target)}, so pig cannot replace ${target} (run pig update as the user who installed it)`);
    }
    throw new CliError(`could not write beside ${target}: ${(error as Error).message}`);
  }
  try {
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(staged, { force: true });
    throw new CliError(`could not write ${staged}: ${(error as Error).message} (pig was not changed)`);
  }
  closeSync(fd);
  return staged;
}

/** The first line `<binary> --version` prints, or why it did not run. */
export function versionOf(binary: string): { version: string } | { error: string } {
  const run = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 60_000 });
  if (run.error) return { error: run.error.message };
  if (run.status !== 0) return { error: `exit ${run.status ?? run.signal}: ${(run.stderr ?? "").trim().split("\n").slice(0, 3).join(" ")}` };
  return { version: (run.stdout ?? "").split("\n")[0]!.trim() };
}

/**
 * Checks the staged binary says `expected` and moves it over `target`; removes it and throws when
 * anything fails, leaving `target` as it was.
 */
export function replaceWithStaged(staged: string, target: string, expected: string): void {
  try {
    chmodSync(staged, 0o755);
    const ran = versionOf(staged);
    if ("error" in ran) throw new CliError(`the downloaded pig does not run on this machine: ${ran.error} (pig was not changed)`);
    if (ran.version !== expected) throw new CliError(`the downloaded pig says it is ${ran.version}, not ${expected} (pig was not changed)`);
    if (process.platform === "win32") replaceRunningExe(staged, target);
    else renameSync(staged, target);
  } catch (error) {
    rmSync(staged, { force: true });
    if (error instanceof CliError) throw error;
    throw new CliError(`could not move the new pig to ${target}: ${(error as Error).message} (pig was not changed)`);
  }
}

function replaceRunningExe(staged: string, target: string): void {
  const aside = `${target}.old`;
  // Left by the update before this one, whose pig has exited since.
  if (existsSync(aside)) rmSync(aside, { force: true });
  renameSync(target, aside);
  try {
    renameSync(staged, target);
  } catch (error) {
    renameSync(aside, target);
    throw error;
  }
}
