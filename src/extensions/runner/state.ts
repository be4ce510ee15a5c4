/**
 * The host's `state` notifications, kept so Pi's synchronous reads (`getActiveTools()`,
 * `ctx.model`, `isIdle()`, …) answer at once. Each notification may carry only what changed.
 */
import type { ContextUsage, Model, SlashCommandInfo, ThinkingLevel, ToolInfo } from "../api/types.ts";

export interface HostState {
  cwd: string;
  sessionFile?: string;
  sessionDir?: string;
  sessionId: string;
  sessionName?: string;
  model?: Model;
  models?: Model[];
  thinkingLevel: ThinkingLevel;
  activeTools: string[];
  allTools: ToolInfo[];
  commands: SlashCommandInfo[];
  isIdle: boolean;
  hasPendingMessages: boolean;
  systemPrompt: string;
  contextUsage?: ContextUsage | null;
  /** The providers pig holds credentials for, and their kind (never a key). */
  credentials?: Record<string, "key" | "oauth">;
  /** The settings in force, as pig merged them. */
  settings?: Record<string, unknown>;
  /** Which model list pig has: the runner's copy of it stays good while this does not change. */
  modelsRevision?: number;
}

export class StateMirror {
  value: HostState;

  constructor(cwd: string) {
    this.value = {
      cwd,
      sessionId: "",
      thinkingLevel: "off",
      activeTools: [],
      allTools: [],
      commands: [],
      isIdle: true,
      hasPendingMessages: false,
      systemPrompt: "",
    };
  }

  update(patch: Partial<HostState>): void {
    this.value = { ...this.value, ...patch };
  }
}
