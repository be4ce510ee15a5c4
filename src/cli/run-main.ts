/** `pig [options] [@files…] [messages…]`: choose the mode and run it. */
import { join } from "node:path";
import { VERSION } from "../version.ts";
import { parseCliArgs, resolveExtensionFlags, type CliArgs } from "./args.ts";
import { CliError, UsageError } from "./errors.ts";
import { runtimeConfigFromArgs } from "./runtime-config.ts";
import { isRemoteSource } from "../resources/package-source.ts";
import { createRegistries, type ModeExtensions } from "../extensions/registries.ts";
import { extensionRows } from "../extensions/status.ts";
import type { RuntimeConfig } from "../runtime/config.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { isTerminal } from "../util/libc.ts";
import { useNormalJitPolicy } from "../util/jit-policy.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";

export async function runMain(argv: string[]): Promise<number> {
  // Extensions fill these as they load; options pig does not know are kept aside until they
  // have (an extension's flag), and only then is one nobody registered an error.
  const extensions: ModeExtensions = { registries: createRegistries() };
  let args = parseCliArgs(argv);
  if (args.extension?.some(isRemoteSource)) {
    // Installed (or found installed) before anything starts; the run finds it in its temporary place.
    const { installTemporaryPackages } = await import("./temporary-packages.ts");
    await installTemporaryPackages(args.extension!, process.cwd());
  }
  if (args.help) return printHelp(args, extensions);
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
  const { readFileArgs, buildPrompts } = await import("../modes/prompt-input.ts");
  const printMode = args.print || args.mode !== undefined || !isTerminal(0);
  if (args.resume && printMode) {
    throw new UsageError("-r/--resume opens a session picker and needs a terminal; stdin is not one (piped input means print mode)");
  }
  if (!printMode) {
    // A long-lived process that may open a large session: the normal JIT policy pays back (jit-policy.ts).
    useNormalJitPolicy();
    const interactive = { cwd: process.cwd(), interactive: true, registries: extensions.registries };
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
    return runInteractive(
      runtimeConfigFromArgs(chosen, interactive),
      async (runtime) => {
        const resolved = settleExtensions(runtime, args, extensions);
        return buildPrompts(undefined, await readFileArgs(resolved.files, process.cwd()), resolved.messages);
      },
      extensions,
    );
  }
  return runNonInteractive(args, process.cwd(), extensions);
}

/**
 * Once the runtime is up: extensions that failed to load end the run (as upstream does at
 * start-up), the extension flags get their values, and the mode gets the run's extensions.
 */
function settleExtensions(runtime: Runtime, parsed: CliArgs, extensions: ModeExtensions): CliArgs {
  const ext = runtime.extensions;
  if (ext.loadErrors.length > 0) {
    void runtime.close();
    throw new CliError(ext.loadErrors.map((e) => (e.startsWith("Error: ") ? e : `Error: ${e}`)).join("\n"));
  }
  const args = resolveExtensionFlags(parsed, ext.registries.flags);
  extensions.bindUi = (ui) => ext.bindUi(ui);
  extensions.status = () => extensionRows(ext.status());
  extensions.drainStartupErrors = () => ext.drainStartupErrors();
  return args;
}

/** `--help`: with the flags of the extensions this run would load (they are started to learn them). */
async function printHelp(args: CliArgs, extensions: ModeExtensions): Promise<number> {
  const { createRuntime } = await import("../runtime/create.ts");
  const { ModelsFileUnusable } = await import("../runtime/errors.ts");
  // The usage text (~11 KB) is code only `--help` runs.
  const { mainHelp } = await import("./help.ts");
  let runtime: Runtime;
  try {
    runtime = await createRuntime(runtimeConfigFromArgs({ ...args, noSession: true }, { cwd: process.cwd(), interactive: false, registries: extensions.registries }));
  } catch (error) {
    // The help is what someone reads to find out what is wrong: it shows, with the fault first.
    if (!(error instanceof ModelsFileUnusable)) throw error;
    writeStderr(`pig: ${error.message}\n`);
    writeStdout(mainHelp([]));
    return 0;
  }
  try {
    for (const error of runtime.extensions.loadErrors) writeStderr(`Error: ${error}\n`);
    writeStdout(mainHelp(extensions.registries.flags.list()));
    return 0;
  } finally {
    await runtime.close();
  }
}

/**
 * The configuration of a non-interactive run, its shared extension runner spawned already: the
 * first thing the run does, so that the runner's start-up (a second process) runs beside the
 * loading of the agent's and the runtime's modules instead of after it.
 */
