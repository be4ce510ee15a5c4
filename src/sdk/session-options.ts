/**
 * The options of `createAgentSession`, in process (Bun, src/sdk.ts) and over `pig --mode rpc`
 * (the package on Node, rpc-session.ts): one definition for both.
 */
import type { Settings } from "../resources/settings.ts";
import type { ThinkingLevel } from "../session/format.ts";
import type { AnyTool } from "../tools/types.ts";

export interface CreateAgentSessionOptions {
  /** Working directory of the session (default: process.cwd()). */
  cwd?: string;
  /** Agent directory (default: PIG_CODING_AGENT_DIR or ~/.pig/agent). */
  agentDir?: string;
  /** "memory": never written; "new" (default): a new file; "continue": the most recent; or a file. */
  session?: "memory" | "new" | "continue" | { path: string };
  sessionDir?: string;
  /** `provider/id`, an id, or a pattern as `--model` takes. */
  model?: string;
  provider?: string;
  apiKey?: string;
  thinkingLevel?: ThinkingLevel;
  /**
   * A Piglet by name (`<agentDir>/piglets/`, a trusted project's `.pig/piglets/`): its model,
   * thinking, tools, extensions, skills, templates and system prompt fill what these options leave unset.
   */
  piglet?: string;
  /** Built-in tools to enable by name (default: read, bash, edit, write); [] for none. */
  tools?: string[];
  /** Tools of your own, always enabled. */
  customTools?: AnyTool[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  skills?: boolean;
  promptTemplates?: boolean;
  contextFiles?: boolean;
  /** Whether the project's own resources (.pig/…) may be used (default false). */
  trustProject?: boolean;
  /** Settings that win over the settings files. */
  settings?: Settings;
  /** Extension files or directories to load (as `-e`), besides the discovered ones. */
  extensions?: string[];
  /** Load only `extensions`, none discovered in the agent dir or project. */
  noExtensions?: boolean;
}
