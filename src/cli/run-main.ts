/** `pig [options] [@files…] [messages…]`: choose the mode and run it. */
import { join } from "node:path";
import { VERSION } from "../version.ts";
import { parseCliArgs, resolveExtensionFlags, type CliArgs } from "./args.ts";
import { CliError, UsageError } from "./errors.ts";
import { mainHelp } from "./help.ts";
import { runtimeConfigFromArgs } from "./runtime-config.ts";
import { createRegistries, type ModeExtensions } from "../extensions/registries.ts";
import { isTerminal } from "../util/libc.ts";
import { useNormalJitPolicy } from "./jit-policy.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";

export async function runMain(argv: string[]): Promise<number> {
  // Extensions fill these as they load; their flags are resolved once they have (and, with
  // none loaded yet, every option pig does not know is an error here).
  const extensions: ModeExtensions = { registries: createRegistries() };
  const args = resolveExtensionFlags(parseCliArgs(argv), extensions.registries.flags);
  if (args.help) {
    writeStdout(mainHelp(extensions.registries.flags.list()));
    return 0;
  }
  if (args.version) {
    writeStdout(`${VERSION}\n`);
    return 0;
  }
  if (args.listModels !== undefined) {
    const { listModels } = await import("./list-models.ts");
    return listModels(args.listModels === true ? undefined : args.listModels);
  }
  if (args.mode === "rpc") {
    if (args.files.length > 0) throw new CliError("Error: @file arguments are not supported in RPC mode");
    // A long-lived process: the normal JIT policy pays back (jit-policy.ts).
    useNormalJitPolicy();
    return runRpc(args, process.cwd(), extensions);
  }
  const { readPipedStdin, readFileArgs, buildPrompts } = await import("../modes/prompt-input.ts");
  const printMode = args.print || args.mode !== undefined || !isTerminal(0);
  if (args.resume && printMode) {
    throw new UsageError("-r/--resume opens a session picker and needs a terminal; stdin is not one (piped input means print mode)");
  }
  if (!printMode) {
    // A long-lived process that may open a large session: the normal JIT policy pays back (jit-policy.ts).
    useNormalJitPolicy();
    const initial = buildPrompts(undefined, await readFileArgs(args.files, process.cwd()), args.messages);
    const interactive = { cwd: process.cwd(), interactive: true };
    let chosen = args;
    if (args.resume) {
      const { pickSessionAtStart } = await import("../modes/interactive/resume-at-start.ts");
      const path = await pickSessionAtStart(runtimeConfigFromArgs(args, interactive));
      if (!path) {
        writeStdout("No session chosen.\n");
        return 0;
      }
      chosen = { ...args, session: path };
    }
    const { runInteractive } = await import("../modes/interactive/run.ts");
    return runInteractive(runtimeConfigFromArgs(chosen, interactive), initial, extensions);
  }
  const stdin = await readPipedStdin();
  const cwd = process.cwd();
  const prompts = buildPrompts(stdin, await readFileArgs(args.files, cwd), args.messages);
  if (prompts.length === 0) throw new UsageError("no prompt: give a message, @files, or pipe text on stdin");
  return runNonInteractive(args, prompts, cwd, extensions);
}

/** A runtime for a non-interactive mode: warnings on stderr, and signals that end it cleanly. */
async function startNonInteractive(args: CliArgs, cwd: string, signals: [NodeJS.Signals, number][]) {
  const { createRuntime } = await import("../runtime/create.ts");
  const runtime = await createRuntime(runtimeConfigFromArgs(args, { cwd, interactive: false }));
  if (args.verbose) {
    const { formatStartupReport } = await import("../resources/startup-report.ts");
    writeStderr(`${formatStartupReport(runtime.startup, { color: false })}\n`);
  } else {
    // What went wrong loading skills, templates and the like shows without --verbose too, as
    // the interactive mode shows it even with quietStartup: a skill left out is not silent.
    for (const d of runtime.startup.diagnostics) writeStderr(`pig: ${d.level}: ${d.message}\n`);
  }
  for (const warning of runtime.warnings) writeStderr(warning.startsWith("pig: ") ? `${warning}\n` : `pig: warning: ${warning}\n`);
  const { killRunningCommands } = await import("../tools/index.ts");
  for (const [signal, code] of signals) {
    process.once(signal, () => {
      // Commands started by the bash tool run in their own process groups: end them too.
      killRunningCommands();
      void runtime.session.abort().finally(() => {
        runtime.session.dispose();
        process.exit(code);
      });
    });
  }
  return runtime;
}

async function runRpc(args: CliArgs, cwd: string, extensions: ModeExtensions): Promise<number> {
  const runtime = await startNonInteractive(args, cwd, [
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ]);
  const { runRpcMode } = await import("../modes/rpc.ts");
  try {
    return await runRpcMode({
      controller: runtime.controller,
      resources: runtime.resources,
      cwd: runtime.controller.cwd,
      extensions,
      // A setting a command could not save (the file was unusable at start) is said on stderr.
      afterCommand: () => {
        for (const d of runtime.settings.drainDiagnostics()) writeStderr(`pig: warning: ${d.message}\n`);
      },
    });
  } finally {
    runtime.session.dispose();
  }
}

async function runNonInteractive(
  args: CliArgs,
  prompts: Awaited<ReturnType<typeof import("../modes/prompt-input.ts")["buildPrompts"]>>,
  cwd: string,
  extensions: ModeExtensions,
): Promise<number> {
  const { PromptError } = await import("../agent/session.ts");
  const runtime = await startNonInteractive(args, cwd, [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ]);
  const { session } = runtime;
  if (!session.model) {
    session.dispose();
    const { noModelsMessage } = await import("../ai/auth.ts");
    throw new CliError(noModelsMessage(join(runtime.agentDir, "models.json")));
  }
  try {
    if (args.mode === "json") {
      const { runJsonMode } = await import("../modes/json.ts");
      return await runJsonMode(session, prompts, extensions);
    }
    const { runPrintMode } = await import("../modes/print.ts");
    return await runPrintMode(session, prompts, extensions);
  } catch (error) {
    if (error instanceof PromptError) throw new CliError(error.message);
    throw error;
  } finally {
    session.dispose();
  }
}