async function nonInteractiveConfig(parsed: CliArgs, cwd: string, extensions: ModeExtensions): Promise<RuntimeConfig> {
  const config = runtimeConfigFromArgs(parsed, { cwd, interactive: false, registries: extensions.registries });
  const { prestartRunnerFor } = await import("../runtime/runner-prestart.ts");
  const runner = await prestartRunnerFor(config).catch(() => undefined);
  return { ...config, prestartedRunner: Promise.resolve(runner) };
}

/** A runtime for a non-interactive mode: warnings on stderr, and signals that end it cleanly. */
async function startNonInteractive(config: RuntimeConfig, parsed: CliArgs, extensions: ModeExtensions) {
  const { createRuntime } = await import("../runtime/create.ts");
  const runtime = await createRuntime(config);
  let args: CliArgs;
  try {
    args = settleExtensions(runtime, parsed, extensions);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  if (args.verbose) {
    const { formatStartupReport } = await import("../resources/startup-report.ts");
    writeStderr(`${formatStartupReport(runtime.startup, { color: false })}\n`);
  } else {
    // What went wrong loading skills, templates and the like shows without --verbose too, as
    // the interactive mode shows it even with quietStartup: a skill left out is not silent.
    for (const d of runtime.startup.diagnostics) writeStderr(`pig: ${d.level}: ${d.message}\n`);
  }
  for (const warning of runtime.warnings) writeStderr(warning.startsWith("pig: ") ? `${warning}\n` : `pig: warning: ${warning}\n`);
  runtime.extensions.bindNotices((text) => writeStderr(`pig: warning: ${text}\n`));
  runtime.session.onWarning((text) => writeStderr(`pig: warning: ${text}\n`));
  // The run stops and what it did is in the session file before pig exits (stop-signals.ts).
  const { onStopSignal } = await import("../modes/stop-signals.ts");
  onStopSignal((code) => {
    void runtime.session.abort().finally(async () => {
      await runtime.close();
      process.exit(code);
    });
  });
  return { runtime, args };
}

async function runRpc(parsed: CliArgs, cwd: string, extensions: ModeExtensions): Promise<number> {
  const config = await nonInteractiveConfig(parsed, cwd, extensions);
  const { runtime } = await startNonInteractive(config, parsed, extensions);
  const { runRpcMode } = await import("../modes/rpc.ts");
  try {
    return await runRpcMode({
      // ctx.shutdown() from an extension: rpc.ts says when it is due.
      onShutdownRequest: (listener) => runtime.extensions.onShutdownRequest(listener),
      leave: async () => {
        await runtime.close();
        process.exit(0);
      },
      session: runtime.session,
      resources: () => runtime.resources,
      cwd: runtime.session.cwd,
      extensions,
      piglets: {
        list: () => ({ current: runtime.piglet?.name ?? null, piglets: runtime.piglets.list() }),
        switch: async (name) => {
          const done = await runtime.piglets.switch(name);
          for (const warning of done.warnings) writeStderr(`pig: warning: ${warning}\n`);
          const { piglet, warnings: _said, ...rest } = done;
          return { name: piglet.name, ...rest };
        },
      },
      // A setting a command could not save (the file was unusable at start) is said on stderr.
      afterCommand: () => {
        for (const d of runtime.settings.drainDiagnostics()) writeStderr(`pig: warning: ${d.message}\n`);
      },
    });
  } finally {
    await runtime.close();
  }
}

async function runNonInteractive(parsed: CliArgs, cwd: string, extensions: ModeExtensions): Promise<number> {
  const config = await nonInteractiveConfig(parsed, cwd, extensions);
  const { PromptError } = await import("../agent/session.ts");
  const { readPipedStdin, readFileArgs, buildPrompts } = await import("../modes/prompt-input.ts");
  const stdin = await readPipedStdin();
  const { runtime, args } = await startNonInteractive(config, parsed, extensions);
  const { session } = runtime;
  let prompts: Awaited<ReturnType<typeof buildPrompts>>;
  try {
    prompts = buildPrompts(stdin, await readFileArgs(args.files, cwd), args.messages);
    if (prompts.length === 0) throw new UsageError("no prompt: give a message, @files, or pipe text on stdin");
  } catch (error) {
    await runtime.close();
    throw error;
  }
  if (!session.model) {
    await runtime.close();
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
    await runtime.close();
  }
}
