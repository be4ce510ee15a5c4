/**
 * What a run is asked to be, whoever asks: the command line (cli/runtime-config.ts) and the SDK
 * (sdk.ts) each map their own options into this, and `createRuntime` builds the run from it.
 * Plain values only: parsing and defaults of a particular front end stay with that front end.
 */
import type { FlagRegistry } from "../extensions/flags.ts";
import type { ExtensionRegistries } from "../extensions/registries.ts";
import type { HostObserver } from "../extensions/host/observer.ts";
import type { HostTiming } from "../extensions/host/timing.ts";
import type { PrestartedRunner } from "../extensions/host/prestart.ts";
import type { StreamFunction } from "../ai/types.ts";
import type { ThinkingLevel } from "../ai/message-types.ts";
import type { ResourceFlags } from "../resources/load-resources.ts";
import type { Settings } from "../resources/settings.ts";
import type { AnyTool } from "../tools/types.ts";

/** Which session file the run writes to. */
export type SessionChoice =
  /** Kept in memory, never written (`--no-session`). */
  | { kind: "none" }
  /** A new file in the session directory. */
  | { kind: "new" }
  /** The most recent session in the session directory, else a new one (`--continue`). */
  | { kind: "continue" }
  /** A session file named by its path or by a prefix of its id (`--session`). */
  | { kind: "open"; pathOrId: string };

/** Where extensions come from; read by the extension stage. */
export interface ExtensionChoice {
  /** Extension files or directories named for this run. */
  paths?: readonly string[];
  /** Load no discovered extensions (the named ones still load). */
  noExtensions?: boolean;
  /** The mode extensions are told they run in (default: interactive when the run is, else print). */
  mode?: "interactive" | "print" | "json" | "rpc";
  /**
   * The command line's values of the extensions' flags, asked once every extension has
   * registered (before any is told the session started); throws for an option nobody registered.
   */
  flagValues?: (flags: FlagRegistry) => Record<string, boolean | string>;
  /** Where the extensions' commands, flags and shortcuts go (one per process); a fresh one if absent. */
  registries?: ExtensionRegistries;
  /** Sees what the extension host and its processes say to each other (`pig extension check`). */
  observer?: HostObserver;
  /** The host's clocks (ping interval, liveness, deadlines), over the defaults. */
  timing?: Partial<HostTiming>;
}

export interface RuntimeConfig {
  cwd: string;
  /** The environment the agent directory, session directory and keys are read from. */
  env: NodeJS.ProcessEnv;
  /** Whether the run may ask questions (trust). */
  interactive: boolean;
  /** `provider/id`, an id, or a pattern, optionally with `:level`, as `--model` takes. */
  model?: string;
  provider?: string;
  /** A key for the chosen model's provider, for this run only. */
  apiKey?: string;
  thinking?: ThinkingLevel;
  session: SessionChoice;
  /** Where sessions are kept, over the setting and the environment. */
  sessionDir?: string;
  /** System prompt, skill, template, theme and context-file choices. */
  resources?: ResourceFlags;
  /** Built-in (and extra) tools by name; absent: the `defaultTools` setting. */
  tools?: readonly string[];
  noTools?: boolean;
  excludeTools?: readonly string[];
  /** `--no-mcp`: no MCP server connects this run (upstream 1.x's flag). */
  noMcp?: boolean;
  /** Model patterns Ctrl+P cycles through; absent: the `enabledModels` setting. */
  models?: readonly string[];
  /** Whether the project's own resources may be used; absent: the saved decision, or ask. */
  trust?: boolean;
  /**
   * A Piglet by name (`<agentDir>/piglets/`, a trusted project's `.pig/piglets/`): its choices
   * fill what this config leaves unset (runtime/piglet-stage.ts). Absent: the session's own.
   */
  piglet?: string;
  /** The session's display name, set before anything runs. */
  name?: string;
  /** Tools beyond the built-ins (SDK tools); a tool with a built-in's name replaces it. */
  extraTools?: readonly AnyTool[];
  /** Settings that win over both settings files for this run (SDK). */
  settingsOverrides?: Settings;
  extensions?: ExtensionChoice;
  /**
   * Providers served in this process, registered before the model is chosen (as an extension's
   * `registerProvider`, with its own stream function): the SDK's and `pig extension check`'s models.
   */
  providers?: readonly { name: string; config: unknown; stream: StreamFunction }[];
  /**
   * The shared extension runner, when the caller started it already (the command line does,
   * before the runtime's modules load: runner-prestart.ts `prestartRunnerFor`); undefined in it
   * when the caller found none is needed. Without it, the runtime starts one itself.
   */
  prestartedRunner?: Promise<PrestartedRunner | undefined>;
}
