/**
 * The `pig` entry point. Kept small: it decides what was asked for and loads only the code
 * that answers it, so `pig --version` starts as fast as the runtime allows.
 */
import { versionDetails, versionLine } from "./binary-lines.ts";
import { CliError, UsageError } from "./errors.ts";
import { useNormalJitPolicy } from "../util/jit-policy.ts";

async function run(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === "__extension-runner") {
    // The hidden mode pig spawns itself in to host TypeScript extensions: it lives as long as
    // pig, and it must not load the CLI it does not use. It keeps the start-up JIT policy until
    // it knows pig's mode (runner/main.ts).
    // Connecting waits on pig: it starts before the rest loads.
    const { openLaunchPipe } = await import("../extensions/runner/socket-pipe.ts");
    const pipe = openLaunchPipe();
    const { runExtensionRunner } = await import("../extensions/runner/main.ts");
    return runExtensionRunner(pipe);
  }
  if (argv.length === 1 && (first === "--version" || first === "-v")) {
    // The common scripted check answers before any other module is loaded (even node:fs:
    // console writes synchronously and costs nothing to reach).
    // A Piglet Binary names what it carries (the first line stays a bare version).
    console.log([versionLine(), ...versionDetails()].join("\n"));
    return 0;
  }
  if (first === "build") {
    const { runBuild } = await import("./build.ts");
    return runBuild(argv.slice(1));
  }
  if (first === "sessions") {
    // Listing thousands of files or reading a 50 MB one is hot-loop work from the start.
    useNormalJitPolicy();
    const { runSessions } = await import("./sessions.ts");
    return runSessions(argv.slice(1));
  }
  if (first === "update") {
    const { runUpdate } = await import("./update.ts");
    return runUpdate(argv.slice(1));
  }
  if (first === "install" || first === "remove" || first === "uninstall" || first === "list") {
    const { runPackages } = await import("./packages.ts");
    return runPackages(first, argv.slice(1));
  }
  if (first === "config") {
    const { runConfig } = await import("./config.ts");
    return runConfig(argv.slice(1));
  }
  if (first === "login" || first === "logout") {
    const { runLogin, runLogout } = await import("./login.ts");
    return first === "login" ? runLogin(argv.slice(1)) : runLogout(argv.slice(1));
  }
  if (first === "mcp") {
    const { runMcp } = await import("./mcp.ts");
    return runMcp(argv.slice(1));
  }
  if (first === "piglets") {
    const { runPiglets } = await import("./piglets.ts");
    return runPiglets(argv.slice(1));
  }
  if (first === "extension") {
    useNormalJitPolicy();
    if (argv[1] === "check") {
      const { runExtensionCheck } = await import("../modes/extension-check/main.ts");
      return runExtensionCheck(argv.slice(2));
    }
    const { CHECK_USAGE } = await import("../modes/extension-check/main.ts");
    const { writeStderr } = await import("../util/stdio.ts");
    writeStderr(`pig extension: ${argv[1] === undefined ? "name a subcommand" : `unknown subcommand ${argv[1]}`} (the one there is: check)\n\n${CHECK_USAGE}\n`);
    return 2;
  }
  const { runMain } = await import("./run-main.ts");
  return runMain(argv);
}

/**
 * The message for what ended pig, on stderr, and its exit code. Written as plain bytes: Bun's
 * console.error turns red under FORCE_COLOR, and a script's log must not get escape sequences.
 */
async function report(error: unknown): Promise<number> {
  const { writeStderr } = await import("../util/stdio.ts");
  const say = (line: string) => writeStderr(`${line}\n`);
  if (error instanceof UsageError) {
    say(`pig: ${error.message}\nRun '${error.help}' for usage.`);
    return 2;
  }
  if (error instanceof CliError) {
    for (const warning of error.warnings) say(`pig: warning: ${warning}`);
    say(`pig: ${error.message}`);
    return error.exitCode;
  }
  const known = error as { name?: string; message?: string };
  if (known?.name === "SessionFileError" || known?.name === "SessionSaveError" || known?.name === "SessionWriteError") {
    say(`pig: ${known.message}`);
    return 1;
  }
  say(`pig: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return 1;
}

let code: number;
try {
  code = await run(process.argv.slice(2));
} catch (error) {
  code = await report(error);
}
process.exitCode = code;
