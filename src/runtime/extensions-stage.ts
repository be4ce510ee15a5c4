/**
 * Starting the run's extensions and collecting what they register. Extensions are found the way
 * upstream finds them (`-e`, settings, the user's and — in a trusted project — the project's
 * extension folders), started out of process by the extension host, and what they register goes
 * where the rest of pig looks: tools into the run's tools, handlers behind the agent's hooks,
 * commands, flags and shortcuts into the registries the modes use. A run without extensions
 * starts no host at all.
 */
import { NO_HOOKS, type AgentHooks } from "../agent/hooks.ts";
import type { AgentSession } from "../agent/session.ts";
import { discoverExtensions } from "../extensions/discovery.ts";
import { startExtensionHost, type ExtensionHost } from "../extensions/host/host.ts";
import { createRegistries, type ExtensionRegistries } from "../extensions/registries.ts";
import { HEADLESS_UI, type ExtensionUI } from "../extensions/ui.ts";
import type { LoadedResources } from "../resources/load-resources.ts";
import type { Settings } from "../resources/settings.ts";
import type { ExtensionChoice } from "./config.ts";
import { forwardSessionEvents } from "./extension-events.ts";
import { ExtensionSessionPort } from "./extension-port.ts";
import { LateUi } from "./late-ui.ts";
import type { AddedTool } from "./tools-stage.ts";

export interface ExtensionStageInput {
  choice: ExtensionChoice;
  cwd: string;
  agentDir: string;
  /** Whether the project's own extensions may load. */
  trusted: boolean;
  resources: LoadedResources;
  userSettings: Settings;
  projectSettings: Settings;
  interactive: boolean;
  env: NodeJS.ProcessEnv;
}

/** The extension platform of one run, as the modes see it. */
export interface RunExtensions {
  registries: ExtensionRegistries;
  /** Present when extensions were found and started. */
  host: ExtensionHost | undefined;
  /** `Failed to load extension "<path>": <error>` (and paths that do not exist), as upstream words them. */
  loadErrors: string[];
  /** Registration problems worth a line (conflicts, refused shortcuts). */
  warnings: string[];
  /** The mode's UI: dialogs and notices go there from now on. */
  bindUi(ui: ExtensionUI): void;
  /** ctx.shutdown() from an extension: the mode says what it means (default: nothing). */
  onShutdownRequest(handler: () => void): void;
  /** The command line's values of the extensions' flags (after the second parse). */
  setFlagValues(values: Record<string, boolean | string>): void;
  /** Tells the extensions the session is ending, then stops their processes. */
  shutdown(reason?: "quit" | "reload"): Promise<void>;
}

export interface ExtensionRegistrations {
  /** Tools the extensions registered; offered like the built-ins, a same-named one replacing it. */
  tools: AddedTool[];
  /** The extensions' handlers behind the agent's one hook interface. */
  hooks: AgentHooks;
  extensions: RunExtensions;
  /** Once the session exists: extensions see it, hear of its events, and have set up for it. */
  attach(session: AgentSession): Promise<void>;
}

