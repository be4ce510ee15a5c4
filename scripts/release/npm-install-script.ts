/**
 * The install script of the npm package `pig-coding-agent`: puts this machine's native pig binary
 * where the package's `bin/pig` launcher is (a hard link, or a copy where a link is refused), so
 * `pig` on PATH starts pig itself rather than Node first — what esbuild does. Anything in the
 * way (Windows, where npm's `pig.cmd` shim needs a script; no binary package; a binary that
 * does not run here) leaves the launcher, which works everywhere, and never fails the install.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, closeSync, copyFileSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { findPlatformBinary, scriptDir, thisMachine } from "./npm-machine.ts";

/** What was done, for npm's log (shown with --foreground-scripts). */
function linkNativeBinary(packageDir: string): string {
  if (process.platform === "win32") return "kept the launcher: npm runs bin/pig through its pig.cmd shim on Windows";
  const machine = thisMachine();
  if (!machine.target) return `kept the launcher: no binary for ${machine.description}`;
  const binary = findPlatformBinary(machine.target, packageDir);
  if (!binary.found) return `kept the launcher: ${binary.packageName} is not installed`;
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string };
  // A binary that cannot start here (wrong CPU under emulation, a noexec mount) or is another
  // version must not replace the launcher, which would then report the problem.
  const ran = spawnSync(binary.path, ["--version"], { encoding: "utf8", timeout: 60_000 });
  if (ran.status !== 0 || ran.stdout.trim() !== version) {
    return `kept the launcher: ${binary.path} --version gave ${ran.error ? ran.error.message : `exit ${ran.status}, ${JSON.stringify(ran.stdout.trim())}`}, expected ${version}`;
  }
  const launcher = join(packageDir, "bin", "pig");
  const temp = join(packageDir, "bin", `.pig-${process.pid}.tmp`);
  rmSync(temp, { force: true });
  let how = "linked";
  try {
    linkSync(binary.path, temp);
  } catch {
    // Another file system, or links not allowed: a copy, flushed before it takes the name.
    how = "copied";
    copyFileSync(binary.path, temp);
    const fd = openSync(temp, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  try {
    chmodSync(temp, 0o755);
    renameSync(temp, launcher);
  } catch (error) {
    rmSync(temp, { force: true });
    return `kept the launcher: ${(error as Error).message}`;
  }
  return `${how} ${binary.path} to ${launcher}`;
}

try {
  console.log(`pig-coding-agent: ${linkNativeBinary(scriptDir())}`);
} catch (error) {
  console.log(`pig-coding-agent: kept the launcher: ${(error as Error).message}`);
}
