/**
 * What the run's extensions are to the rest of the runtime: what starting them takes, what they
 * registered, what a reload found and the platform as the modes see it. Types only, so the
 * stages that start, reload and read them (extensions-stage.ts, extension-platform.ts,
 * project-trust-stage.ts, resources-stage.ts) depend on this file and not on each other.
 */
import type { PrestartedRunner } from "../extensions/host/prestart.ts";
import type { AgentHooks } from "../agent/hooks.ts";
import type { AgentSession } from "../agent/session.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import type { ExtensionHost, ExtensionStatus } from "../extensions/host/host.ts";
import type { ExtensionRegistries } from "../extensions/registries.ts";
import type { ExtensionUI } from "../extensions/ui.ts";
import type { Settings } from "../resources/settings.ts";
import type { ExtensionChoice } from "./config.ts";
import type { ExtensionLaunch } from "./extension-launch.ts";
import type { AddedTool } from "./tools-stage.ts";

export interface ExtensionStageInput {
  choice: ExtensionChoice;
  cwd: string;
  agentDir: string;
  /** Whether the project's own extensions may load. */
  trusted: boolean;
  userSettings: Settings;
  projectSettings: Settings;
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  /** Where the extensions' providers go. */
  models: ModelRegistry;
  /** The shared runner, started before the extensions were known (runner-prestart.ts). */
  prestarted?: PrestartedRunner;
}

/** What a reload found: extensions that failed to load this time, registration problems. */
export interface ExtensionReload {
  loaded: string[];
  loadErrors: string[];
  warnings: string[];
}

/** The extension platform of one run, as the modes see it. */
export interface RunExtensions {
  registries: ExtensionRegistries;
  /** Present when extensions were found and started (the current one, after a reload). */
  readonly host: ExtensionHost | undefined;
  /** `Failed to load extension "<path>": <error>` (and paths that do not exist), as upstream words them. */
  loadErrors: string[];
  /** Registration problems worth a line (conflicts, refused shortcuts). */
  warnings: string[];
  /** Each extension's process and state (`/extensions`, RPC `get_extensions`). */
  status(): ExtensionStatus[];
  /**
   * Extension errors raised while pig started (a provider config refused), once: the mode
   * reports them as the session's `extension_error` after it has subscribed to the session.
   */
  drainStartupErrors(): Array<{ extensionPath: string; event: string; error: string }>;
  /** The mode's UI: dialogs and notices go there from now on. */
  bindUi(ui: ExtensionUI): void;
  /**
   * Where pig's own notices about extensions go from now on (a built-in tool replaced, a
   * provider with the user's credentials pointed elsewhere); the ones raised before come first.
   */
  bindNotices(sink: (text: string) => void): void;
  /** The MCP servers the extensions registered, in load order. */
  mcpServers(): Array<{ name: string; config: Record<string, unknown>; extensionPath: string }>;
  /** Told when the extensions' MCP servers change (registered or removed after they loaded, a reload). */
  onMcpServersChange(listener: () => void): void;
  /** Tells the user something once, where the notices go (MCP's problems at start-up, say). */
  notice(text: string): void;
  /** ctx.shutdown() from an extension: the mode says what it means (default: nothing). */
  onShutdownRequest(handler: () => void): void;
  /**
   * Stops the extensions and starts them again for the same session (/reload, ctx.reload()).
   * With a choice (a Piglet switch), the extensions found are that choice's from now on — in a
   * run that started with none, this is when the host starts.
   */
  reload(choice?: ExtensionChoice): Promise<ExtensionReload>;
  /** The resource paths the extensions gave at the latest `resources_discover` (after session_start). */
  discoveredPaths(): DiscoveredPaths;
  /** Told after each reload (the interactive mode resolves shortcuts again). */
  onReload(listener: (result: ExtensionReload) => void): void;
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
  attach(session: AgentSession, reason?: "startup" | "reload"): Promise<void>;
}

/** Extensions started before trust was decided, to ask `project_trust` (project-trust-stage.ts). */
export interface EarlyExtensions {
  launch: ExtensionLaunch;
  host: ExtensionHost;
  /** The ids it runs, in load order. */
  ids: string[];
}

/** Resource paths the extensions added (`resources_discover`), as given: relative ones are the cwd's. */
export interface DiscoveredPaths {
  skillPaths: string[];
  promptPaths: string[];
  themePaths: string[];
}
