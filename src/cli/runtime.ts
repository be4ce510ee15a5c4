/**
 * From command-line arguments to a ready `AgentSession`: settings, models and keys, the session
 * file (new, continued or named), the tools and the system prompt.
 */
import { existsSync } from "node:fs";
import type { SessionController } from "../agent/controller.ts";
import { restoreModelAndThinking } from "../agent/model-restore.ts";
import { AgentSession } from "../agent/session.ts";
import { ToolRegistry } from "../agent/tool-registry.ts";
import { matchModels, parseModelPattern } from "../ai/model-select.ts";
import { PROVIDER_DEFAULT_MODEL } from "../ai/models.ts";
import { ModelRegistry } from "../ai/registry.ts";
import { streamFor } from "../ai/stream.ts";
import type { Model } from "../ai/types.ts";
import { ensureDocs } from "../resources/docs.ts";
import { inputExpander, loadResources, skillsBlock, type LoadedResources } from "../resources/load-resources.ts";
import { compactionSettings, mergeSettings, retrySettings, type Settings } from "../resources/settings.ts";
import type { AnyTool } from "../tools/types.ts";
import { SettingsStore } from "../resources/settings-store.ts";
import type { StartupReportInput } from "../resources/startup-report.ts";
import { decideTrust } from "../resources/trust.ts";
import { VERSION } from "../version.ts";
import { buildSystemSections } from "../resources/system-prompt.ts";
import { mostRecentSession } from "../session/catalog.ts";
import { findSession } from "./find-session.ts";
import type { ThinkingLevel } from "../session/format.ts";
import { agentDir as defaultAgentDir, resolveSessionDir } from "../session/paths.ts";
import { SessionStore } from "../session/store.ts";
import { createBuiltinTools, selectTools } from "../tools/index.ts";
import type { CliArgs } from "./args.ts";
import { toolList } from "./args.ts";
import { CliError } from "./errors.ts";
import { writeStderr } from "../util/stdio.ts";

export interface Runtime {
  session: AgentSession;
  /** Whether this project's own resources (.pig/…) are in use. */
  trusted: boolean;
  controller: SessionController;
  registry: ModelRegistry;
  agentDir: string;
  sessionDir: string | undefined;
  /** Reads context files, prompts, skills and templates again; the next request uses them. */
  reload(): LoadedResources;
  settings: SettingsStore;
  resources: LoadedResources;
  /** Problems worth a line on stderr (always shown). */
  warnings: string[];
  /** What the startup report shows (`--verbose`, and interactive mode), for `formatStartupReport`. */
  startup: StartupReportInput;
}

export interface RuntimeOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Whether the run may ask questions (trust). */
  interactive: boolean;
  /** Tools beyond the built-ins (SDK tools); a tool with a built-in's name replaces it. */
  extraTools?: AnyTool[];
  /** Settings that win over both settings files for this run (SDK). */
  settingsOverrides?: Settings;
}

/** Picks the model named by `--provider` / `--model`; throws a clear error when none matches. */
export function modelFromArgs(args: CliArgs, registry: ModelRegistry, warnings: string[]): { model?: Model; thinking?: ThinkingLevel } {
  const providers = registry.providers;
  if (args.provider && !providers.has(args.provider)) {
    throw new CliError(`Unknown provider "${args.provider}". Use --list-models to see available providers/models.`);
  }
  if (!args.model) {
    if (!args.provider) return {};
    const id = PROVIDER_DEFAULT_MODEL[args.provider];
    const model = (id && registry.find(args.provider, id)) || registry.models.find((m) => m.provider === args.provider);
    return model ? { model } : {};
  }
  const pattern = parseModelPattern(args.model, providers);
  const provider = args.provider ?? pattern.provider;
  const matches = matchModels(registry.models, { ...pattern, ...(provider ? { provider } : {}) });
  const thinking = pattern.thinking ? { thinking: pattern.thinking } : {};
  if (matches[0]) return { model: matches[0], ...thinking };
  if (provider) {
    const base = registry.find(provider, PROVIDER_DEFAULT_MODEL[provider] ?? "") ?? registry.models.find((m) => m.provider === provider);
    if (base) {
      warnings.push(`Model "${pattern.pattern}" not found for provider "${provider}". Using custom model id.`);
      return { model: { ...base, id: pattern.pattern, name: pattern.pattern }, ...thinking };
    }
  }
  throw new CliError(`Model "${args.model}" not found. Use --list-models to see available models.`);
}

function openStore(args: CliArgs, cwd: string, dir: string, agent: string, warnings: string[]): SessionStore {
  if (args.noSession) return SessionStore.create({ cwd });
  if (args.session) {
    const match = findSession(args.session, cwd, dir, agent);
    if (!existsSync(match.path)) return SessionStore.create({ cwd, path: match.path });
    return SessionStore.open(match.path, { write: true });
  }
  if (args.continue) {
    const recent = mostRecentSession(dir);
    for (const path of recent.skipped) {
      warnings.push(`${path} is not a session file (its first line is not a session header); left as it is, ${recent.path ? `continuing ${recent.path}` : "starting a new session"}`);
    }
    if (recent.path) return SessionStore.open(recent.path, { write: true });
  }
  return SessionStore.create({ cwd, dir });
}

