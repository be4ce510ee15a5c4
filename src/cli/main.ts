/**
 * The `pig` entry point. Kept small: it decides what was asked for and loads only the code
 * that answers it, so `pig --version` starts as fast as the runtime allows.
 */
import { VERSION } from "../version.ts";
import { CliError, UsageError } from "./errors.ts";

async function run(argv: string[]): Promise<number> {
  const first = argv[0];
  if (argv.length === 1 && (first === "--version" || first === "-v")) {
    // The common scripted check answers before any other module is loaded.
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === "sessions") {
    const { runSessions } = await import("./sessions.ts");
    return runSessions(argv.slice(1));
  }
  const { runMain } = await import("./run-main.ts");
  return runMain(argv);
}

function report(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`pig: ${error.message}\nRun 'pig --help' for usage.\n`);
    return 2;
  }
  if (error instanceof CliError) {
    process.stderr.write(`pig: ${error.message}\n`);
    return error.exitCode;
  }
  const known = error as { name?: string; message?: string };
  if (known?.name === "SessionFileError") {
    process.stderr.write(`pig: ${known.message}\n`);
    return 1;
  }
  process.stderr.write(`pig: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}

let code: number;
try {
  code = await run(process.argv.slice(2));
} catch (error) {
  code = report(error);
}
process.exitCode = code;
