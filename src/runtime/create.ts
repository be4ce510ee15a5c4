/**
 * From a `RuntimeConfig` to a ready run, in stages: the model named, settings and trust with the
 * session file, resources, extensions, tools, and last the session. Every front end (the
 * command line, interactive mode, the SDK) builds its run here.
 */
import { restoreModelAndThinking } from "../agent/model-restore.ts";
import type { AgentSession } from "../agent/session.ts";
import { ModelRegistry } from "../ai/registry.ts";
import { preloadStream } from "../ai/stream.ts";
import { agentDir as defaultAgentDir } from "../session/paths.ts";
import type { RuntimeConfig } from "./config.ts";
import { startExtensions } from "./extensions-stage.ts";
import { prestartRunner } from "./runner-prestart.ts";
import { chooseNamedModel, exactlyNamed, scopedModels, startingChoice } from "./model-choice.ts";
import { openSettingsAndSession } from "./open-store.ts";
import { extensionTrustAsking } from "./project-trust-stage.ts";
import { SettingsStore } from "../resources/settings-store.ts";
import { loadRunResources, type RunResources } from "./resources-stage.ts";
import type { DiscoveredPaths } from "./run-extensions.ts";
import type { Runtime } from "./runtime.ts";
import { ModelsFileUnusable, UserError } from "./errors.ts";
import { findPiglets } from "../resources/piglets.ts";
import { choosePiglet, pigletModelError, recordPiglet, withPiglet } from "./piglet-stage.ts";
import { followSessionPiglet, switchPiglet, type PigletSwitch } from "./piglet-switch.ts";
import { buildSession } from "./session-stage.ts";
import { selectRunTools } from "./tools-stage.ts";
import { prepareMcp } from "./mcp-stage.ts";
import { removeSpillLeftovers } from "../tools/spill-files.ts";

const noop = (): void => {};

export async function createRuntime(given: RuntimeConfig): Promise<Runtime> {
  const held = new AsyncDisposableStack();
  try {
    return await buildRuntime(given, held);
  } catch (error) {
    // A failure part way lets go of what was acquired so far, last first. The failure is what
    // the caller is told: a problem letting go must not replace it.
    await held.disposeAsync().catch(() => undefined);
    throw error;
  }
}