async function trustAndSettings(args: CliArgs, cwd: string, agent: string, interactive: boolean) {
  const flag = args.trust ? true : args.noTrust ? false : undefined;
  const trust = await decideTrust({ cwd, agentDir: agent, interactive, ...(flag !== undefined ? { flag } : {}) });
  const settings = SettingsStore.load({ agentDir: agent, cwd, includeProject: trust.trusted });
  return { trust, settings };
}

export async function createRuntime(args: CliArgs, options: RuntimeOptions): Promise<Runtime> {
  const env = options.env ?? process.env;
  const agent = defaultAgentDir(env);
  const warnings: string[] = [];
  const registry = new ModelRegistry({ agentDir: agent, env });
  warnings.push(...registry.problems);
  let chosen: ReturnType<typeof modelFromArgs>;
  try {
    chosen = modelFromArgs(args, registry, warnings);
  } catch (error) {
    // A model missing because models.json could not be used: the reason comes first.
    if (error instanceof CliError) throw new CliError(error.message, error.exitCode, [...error.warnings, ...warnings]);
    throw error;
  }
  if (args.apiKey) {
    if (!chosen.model) throw new CliError("--api-key requires a model to be specified via --model or --provider");
    registry.setRuntimeKey(chosen.model.provider, args.apiKey);
  }

  // Trust is decided once, for the directory the session runs in: here, unless --session names a
  // session started elsewhere (then the session is found with the global settings first).
  let decided = args.session ? undefined : await trustAndSettings(args, options.cwd, agent, options.interactive);
  const dirSettings = decided?.settings ?? SettingsStore.load({ agentDir: agent, cwd: options.cwd, includeProject: false });
  const dir = resolveSessionDir(options.cwd, { flag: args.sessionDir, setting: dirSettings.settings.sessionDir, env });
  const store = openStore(args, options.cwd, dir, agent, warnings);
  // A session opened by name runs where it was started (upstream 0.73.1); --continue stays here.
  const cwd = args.session && store.cwd ? store.cwd : options.cwd;
  if (!existsSync(cwd)) {
    store.close();
    throw new CliError(
      `Stored session working directory does not exist: ${cwd}\nSession file: ${store.path}\nCurrent working directory: ${options.cwd}`,
    );
  }
  decided ??= await trustAndSettings(args, cwd, agent, options.interactive);
  const { trust, settings } = decided;
  if (trust.message) warnings.push(trust.message);
  warnings.push(...trust.diagnostics, ...settings.drainDiagnostics().map((d) => d.message));
  // The store replaces its merged settings on every write (`/model` saves the default model), so
  // whatever runs later reads them through this, never a copy taken here.
  const liveSettings = (): Settings =>
    options.settingsOverrides ? mergeSettings(settings.settings, options.settingsOverrides) : settings.settings;
  const effective = liveSettings();

  const loadAll = () => loadResources({
    cwd,
    agentDir: agent,
    trusted: trust.trusted,
    userSettings: settings.global,
    projectSettings: trust.trusted ? settings.project : {},
    flags: {
      ...(args.systemPrompt !== undefined ? { systemPrompt: args.systemPrompt } : {}),
      ...(args.appendSystemPrompt ? { appendSystemPrompt: args.appendSystemPrompt } : {}),
      ...(args.skill ? { skills: args.skill } : {}),
      ...(args.promptTemplate ? { promptTemplates: args.promptTemplate } : {}),
      noSkills: args.noSkills ?? false,
      noPromptTemplates: args.noPromptTemplates ?? false,
      ...(args.theme ? { themes: args.theme } : {}),
      noThemes: args.noThemes ?? false,
      noContextFiles: args.noContextFiles ?? false,
    },
  });
  let resources = loadAll();

  // --models / enabledModels: the models Ctrl+P and cycle_model go through, each with its `:level`.
  const patterns = toolList(args.models) ?? effective.enabledModels ?? [];
  const scoped = patterns.flatMap((pattern) => {
    const parsed = parseModelPattern(pattern, registry.providers);
    return matchModels(registry.available(), parsed)
      .slice(0, /[*?[]/.test(parsed.pattern) ? undefined : 1)
      .map((m) => ({ model: m, ...(parsed.thinking ? { thinking: parsed.thinking } : {}) }));
  });
  const hasMessages = store.planContext().items.length > 0;
  // Without --model, a new session starts in the scope: on the saved default if it is there,
  // else on the first scoped model (with its level), as upstream.
  let startModel = chosen.model;
  let startThinking = args.thinking ?? chosen.thinking;
  if (!startModel && scoped.length > 0 && !hasMessages) {
    const saved = scoped.find((s) => s.model.provider === effective.defaultProvider && s.model.id === effective.defaultModel);
    const pick = saved ?? scoped[0]!;
    startModel = pick.model;
    startThinking ??= pick.thinking;
  }
  const restored = restoreModelAndThinking({
    store,
    registry,
    settings: effective,
    ...(startModel ? { model: startModel } : {}),
    ...(startThinking ? { thinking: startThinking } : {}),
  });
  if (restored.warning) warnings.push(restored.warning);
  const { model } = restored;

  const all = createBuiltinTools({
    ...(effective.shellPath ? { shellPath: effective.shellPath } : {}),
    ...(effective.shellCommandPrefix ? { shellCommandPrefix: effective.shellCommandPrefix } : {}),
    autoResizeImages: effective.images?.autoResize ?? true,
  });
  for (const tool of options.extraTools ?? []) (all as Record<string, AnyTool>)[tool.name] = tool;
  const toolsFlag = toolList(args.tools);
  const selection = selectTools(all, {
    tools: toolsFlag ?? effective.defaultTools,
    toolsSource: toolsFlag ? "--tools" : "the defaultTools setting",
    noTools: args.noTools ?? false,
    exclude: toolList(args.excludeTools) ?? [],
  });
  warnings.push(...selection.warnings);
  const sdkNames = new Set((options.extraTools ?? []).map((tool) => tool.name));
  const tools = new ToolRegistry(
    Object.values(all as Record<string, AnyTool>).map((tool) => ({ tool, source: { kind: sdkNames.has(tool.name) ? "sdk" : "builtin" } as const })),
    selection.tools,
    {
      ...(toolsFlag ? { allowlist: toolsFlag } : {}),
      noTools: args.noTools ?? false,
      ...(args.excludeTools ? { exclude: toolList(args.excludeTools) ?? [] } : {}),
    },
  );

  const docsDir = ensureDocs(agent);
  const session = new AgentSession({
    store,
    registry,
    model,
    thinkingLevel: restored.thinkingLevel,
    tools,
    systemSections: (tools) =>
      buildSystemSections({
        cwd,
        tools,
        ...(resources.customPrompt !== undefined ? { customPrompt: resources.customPrompt } : {}),
        ...(resources.appendPrompt ? { appendPrompt: resources.appendPrompt } : {}),
        contextFiles: resources.contextFiles,
        ...(skillsBlock(resources) ? { skillsBlock: skillsBlock(resources) } : {}),
        ...(docsDir ? { docsDir } : {}),
      }),
    cwd,
    agentDir: agent,
    retry: retrySettings(effective),
    compaction: compactionSettings(effective),
    ...(effective.steeringMode ? { steeringMode: effective.steeringMode } : {}),
    ...(effective.followUpMode ? { followUpMode: effective.followUpMode } : {}),
    streamFor,
    defaultThinkingLevel: () => liveSettings().defaultThinkingLevel,
    requestSettings: () => {
      const now = liveSettings();
      return { thinkingBudgets: now.thinkingBudgets, blockImages: now.images?.blockImages };
    },
    expandInput: (text) => inputExpander(resources, (message) => writeStderr(`pig: warning: ${message}\n`))(text),
    settings,
    sessionDir: args.noSession ? undefined : dir,
    effectiveSettings: liveSettings,
    ...(startModel ? { chosenModel: model } : {}),
    ...(scoped.length > 0 ? { scopedModels: scoped.map((s) => s.model), scopedThinking: scopedThinking(scoped) } : {}),
  });
  // `--name`: the session's display name, given before anything runs (upstream 0.78).
  if (args.name !== undefined && args.name !== store.name) session.setSessionName(args.name);
  // Damage found in the session file while opening it and building its context: named, not hidden.
  warnings.push(...fileWarnings(store.diagnostics.map((d) => d.message)));
  const startup: StartupReportInput = {
    version: VERSION,
    ...(model ? { model: `${model.provider}/${model.id}` } : {}),
    thinkingLevel: session.thinkingLevel,
    cwd,
    session: { ...(store.path ? { path: store.path } : {}), continued: hasMessages },
    contextFiles: resources.contextFiles,
    skills: resources.skills.map((s) => ({ name: s.name, path: s.filePath })),
    templates: resources.templates.map((t) => ({ name: t.name, path: t.filePath })),
    extensions: [],
    diagnostics: resources.diagnostics,
    trust: { trusted: trust.trusted, reason: trust.reason },
  };
  // One object: the session is its own controller.
  const controller: SessionController = session;
  return {
    session,
    controller,
    trusted: trust.trusted,
    registry,
    settings,
    get resources() {
      return resources;
    },
    agentDir: agent,
    sessionDir: args.noSession ? undefined : dir,
    warnings,
    startup,
    reload() {
      resources = loadAll();
      return resources;
    },
  };
}

/** The `:level` of each scoped model that names one, keyed `provider/id`. */
function scopedThinking(scoped: readonly { model: Model; thinking?: ThinkingLevel }[]): Record<string, ThinkingLevel> {
  const out: Record<string, ThinkingLevel> = {};
  for (const s of scoped) if (s.thinking) out[`${s.model.provider}/${s.model.id}`] = s.thinking;
  return out;
}

/** At most a few lines about a damaged file, then how many more there are. */
function fileWarnings(messages: readonly string[], shown = 5): string[] {
  if (messages.length <= shown) return [...messages];
  return [...messages.slice(0, shown), `… and ${messages.length - shown} more problems in the same file (pig sessions show lists them all)`];
}
