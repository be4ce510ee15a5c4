/**
 * Switching the run to another Piglet while it runs (`/piglet`, RPC `set_piglet`): its model and
 * thinking level, extensions, tools, system prompt, skills and prompt templates take effect for
 * the next request; the switch is recorded in the session (a `pig.piglet` entry) so resuming
 * restores it. Other extensions are a reload of the extension host with the new Piglet's
 * choice (as `/reload`: the old ones hear session_shutdown, the new ones session_start, both
 * with reason "reload"). The command line's own flags still win over the Piglet's, as at start.
 */
import { basename } from "node:path";
import type { AgentSession } from "../agent/session.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import type { Piglet } from "../resources/piglet.ts";
import type { Settings } from "../resources/settings.ts";
import type { RuntimeConfig } from "./config.ts";
import type { RunExtensions } from "./run-extensions.ts";
import { chooseNamedModel } from "./model-choice.ts";
import { UserError } from "./errors.ts";
import { pigletModelError, readRunPiglet, recordedPiglet, recordPiglet, withPiglet } from "./piglet-stage.ts";
import type { RunResources } from "./resources-stage.ts";
import { selectRunTools } from "./tools-stage.ts";

export interface PigletSwitch {
  piglet: Piglet;
  /** `provider/id` when the Piglet chose the model. */
  model?: string;
  thinking?: string;
  tools: string[];
  /** Present when the extensions were switched: the ids that run now. */
  extensions?: string[];
  /** What the Piglet chooses that does not switch in this process (nothing, now; kept for clients). */
  needsRestart: string[];
  warnings: string[];
}

export interface PigletSwitchInput {
  /** The run's config as its front end gave it (before any Piglet). */
  given: RuntimeConfig;
  /** The Piglet the run has now, if any. */
  current: Piglet | undefined;
  session: AgentSession;
  registry: ModelRegistry;
  resources: RunResources;
  extensions: RunExtensions;
  settings: () => Settings;
  where: { agentDir: string; cwd: string; trusted: boolean };
  /** Restoring a session's Piglet: the model and level stay the session's own. */
  keepModel?: boolean;
  /** Takes the run's new config (the resources are read from it). */
  setConfig(config: RuntimeConfig): void;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/** Throws `UserError` for an unknown or unusable Piglet (nothing has changed then). */
export async function switchPiglet(name: string, input: PigletSwitchInput): Promise<PigletSwitch> {
  const warnings: string[] = [];
  const piglet = readRunPiglet(name, input.where, warnings);
  const next = withPiglet(input.given, { piglet, explicit: !input.keepModel });
  const { session } = input;
  const result: PigletSwitch = { piglet, tools: [], needsRestart: [], warnings };

  // The model first: a name that matches nothing stops the switch before anything changed.
  if (next.model !== input.given.model) {
    let named: ReturnType<typeof chooseNamedModel>;
    try {
      named = chooseNamedModel(next, input.registry, warnings);
    } catch (error) {
      throw error instanceof UserError ? pigletModelError(piglet, error) : error;
    }
    if (named.model) {
      session.setModel(named.model);
      result.model = `${named.model.provider}/${named.model.id}`;
    }
  }
  if (next.thinking !== undefined && next.thinking !== input.given.thinking) {
    session.setThinkingLevel(next.thinking);
    result.thinking = session.thinkingLevel;
  }

  // Other extensions: the host reloads with the new choice, before the tools are chosen (theirs among them).
  input.setConfig(next);
  if (!sameList(piglet.extensions, input.current?.extensions)) {
    const reload = await input.extensions.reload(next.extensions ?? {});
    warnings.push(...reload.loadErrors, ...reload.warnings);
    result.extensions = reload.loaded;
  }

  // The tools the config now selects, of the built-ins and the tools the run added (SDK, extensions).
  const registry = session.toolRegistry;
  const added = registry.all().filter((entry) => entry.source.kind !== "builtin");
  const names = [...selectRunTools(next, input.settings(), added, warnings, () => input.registry.credentialVars()).activeToolNames];
  registry.setLimits(
    {
      ...(next.tools ? { allowlist: next.tools } : {}),
      noTools: next.noTools ?? false,
      ...(next.excludeTools ? { exclude: next.excludeTools } : {}),
      ...(!next.tools && !next.noTools && input.settings().defaultTools ? { named: input.settings().defaultTools } : {}),
    },
    names,
  );
  result.tools = [...registry.activeToolNames];

  for (const d of input.resources.reload().diagnostics) warnings.push(d.message);
  recordPiglet(session.store, piglet.name);
  return result;
}

/** One line saying what switched (and what waits for a restart). */
export function describeSwitch(done: PigletSwitch): string {
  const extensions = done.extensions ? `extensions ${done.extensions.map((id) => basename(id)).join(", ") || "none"}` : undefined;
  const parts = [done.model ? `model ${done.model}` : undefined, done.thinking ? `thinking ${done.thinking}` : undefined, extensions, `tools ${done.tools.join(", ") || "none"}`];
  return `Piglet ${done.piglet.name}: ${parts.filter(Boolean).join("; ")}.`;
}

/**
 * When the session is replaced inside the run: a new, forked or cloned session keeps the Piglet
 * (recorded in its file); a session switched to (`/resume`) brings back the Piglet it recorded,
 * with its own model, and one that recorded none keeps the current Piglet.
 */
export function followSessionPiglet(session: AgentSession, current: () => Piglet | undefined, restore: (name: string) => Promise<PigletSwitch>): void {
  session.onReplace({
    async after(event) {
      const now = current();
      const recorded = recordedPiglet(session.store);
      if (event.reason !== "switch") {
        if (now) recordPiglet(session.store, now.name);
        return;
      }
      if (recorded === undefined || recorded === now?.name) return;
      try {
        await restore(recorded);
      } catch {
        // A Piglet gone since: the session goes on with the current one (the next switch records anew).
      }
    },
  });
}