export async function startExtensions(input: ExtensionStageInput): Promise<ExtensionRegistrations> {
  const registries = input.choice.registries ?? createRegistries();
  const found = discoverExtensions({
    cwd: input.cwd,
    agentDir: input.agentDir,
    projectTrusted: input.trusted,
    ...(input.choice.paths ? { cliPaths: input.choice.paths } : {}),
    noExtensions: input.choice.noExtensions ?? false,
    ...(input.projectSettings.extensions ? { projectSettingsPaths: input.projectSettings.extensions } : {}),
    ...(input.userSettings.extensions ? { userSettingsPaths: input.userSettings.extensions } : {}),
  });
  const mode = input.choice.mode ?? (input.interactive ? "interactive" : "print");
  // Interactive and RPC mode bind a UI that can answer dialogs; extensions are told so when they start.
  const ui = new LateUi(HEADLESS_UI, mode === "interactive" || mode === "rpc");
  let shutdownHandler = (): void => {};
  const none: RunExtensions = {
    registries,
    host: undefined,
    loadErrors: found.errors.map((e) => e),
    warnings: [],
    bindUi: (next) => ui.bind(next),
    onShutdownRequest: (handler) => (shutdownHandler = handler),
    setFlagValues: () => {},
    shutdown: async () => {},
  };
  if (found.sources.length === 0) return { tools: [], hooks: NO_HOOKS, extensions: none, attach: async () => {} };

  let session: AgentSession | undefined;
  const port = new ExtensionSessionPort(input.cwd, {
    shutdown: () => shutdownHandler(),
    // A reload of resources and extensions is not offered to extensions yet: say so, loudly.
    reload: async () => {
      throw new Error("ctx.reload() is not supported by pig yet; restart pig to load changed extensions");
    },
  });
  // A project's value wins, as for any settings object (merged one level deep).
  const timeouts = { ...input.userSettings.extensionTimeouts, ...input.projectSettings.extensionTimeouts };
  const host = await startExtensionHost({
    sources: found.sources,
    port,
    ui,
    cwd: input.cwd,
    agentDir: input.agentDir,
    mode,
    env: input.env,
    onError: (report) => session?.reportExtensionError(report),
    ...(timeouts.eventMs !== undefined ? { timing: { eventDeadlineMs: timeouts.eventMs } } : {}),
  });
  const warnings = host.diagnostics.map((d) => d.message);
  for (const command of host.commands()) {
    registries.commands.register(
      {
        name: command.name,
        ...(command.description ? { description: command.description } : {}),
        ...(command.complete ? { getArgumentCompletions: (prefix: string) => command.complete!(prefix) } : {}),
        handler: (args) => command.run(args),
      },
      { path: command.extension, source: "extension", scope: "temporary", origin: "top-level" },
    );
  }
  for (const flag of host.flags()) {
    const conflict = registries.flags.register(
      { name: flag.name, type: flag.type, ...(flag.description ? { description: flag.description } : {}), ...(flag.default !== undefined ? { default: flag.default } : {}) },
      flag.extension,
    );
    if (conflict) warnings.push(conflict.message);
  }
  if (input.choice.flagValues) {
    try {
      port.setFlagValues(input.choice.flagValues(registries.flags));
    } catch (error) {
      await host.shutdown();
      throw error;
    }
  }
  for (const shortcut of host.shortcuts()) {
    registries.shortcuts.register(shortcut.key, { ...(shortcut.description ? { description: shortcut.description } : {}), handler: () => shortcut.run() }, shortcut.extension);
  }
  const extensions: RunExtensions = {
    ...none,
    host,
    loadErrors: [...found.errors, ...host.loadErrors],
    warnings,
    setFlagValues: (values) => port.setFlagValues(values),
    shutdown: (reason = "quit") => host.shutdown(reason),
  };
  return {
    tools: host.toolsWithOwners().map(({ tool, extension }) => ({ tool, source: { kind: "extension" as const, path: extension } })),
    hooks: host.hooks(),
    extensions,
    async attach(attached) {
      session = attached;
      port.bind(attached);
      // A tool registered later (from session_start, a command, …) joins the run's tools at once.
      const known = new Map(host.toolsWithOwners().map(({ tool, extension }) => [tool.name, extension]));
      host.onChange(() => {
        for (const { tool, extension } of host.toolsWithOwners()) {
          if (known.get(tool.name) === extension && attached.toolRegistry.get(tool.name)) continue;
          known.set(tool.name, extension);
          attached.toolRegistry.register(tool, { kind: "extension", path: extension });
        }
      });
      attached.setCommands({
        match(text) {
          const matched = registries.commands.match(text);
          return matched ? () => matched.run({ ui, hasUI: ui.hasUI }) : undefined;
        },
      });
      host.sendStateNow();
      await forwardSessionEvents(attached, host);
    },
  };
}
