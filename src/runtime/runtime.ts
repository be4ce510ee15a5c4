/**
 * What a built run hands the modes: the session and what they read beside it.
 * The run owns what it holds (the session file's lock, the extension processes) until `close()`.
 */
import type { RunExtensions } from "./run-extensions.ts";
import type { AgentSession } from "../agent/session.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import type { Piglet } from "../resources/piglet.ts";
import type { PigletFile } from "../resources/piglets.ts";
import type { PigletSwitch } from "./piglet-switch.ts";
import type { LoadedResources } from "../resources/load-resources.ts";
import type { SettingsStore } from "../resources/settings-store.ts";
import type { StartupReportInput } from "../resources/startup-report.ts";

export interface Runtime extends AsyncDisposable {
  session: AgentSession;
  /** Whether this project's own resources (.pig/…) are in use. */
  trusted: boolean;
  /** The run's Piglet (named, or restored from the session), if any. */
  readonly piglet: Piglet | undefined;
  /** The Piglets there are, and switching to one for the rest of the session (runtime/piglet-switch.ts). */
  piglets: {
    list(): PigletFile[];
    /** Throws `UserError` for an unknown or unusable Piglet. */
    switch(name: string): Promise<PigletSwitch>;
  };
  registry: ModelRegistry;
  agentDir: string;
  sessionDir: string | undefined;
  /**
   * Reads the settings files, context files, prompts, skills and templates again: the session
   * takes up the settings it keeps a copy of, and the next request uses the rest.
   */
  reload(): LoadedResources;
  settings: SettingsStore;
  resources: LoadedResources;
  /** Problems worth a line on stderr (always shown). */
  warnings: string[];
  /** What the startup report shows (`--verbose`, and interactive mode), for `formatStartupReport`. */
  startup: StartupReportInput;
  /** The run's extensions: their registries, host, load errors, UI binding and shutdown. */
  extensions: RunExtensions;
  /**
   * Ends the run: the extensions hear `session_shutdown` and their processes stop, then the
   * session file is let go (its lock released). Once: a second call gets the first one's
   * promise. `[Symbol.asyncDispose]` is the same, for `await using`.
   */
  close(): Promise<void>;
}
