/**
 * `pig extension check <file|dir>` and `pig extension check -- <command…>`: runs an extension the
 * way pig would and reports, check by check, whether it keeps pig-ext/1 (docs/extension-
 * protocol.md, "Conformance"). Exit code 0 when no check failed, 1 when one did, 2 for bad usage.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";
import { discoverExtensions } from "../../extensions/discovery.ts";
import { groupIntoProcesses } from "../../extensions/host/process-specs.ts";
import { runnerCommand } from "../../extensions/host/runner-command.ts";
import { MANIFEST_FILE } from "../../extensions/manifest.ts";
import { checkBadToken, checkUnsupportedProtocol, programProblem } from "./launch-checks.ts";
import { formatReport, type CheckResult } from "./report.ts";
import { runSessionChecks } from "./session-checks.ts";
import { withoutRepeatedStderr } from "./stderr-tail.ts";
import { terminalSafe } from "../../util/terminal-safe.ts";

export const CHECK_USAGE = `Usage: pig extension check [--json] [--limit <ms>] <file|dir|pig-extension.json>
       pig extension check [--json] [--limit <ms>] -- <command> [args…]

Runs the extension the way pig would, against a scripted session, and reports each check of
pig-ext/1: the handshake (and a refused token, an unknown protocol), what it registers, every
event it subscribes to, its tools (progress, cancellation), commands, dialogs, pings while it
waits, the session log (read lazily, copied exactly), and its exit when the socket closes.
It calls every tool and runs every command the extension registers (in a scratch directory, as
pig would run them): check only extensions you would run.
  --json        the report as JSON
  --limit <ms>  how long one step may take (default 15000; an event, half of it)`;

export class CheckUsageError extends Error {}

interface CheckArgs {
  target: { kind: "path"; path: string } | { kind: "command"; command: string[] };
  json: boolean;
  limitMs: number;
}

export function parseCheckArgs(argv: readonly string[]): CheckArgs | { help: true } {
  let json = false;
  let limitMs = 15_000;
  let path: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return { help: true };
    if (arg === "--") {
      const command = argv.slice(i + 1);
      if (command.length === 0) throw new CheckUsageError("pig extension check --: name the command that runs the extension");
      if (path) throw new CheckUsageError(`pig extension check: give a path or a command after --, not both (${path})`);
      return { target: { kind: "command", command: [...command] }, json, limitMs };
    }
    if (arg === "--json") json = true;
    else if (arg === "--limit") {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value <= 0) throw new CheckUsageError(`pig extension check --limit: expected a number of milliseconds, got ${JSON.stringify(argv[i] ?? "")}`);
      limitMs = value;
    } else if (arg.startsWith("-")) throw new CheckUsageError(`pig extension check: unknown option ${arg}`);
    else if (path) throw new CheckUsageError(`pig extension check: one extension at a time (got ${path} and ${arg})`);
    else path = arg;
  }
  if (!path) throw new CheckUsageError("pig extension check: name the extension (a file, a directory or a pig-extension.json), or give its command after --");
  return { target: { kind: "path", path }, json, limitMs };
}

export async function runExtensionCheck(argv: readonly string[], cwd = process.cwd()): Promise<number> {
  let parsed: CheckArgs | { help: true };
  try {
    parsed = parseCheckArgs(argv);
  } catch (error) {
    if (!(error instanceof CheckUsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${CHECK_USAGE}\n`);
    return 2;
  }
  if ("help" in parsed) {
    process.stdout.write(`${CHECK_USAGE}\n`);
    return 0;
  }
  const args = parsed;
  const scratch = mkdtempSync(join(tmpdir(), "pig-extension-check-"));
  try {
    const path = args.target.kind === "path" ? resolve(cwd, args.target.path) : writeManifest(scratch, args.target.command, cwd);
    const label = args.target.kind === "path" ? path : args.target.command.join(" ");
    const results = await runChecks(path, scratch, args.limitMs);
    // The report quotes what the extension said: shown terminal-safe, its own colours kept.
    process.stdout.write(args.json ? `${JSON.stringify({ target: label, results }, null, 2)}\n` : terminalSafe(formatReport(label, results), { styled: true }));
    return results.some((r) => r.status === "fail") ? 1 : 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A command pig cannot find by itself runs through a manifest of its own. It runs in the check's
 * scratch project, so the program and the arguments that name files here are made absolute.
 */
function writeManifest(scratch: string, command: string[], cwd: string): string {
  const [program, ...rest] = command;
  const absolute = (arg: string) => (!isAbsolute(arg) && existsSync(resolve(cwd, arg)) ? resolve(cwd, arg) : arg);
  const resolved = program!.includes("/") ? resolve(cwd, program!) : program!;
  const file = join(scratch, MANIFEST_FILE);
  writeFileSync(file, JSON.stringify({ name: basename(program!), command: [resolved, ...rest.map(absolute)] }));
  return file;
}

async function runChecks(path: string, scratch: string, limitMs: number): Promise<CheckResult[]> {
  const found = discoverExtensions({ cwd: scratch, agentDir: join(scratch, "agent"), projectTrusted: false, cliPaths: [path], noExtensions: true });
  if (found.sources.length === 0) return [{ name: "launch", status: "fail", detail: found.errors.join("; ") || `no extension at ${path}` }];
  const [spec] = groupIntoProcesses(found.sources, runnerCommand());
  const launch = { spec: spec!, cwd: scratch, logDir: join(scratch, "logs"), env: process.env, exitMs: Math.min(limitMs, 5_000) };
  const problem = programProblem(launch.spec, scratch, process.env);
  if (problem) {
    const notRun = "not run: the program could not be started";
    return [
      { name: "launch", status: "fail", detail: `the program could not be started: ${problem}` },
      { name: "launch.bad-token", status: "skip", detail: notRun },
      { name: "launch.version", status: "skip", detail: notRun },
    ];
  }
  const early = [await checkBadToken(launch), await checkUnsupportedProtocol(launch)];
  const session = await runSessionChecks({ path, scratch, env: process.env, limitMs });
  return withoutRepeatedStderr([...session.slice(0, 1), ...early, ...session.slice(1)]);
}
