/** What an `AgentSession` is made from: the session file, the model, the tools, the settings in force. */
import type { ModelRegistry } from "../ai/registry.ts";
import type { Model, StreamFunction, ThinkingBudgets } from "../ai/types.ts";
import type { Settings } from "../resources/settings.ts";
import type { CompactionSettings, RetrySettings } from "../resources/settings-effective.ts";
import type { SettingsStore } from "../resources/settings-store.ts";
import type { SystemPromptOptions } from "../resources/system-prompt-options.ts";
import type { ThinkingLevel } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import type { OutputLimits } from "../tools/output-bound.ts";
import type { AnyTool } from "../tools/types.ts";
import type { CommandPort } from "./command-port.ts";
import type { AgentHooks } from "./hooks.ts";
import type { QueueMode } from "./queue.ts";
import type { ToolRegistry } from "./tool-registry.ts";

export interface PromptOptionsPort {
  of(active: readonly AnyTool[], all: readonly AnyTool[]): SystemPromptOptions;
  sections(options: SystemPromptOptions): Record<string, string>;
}

export interface AgentSessionOptions {
  store: SessionStore;
  registry: ModelRegistry;
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  /** The active tools at start, or a registry of every tool with the active ones. */
  tools: AnyTool[] | ToolRegistry;
  /** The system prompt for the current tools, as named sections (re-asked before every prompt). */
  systemSections: (tools: readonly AnyTool[]) => Record<string, string>;
  /**
   * The prompt's structured inputs (upstream's `systemPromptOptions`) for the active tools, and
   * the sections made from them once `before_agent_start` edited them. Absent: made from the
   * tools and the working directory alone.
   */
  promptOptions?: PromptOptionsPort;
  cwd: string;
  agentDir: string;
  retry: RetrySettings;
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  toolExecution?: "parallel" | "sequential";
  /** The bound on results of tools that do not bound their own (setting `toolOutput`; Pi's limits when absent). */
  toolOutput?: OutputLimits;
  /** The streaming function for an API (injectable for tests). */
  streamFor: (model: Model) => StreamFunction;
  /** Rewrites typed input before it is sent or queued (`/skill:name`, prompt templates). */
  expandInput?: (text: string) => string;
  compaction?: CompactionSettings;
  /** `defaultThinkingLevel` as it is now: the level a reasoning model starts at after one that could not reason. */
  defaultThinkingLevel?: () => ThinkingLevel | undefined;
  /** Settings read for every request: `thinkingBudgets` and `images.blockImages`. */
  requestSettings?: () => { thinkingBudgets?: ThinkingBudgets | undefined; blockImages?: boolean | undefined; autoResizeImages?: boolean | undefined };
  hooks?: AgentHooks;
  commands?: CommandPort;
  /** Where choices are remembered (default model, thinking level, modes); absent: nowhere. */
  settings?: SettingsStore;
  /** Where new sessions are written; undefined for `--no-session` (sessions stay in memory). */
  sessionDir?: string | undefined;
  /** The settings in force (files merged with any overrides); defaults to the store's. */
  effectiveSettings?: () => Settings;
  /** `--models` / `enabledModels`: the models Ctrl+P and `cycle_model` go through. */
  scopedModels?: Model[];
  /** A scoped model's own thinking level (`--models a:high`), keyed `provider/id`. */
  scopedThinking?: Record<string, ThinkingLevel>;
  /** The model picked on the command line (`--model`, `--models`), which `/new` keeps. */
  chosenModel?: Model;
}
