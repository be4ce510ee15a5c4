/**
 * Starting the run's extensions and collecting what they register. The extension host is not
 * there yet, so nothing is started and nothing registered; the stage and its result are the
 * place it fills.
 */
import { NO_HOOKS, type AgentHooks } from "../agent/hooks.ts";
import type { LoadedResources } from "../resources/load-resources.ts";
import type { AnyTool } from "../tools/types.ts";
import type { ExtensionChoice } from "./config.ts";

export interface ExtensionStageInput {
  choice: ExtensionChoice;
  cwd: string;
  agentDir: string;
  /** Whether the project's own extensions may load. */
  trusted: boolean;
  resources: LoadedResources;
}

export interface ExtensionRegistrations {
  /** Tools the extensions registered; offered like the built-ins, a same-named one replacing it. */
  tools: AnyTool[];
  /** The extensions' handlers behind the agent's one hook interface. */
  hooks: AgentHooks;
}

export async function startExtensions(_input: ExtensionStageInput): Promise<ExtensionRegistrations> {
  return { tools: [], hooks: NO_HOOKS };
}