/** `held`: what the run acquires goes there as it is acquired; the run takes it over at the end. */
async function buildRuntime(given: RuntimeConfig, held: AsyncDisposableStack): Promise<Runtime> {
  let config = given;
  const agentDir = defaultAgentDir(config.env);
  // Shown in the order they arose, whichever stage found them.
  const warnings: string[] = [];

  // The model named is checked first: a wrong name fails before trust asks anything — unless
  // extensions may still register it (their providers), then it is checked again once they have.
  // The shared extension runner (the caller's, or one started below) goes with the rest when the
  // run fails before taking it.
  let prestarting = config.prestartedRunner;
  held.defer(async () => (await prestarting?.catch(() => undefined))?.stop());
  const registry = new ModelRegistry({ agentDir, env: config.env });
  if (registry.modelsFileError !== undefined) throw new ModelsFileUnusable(registry.modelsFileError);
  warnings.push(...registry.problems);
  for (const provider of config.providers ?? []) registry.registerProvider(provider.name, provider.config, provider.stream);
  // The shared extension runner starts now (unless the caller started it), beside the rest of the
  // start-up; the extensions stage takes it over if it fits the extensions found, and it is
  // stopped otherwise.
  prestarting ??= prestartRunner({ choice: config.extensions ?? {}, cwd: config.cwd, agentDir, env: config.env, credentials: () => registry.credentialVars() });
  let named: ReturnType<typeof chooseNamedModel> | undefined;
  let notFound: unknown;
  try {
    named = chooseNamedModel(config, registry, warnings);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    notFound = error;
  }

  // Settings and trust, with the session file they depend on. Extensions that are not the
  // project's may decide trust; the host started to ask them may go on serving the run.
  const asking = extensionTrustAsking({
    choice: config.extensions ?? {},
    agentDir,
    interactive: config.interactive,
    env: config.env,
    credentials: () => registry.credentialVars(),
    userSettings: () => SettingsStore.load({ agentDir, cwd: config.cwd, includeProject: false }).global,
  });
  // The host started early to ask about trust, if any. Stopping it again once the run's
  // extensions took it over (or stopped it) does nothing.
  held.defer(async () => {
    await asking.early()?.host.stop();
  });
  const opened = await openSettingsAndSession(config, agentDir, warnings, asking);
  let storeOwner: AgentSession | undefined;
  // The session, once there is one, closes the store it has then (a new or resumed session replaces it).
  held.defer(() => (storeOwner ? storeOwner.dispose() : opened.store.close()));
  const effective = opened.liveSettings();

  // The Piglet (named, or the session's own) is read once trust is known; its model is checked then.
  const piglet = choosePiglet(config, opened.store, { agentDir, cwd: opened.cwd, trusted: opened.trust.trusted }, warnings);
  config = withPiglet(config, piglet);
  const where = { agentDir, cwd: opened.cwd, trusted: opened.trust.trusted };
  let currentPiglet = piglet?.piglet;
  if (config.model !== given.model) {
    try {
      named = chooseNamedModel(config, registry, warnings);
      notFound = undefined;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      named = undefined;
      notFound = pigletModelError(piglet!.piglet, error);
    }
  }

  const prestarted = await prestarting.catch(() => undefined);
  // The runner loads the extensions now, and pig waits for them: the first request's provider
  // is imported meanwhile instead of after (the model named, else the settings' default).
  const expected = named?.model ?? (effective.defaultProvider && effective.defaultModel ? registry.find(effective.defaultProvider, effective.defaultModel) : undefined);
  if (prestarted && expected) preloadStream(expected.api);
  const starting = startExtensions({
    choice: config.extensions ?? {},
    cwd: opened.cwd,
    agentDir,
    trusted: opened.trust.trusted,
    userSettings: opened.settings.global,
    projectSettings: opened.trust.trusted ? opened.settings.project : {},
    interactive: config.interactive,
    env: config.env,
    models: registry,
    ...(prestarted ? { prestarted } : {}),
  }, asking.early());
  // Once the prestarted runner is loading the extensions (its host took it over), the run's
  // resources load beside it, not before the host could answer it.
  if (prestarted) await Promise.race([prestarted.takenOver, starting.then(noop, noop)]);
  // The extensions' resource paths (resources_discover) join the run's once they are known.
  let discovered: (() => DiscoveredPaths) | undefined;
  let resources: RunResources;
  try {
    resources = loadRunResources(() => config, opened, agentDir, () => discovered?.() ?? { skillPaths: [], promptPaths: [], themePaths: [] });
  } catch (error) {
    await starting.then((started) => started.extensions.shutdown(), noop);
    throw error;
  }
  const extensions = await starting;
  prestarted?.stop();
  // Unwound before the session: what the extensions save at session_shutdown reaches its file.
  held.defer(() => extensions.extensions.shutdown());
  if (!named) {
    if (!extensions.extensions.host) throw notFound;
    named = chooseNamedModel(config, registry, warnings);
  } else if (extensions.extensions.host) {
    // A model an extension registered is named exactly only now (`--model router/auto`).
    const exact = exactlyNamed(config, registry);
    if (exact && (exact.provider !== named.model?.provider || exact.id !== named.model?.id)) named = { ...named, model: exact };
  }
  warnings.push(...extensions.extensions.warnings);

  // The model the session starts on: named, else from the scope, else the session's own or the default.
  const scoped = scopedModels(config.models ?? effective.enabledModels ?? [], registry);
  const hasMessages = opened.store.planContext().items.length > 0;
  const choice = startingChoice(named, config.thinking, scoped, effective, hasMessages);
  const start = restoreModelAndThinking({
    store: opened.store,
    registry,
    settings: effective,
    ...(choice.model ? { model: choice.model } : {}),
    ...(choice.thinking ? { thinking: choice.thinking } : {}),
  });
  if (start.warning) warnings.push(start.warning);

  const added = [
    ...(config.extraTools ?? []).map((tool) => ({ tool, source: { kind: "sdk" as const } })),
    ...extensions.tools,
  ];
  const tools = selectRunTools(config, effective, added, warnings, () => registry.credentialVars());
  removeSpillLeftovers();
  const mcp = config.noMcp ? undefined : await prepareMcp({
    agentDir,
    cwd: opened.cwd,
    trusted: opened.trust.trusted,
    interactive: config.interactive,
    env: config.env,
    credentials: () => registry.credentialVars(),
    registries: extensions.extensions.registries,
    registered: () => extensions.extensions.mcpServers(),
    onRegisteredChange: (listener) => extensions.extensions.onMcpServersChange(listener),
    say: (text) => extensions.extensions.notice(text),
  });

  const { session, startup: built } = buildSession(
    {
      opened,
      resources,
      registry,
      agentDir,
      start,
      chosenModel: choice.model ? start.model : undefined,
      scoped,
      hasMessages,
      tools,
      hooks: mcp ? mcp.hooks(extensions.hooks) : extensions.hooks,
      name: config.name,
      extensions: extensions.extensions.status().flatMap((s) => (s.state === "load-failed" ? [] : [s.id])),
    },
    warnings,
  );
  storeOwner = session;
  if (mcp) {
    mcp.start(session.toolRegistry);
    // Closed before the session and the extensions (last deferred, first undone).
    held.defer(() => mcp.close());
  }
  const startup = piglet ? { ...built, piglet: { name: piglet.piglet.name, path: piglet.piglet.filePath } } : built;
  // Recorded so that resuming the session restores it.
  if (piglet?.explicit) recordPiglet(session.store, piglet.piglet.name);
  const switchTo = async (name: string, keepModel = false): Promise<PigletSwitch> => {
    const done = await switchPiglet(name, {
      given,
      current: currentPiglet,
      session,
      registry,
      resources,
      extensions: extensions.extensions,
      settings: opened.liveSettings,
      where,
      keepModel,
      setConfig: (next) => {
        config = next;
      },
    });
    currentPiglet = done.piglet;
    return done;
  };
  followSessionPiglet(session, () => currentPiglet, (name) => switchTo(name, true));
  // What extensions do in session_start reaches the mode that comes up next (session-events.ts).
  session.keepEventsForFirstListener();
  await extensions.attach(session);
  discovered = () => extensions.extensions.discoveredPaths();
  const hasPaths = (p: DiscoveredPaths) => p.skillPaths.length + p.promptPaths.length + p.themePaths.length > 0;
  if (hasPaths(extensions.extensions.discoveredPaths())) resources.reload();
  // The settings files and the resources, read again; what the session keeps a copy of follows.
  const reloadRun = () => {
    // A change pig could not save yet (a busy lock) is tried once more before the files are read.
    opened.settings.flush();
    opened.settings.reload();
    session.adoptSettings(opened.liveSettings());
    return resources.reload();
  };
  // After ctx.reload() / /reload the paths are asked again; the resources follow them.
  extensions.extensions.onReload(reloadRun);

  const owned = held.move();
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= owned.disposeAsync());
  return {
    session,
    trusted: opened.trust.trusted,
    get piglet() {
      return currentPiglet;
    },
    piglets: {
      list: () => findPiglets(where).files,
      switch: (name) => switchTo(name),
    },
    registry,
    settings: opened.settings,
    get resources() {
      return resources.current();
    },
    agentDir,
    sessionDir: opened.sessionDir,
    warnings,
    startup,
    extensions: extensions.extensions,
    reload: reloadRun,
    close,
    [Symbol.asyncDispose]: close,
  };
}
