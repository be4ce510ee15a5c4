/**
 * From command-line arguments to a ready `AgentSession`: settings, models and keys, the session
 * file (new, continued or named), the tools and the system prompt.
 */
import { existsSync, readFileSync } from "node:fs";
import { AgentSession } from "../agent/session.ts";
import { matchModels, parseModelPattern } from "../ai/model-select.ts";
import { PROVIDER_DEFAULT_MODEL } from "../ai/models.ts";
import { ModelRegistry } from "../ai/registry.ts";
import { streamFor } from "../ai/stream.ts";
import type { Model } from "../ai/types.ts";
import { loadSettings, retrySettings, type Settings } from "../resources/settings.ts";
import { buildSystemPrompt } from "../resources/system-prompt.ts";
import { mostRecentSession, resolveSession } from "../session/catalog.ts";
import type { ThinkingLevel } from "../session/format.ts";
import { agentDir as defaultAgentDir, resolveSessionDir } from "../session/paths.ts";
import { SessionStore } from "../session/store.ts";
import { createBuiltinTools, selectTools } from "../tools/index.ts";
import type { CliArgs } from "./args.ts";
import { toolList } from "./args.ts";
import { CliError } from "./errors.ts";

export interface Runtime {
  session: AgentSession;
  settings: Settings;
  warnings: string[];
}

export interface RuntimeOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/** A flag value that names an existing file stands for the file's text. */
function textOrFile(value: string): string {
  try {
    if (existsSync(value)) return readFileSync(value, "utf8");
  } catch {
    // Not readable as a file: the value is the text.
  }
  return value;
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

function openStore(args: CliArgs, cwd: string, dir: string, agent: string): SessionStore {
  if (args.noSession) return SessionStore.create({ cwd });
  if (args.session) {
    const match = resolveSession(args.session, cwd, dir, agent);
    if (match.kind === "none") throw new CliError(`No session found matching '${args.session}'`);
    if (!existsSync(match.path)) return SessionStore.create({ cwd, path: match.path });
    return SessionStore.open(match.path, { write: true });
  }
  if (args.continue) {
    const recent = mostRecentSession(dir);
    if (recent) return SessionStore.open(recent, { write: true });
  }
  return SessionStore.create({ cwd, dir });
}

export function createRuntime(args: CliArgs, options: RuntimeOptions): Runtime {
  const env = options.env ?? process.env;
  const agent = defaultAgentDir(env);
  const warnings: string[] = [];
  const loaded = loadSettings(agent, options.cwd, false);
  warnings.push(...loaded.diagnostics.map((d) => d.message));
  const settings = loaded.settings;
  const registry = new ModelRegistry({ agentDir: agent, env });
  warnings.push(...registry.errors);

  const chosen = modelFromArgs(args, registry, warnings);
  if (args.apiKey) {
    if (!chosen.model) throw new CliError("--api-key requires a model to be specified via --model or --provider");
    registry.setRuntimeKey(chosen.model.provider, args.apiKey);
  }

  const dir = resolveSessionDir(options.cwd, { flag: args.sessionDir, setting: settings.sessionDir, env });
  const store = openStore(args, options.cwd, dir, agent);
  // A session opened by name runs where it was started (upstream 0.73.1); --continue stays here.
  const cwd = args.session && store.cwd ? store.cwd : options.cwd;
  if (!existsSync(cwd)) {
    store.close();
    throw new CliError(
      `Stored session working directory does not exist: ${cwd}\nSession file: ${store.path}\nCurrent working directory: ${options.cwd}`,
    );
  }
  const context = store.buildContext();
  const hasMessages = context.messages.length > 0;

  let model = chosen.model;
  if (!model && hasMessages && context.model) {
    const restored = registry.find(context.model.provider, context.model.modelId);
    if (restored && registry.hasKey(restored.provider)) model = restored;
    else warnings.push(`Could not restore model ${context.model.provider}/${context.model.modelId}`);
  }
  if (!model && settings.defaultProvider && settings.defaultModel) model = registry.find(settings.defaultProvider, settings.defaultModel);
  model ??= registry.defaultModel();

  const hasLevelEntry = store.branchRecords().some((r) => r.type === "thinking_level_change");
  const thinking: ThinkingLevel =
    args.thinking ?? chosen.thinking ?? (hasMessages && hasLevelEntry ? (context.thinkingLevel as ThinkingLevel) : (settings.defaultThinkingLevel ?? "medium"));

  const all = createBuiltinTools({
    ...(settings.shellPath ? { shellPath: settings.shellPath } : {}),
    ...(settings.shellCommandPrefix ? { shellCommandPrefix: settings.shellCommandPrefix } : {}),
    autoResizeImages: settings.images?.autoResize ?? true,
  });
  const selection = selectTools(all, {
    tools: toolList(args.tools) ?? settings.defaultTools,
    noTools: args.noTools ?? false,
    exclude: toolList(args.excludeTools) ?? [],
  });
  warnings.push(...selection.warnings);

  const customPrompt = args.systemPrompt !== undefined ? textOrFile(args.systemPrompt) : undefined;
  const appendPrompt = args.appendSystemPrompt?.map(textOrFile).join("\n\n");
  const session = new AgentSession({
    store,
    registry,
    model,
    thinkingLevel: thinking,
    tools: selection.tools,
    systemPrompt: (tools) =>
      buildSystemPrompt({
        cwd,
        tools,
        ...(customPrompt !== undefined ? { customPrompt } : {}),
        ...(appendPrompt ? { appendPrompt } : {}),
      }),
    cwd,
    agentDir: agent,
    retry: retrySettings(settings),
    ...(settings.steeringMode ? { steeringMode: settings.steeringMode } : {}),
    ...(settings.followUpMode ? { followUpMode: settings.followUpMode } : {}),
    streamFor,
  });
  return { session, settings, warnings };
}
