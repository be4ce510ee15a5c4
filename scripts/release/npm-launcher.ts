/**
 * The `pig` command of the npm package `pig-coding-agent`, for when its install script could not
 * put the native binary in its place (Windows, `--ignore-scripts`, a failed link): it finds the
 * binary package for this machine, runs pig from it with the same arguments and stdio, passes
 * on the signals a terminal would not have sent pig itself, and ends as pig ended (exit code or
 * signal). Built into plain CommonJS by npm-packages.ts; run by Node ≥ 20 or Bun.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { findPlatformBinary, noBinaryMessage, scriptDir, thisMachine } from "./npm-machine.ts";

/** Windows delivers Ctrl+C and a closing console to every process of the console, pig included. */
const FORWARDED: readonly NodeJS.Signals[] = process.platform === "win32" ? [] : ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
/** Sent by a terminal to its whole foreground process group: pig has it already. */
const FROM_TERMINAL = new Set<string>(["SIGINT", "SIGQUIT", "SIGHUP"]);

function fail(lines: readonly string[]): never {
  process.stderr.write(lines.map((line) => `pig: ${line}\n`).join(""));
  process.exit(1);
}

function main(): void {
  const machine = thisMachine();
  if (!machine.target) fail(noBinaryMessage(machine, undefined));
  const binary = findPlatformBinary(machine.target, scriptDir());
  if (!binary.found) fail(noBinaryMessage(machine, binary));
  const sharesTerminal = Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY);
  const forward = (signal: NodeJS.Signals) => {
    if (!(sharesTerminal && FROM_TERMINAL.has(signal))) child.kill(signal);
  };
  // Handlers first: pig may be up and a script signalling us before spawn() returns. They run
  // from the event loop, so `child` is set by then.
  for (const signal of FORWARDED) process.on(signal, forward);
  const child = spawn(binary.path, process.argv.slice(2), { stdio: "inherit" });
  child.on("error", (error) => fail([`cannot run ${binary.path}: ${error.message}`]));
  child.on("exit", (code, signal) => {
    if (signal) {
      // Die of the same signal, so the shell sees what pig saw; the code if it is ignored here.
      for (const s of FORWARDED) process.off(s, forward);
      process.kill(process.pid, signal);
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
    process.exit(code ?? 1);
  });
}

main();
