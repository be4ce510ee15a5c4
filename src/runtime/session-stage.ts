/**
 * The run's `AgentSession`, and what the startup report shows of it: the last stage, when
 * settings, resources, extensions, tools and the model are known.
 */
import type { AgentHooks } from "../agent/hooks.ts";
import type { Restored } from "../agent/model-restore.ts";
import { AgentSession } from "../agent/session.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import { streamFor } from "../ai/stream.ts";
import type { Model } from "../ai/types.ts";
import { ensureDocs } from "../resources/docs.ts";
import { inputExpander } from "../resources/load-resources.ts";
import { compactionSettings, retrySettings, toolOutputLimits } from "../resources/settings-effective.ts";
import type { StartupReportInput } from "../resources/startup-report.ts";
import { promptOptionsOf, sectionsFromOptions } from "../resources/system-prompt-options.ts";
import type { ToolRegistry } from "../agent/tool-registry.ts";
import type { AnyTool } from "../tools/types.ts";
import { sameObjects } from "../util/same-start.ts";
import { writeStderr } from "../util/stdio.ts";
import { VERSION } from "../version.ts";
import { scopedThinking, type ScopedModel } from "./model-choice.ts";
import type { OpenedSession } from "./open-store.ts";
import type { RunResources } from "./resources-stage.ts";

export interface SessionStageInput {
  opened: OpenedSession;
  resources: RunResources;
  registry: ModelRegistry;
  agentDir: string;
  start: Restored;
  /** Set when the run named its model (or the scope chose it): the session keeps it across /new. */
  chosenModel: Model | undefined;
  scoped: readonly ScopedModel[];
  /** Whether the session had messages when it was opened. */
  hasMessages: boolean;
  tools: ToolRegistry;
  /** The extensions' hooks. */
  hooks: AgentHooks;
  name: string | undefined;
  /** The loaded extensions' paths, for the startup report. */
  extensions?: readonly string[];
}

export interface BuiltSession {
  session: AgentSession;
  startup: StartupReportInput;
}

export function buildSession(input: SessionStageInput, warnings: string[]): BuiltSession {
  const { opened, resources, registry, agentDir, start } = input;
  const { store, cwd, liveSettings } = opened;
  const effective = liveSettings();
  const docsDir = ensureDocs(agentDir);
  const promptOptions = (active: readonly AnyTool[], all: readonly AnyTool[]) => {
    const now = resources.current();
    return promptOptionsOf({
      cwd,
      tools: all,
      selected: active.map((tool) => tool.name),
      ...(now.customPrompt !== undefined ? { customPrompt: now.customPrompt } : {}),
      ...(now.appendPrompt ? { appendPrompt: now.appendPrompt } : {}),
      contextFiles: now.contextFiles,
      skills: now.skills,
    });
  };
  const session = new AgentSession({
    store,
    registry,
    model: start.model,
    thinkingLevel: start.thinkingLevel,
    tools: input.tools,
    // The prompt is made from its structured inputs (upstream 1.x's), which extensions may edit.
    systemSections: sectionsWhileUnchanged((tools) => sectionsFromOptions(promptOptions(tools, tools), docsDir), () => resources.current()),
    promptOptions: { of: promptOptions, sections: (options) => sectionsFromOptions(options, docsDir) },
    cwd,
    agentDir,
    retry: retrySettings(effective),
    compaction: compactionSettings(effective),
    toolOutput: toolOutputLimits(effective),
    ...(effective.steeringMode ? { steeringMode: effective.steeringMode } : {}),
    ...(effective.followUpMode ? { followUpMode: effective.followUpMode } : {}),
    // An API an extension serves (registerProvider with streamSimple) comes before pig's own.
    streamFor: (model) => streamFor(model, (api) => registry.apiStream(api)),
    defaultThinkingLevel: () => liveSettings().defaultThinkingLevel,
    requestSettings: () => {
      const now = liveSettings();
      return { thinkingBudgets: now.thinkingBudgets, blockImages: now.images?.blockImages, autoResizeImages: now.images?.autoResize };
    },
    expandInput: (text) => inputExpander(resources.current(), (message) => writeStderr(`pig: warning: ${message}\n`))(text),
    hooks: input.hooks,
    settings: opened.settings,
    sessionDir: opened.sessionDir,
    effectiveSettings: liveSettings,
    ...(input.chosenModel ? { chosenModel: input.chosenModel } : {}),
    ...(input.scoped.length > 0 ? { scopedModels: input.scoped.map((s) => s.model), scopedThinking: scopedThinking(input.scoped) } : {}),
  });
  // The display name is given before anything runs (upstream 0.78).
  if (input.name !== undefined && input.name !== store.name) session.setSessionName(input.name);
  // Damage found in the session file while opening it and building its context: named, not hidden.
  warnings.push(...fileWarnings(store.diagnostics.map((d) => d.message)));
  return { session, startup: startupReport(input, session.thinkingLevel) };
}

function startupReport(input: SessionStageInput, thinkingLevel: StartupReportInput["thinkingLevel"]): StartupReportInput {
  const { opened, start } = input;
  const resources = input.resources.current();
  const model = start.model;
  return {
    version: VERSION,
    ...(model ? { model: `${model.provider}/${model.id}` } : {}),
    thinkingLevel,
    cwd: opened.cwd,
    session: { ...(opened.store.path ? { path: opened.store.path } : {}), continued: input.hasMessages },
    contextFiles: resources.contextFiles,
    skills: resources.skills.map((s) => ({ name: s.name, path: s.filePath })),
    templates: resources.templates.map((t) => ({ name: t.name, path: t.filePath })),
    extensions: [...(input.extensions ?? [])],
    diagnostics: resources.diagnostics,
    trust: { trusted: opened.trust.trusted, reason: opened.trust.reason },
  };
}

/** At most a few lines about a damaged file, then how many more there are. */
function fileWarnings(messages: readonly string[], shown = 5): string[] {
  if (messages.length <= shown) return [...messages];
  return [...messages.slice(0, shown), `… and ${messages.length - shown} more problems in the same file (pig sessions show lists them all)`];
}

/**
 * `make(tools)`, made again only when the tools (the very objects, in order) or the loaded
 * resources (replaced whole on a reload) differ from the last call's: the run asks before every
 * request whether its prompt changed (agent/run-prompt.ts), and the answer is the same object,
 * so it is also found unchanged without comparing the texts.
 */
export function sectionsWhileUnchanged(
  make: (tools: readonly AnyTool[]) => Record<string, string>,
  resourcesNow: () => unknown,
): (tools: readonly AnyTool[]) => Record<string, string> {
  let last: { tools: readonly AnyTool[]; resources: unknown; sections: Record<string, string> } | undefined;
  return (tools) => {
    const resources = resourcesNow();
    if (last && last.resources === resources && sameObjects(tools, last.tools)) return last.sections;
    const sections = make(tools);
    last = { tools: [...tools], resources, sections };
    return sections;
  };
}
