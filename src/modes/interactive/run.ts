/**
 * Starting the interactive mode: the runtime for the session asked for, the first-run setup when
 * no model can be used yet (then the runtime again, on the model chosen), and the app.
 */
import type { RuntimeConfig } from "../../runtime/config.ts";
import { createRuntime } from "../../runtime/create.ts";
import type { PromptInput } from "../prompt-input.ts";
import type { ModeExtensions } from "../../extensions/registries.ts";
import type { Runtime } from "../../runtime/runtime.ts";
import { InteractiveApp } from "./app.ts";
import { comeBackCommand } from "./come-back-hint.ts";
import { STOP_EXIT_CODES } from "../stop-signals.ts";
import { askDialog, confirmDialog, pickDialog } from "./dialogs.ts";
import { accountLogins } from "./login/account-logins.ts";
import { supportsHyperlinks } from "./render/wrap.ts";
import { terminalSafe } from "../../util/terminal-safe.ts";
import { writeStderr } from "../../util/stdio.ts";

/**
 * `prepare` runs once the runtime (and so every extension) is up: the command line's extension
 * flags can be resolved only then, and with them the first prompts.
 */
export async function runInteractive(
  config: RuntimeConfig,
  prepare: (runtime: Runtime) => Promise<PromptInput[]>,
  extensions?: ModeExtensions,
): Promise<number> {
  let runtime = await createRuntime(config);
  const shown = new Set<string>();
  if (!runtime.session.model || !runtime.registry.hasKey(runtime.session.model.provider)) {
    // A models.json or auth.json pig could not use may be why there is no model: say so first.
    for (const warning of runtime.warnings) {
      process.stdout.write(`${terminalSafe(warning)}\n`);
      shown.add(warning);
    }
    // Loaded only for a first run: a start with a usable model draws its first frame without them.
    const [{ escapeWatch }, { runFirstRunWizard }] = await Promise.all([import("./login/escape-watch.ts"), import("./wizard.ts")]);
    // The keys are the dialogs' while one is open, and a waiting sign-in's otherwise.
    const keys = escapeWatch();
    const chosen = await runFirstRunWizard({
      ask: (message, config) => keys.dialog(() => askDialog(message, config)),
      pick: (message, options, config) => keys.dialog(() => pickDialog(message, options, config)),
      confirm: (message, initial, signal) => keys.dialog(() => confirmDialog(message, initial, signal)),
      print: (text) => process.stdout.write(`${terminalSafe(text, { styled: true })}\n`),
      agentDir: runtime.agentDir,
      registry: runtime.registry,
      subscriptions: accountLogins,
      cancellable: (run) => keys.cancellable(run),
      hyperlinks: supportsHyperlinks(),
    });
    if (!chosen) {
      writeStderr("pig: no model configured. Set a provider's API key (e.g. ANTHROPIC_API_KEY) or run pig again to use the setup.\n");
      return 1;
    }
    await runtime.close();
    runtime = await createRuntime({ ...config, provider: chosen.provider, ...(chosen.model ? { model: `${chosen.provider}/${chosen.model}` } : {}) });
  }
  // What was said before the setup is not said again.
  runtime.warnings.splice(0, runtime.warnings.length, ...runtime.warnings.filter((w) => !shown.has(w)));
  const initial = await prepare(runtime);
  const app = new InteractiveApp(runtime, config, extensions);
  // ctx.shutdown() from an extension: once the agent is idle, pig quits as /quit does.
  const live = runtime;
  live.extensions.onShutdownRequest(() => void live.session.waitForIdle().then(() => app.exit()));
  let code: number;
  let comeBack: string | undefined;
  try {
    code = await app.run(initial);
    // Read before the session closes (it lets go of its file); printed after, below what closing prints.
    const store = runtime.session.store;
    comeBack = comeBackCommand({
      saved: store.onDisk ? { id: store.sessionId } : undefined,
      sessionDir: runtime.sessionDir,
      agentDir: runtime.agentDir,
      sessionDirFlag: config.sessionDir,
    });
  } finally {
    await runtime.close();
  }
  // A terminal that hung up is not there to read it.
  if (comeBack && code !== STOP_EXIT_CODES.SIGHUP) {
    process.stdout.write(`${app.theme.fg("dim", `To come back to this session: ${terminalSafe(comeBack)}`)}\n`);
  }
  return code;
}
