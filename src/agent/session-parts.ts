/**
 * The parts an `AgentSession` is a façade over, and how they are wired: each part is given what
 * it needs (the other parts it works with, small functions for what may change), never the
 * session as a whole. The retry, compaction and tool-output settings are one shared record the
 * user may switch while the session runs (`/settings`, RPC, `/reload` after the files changed).
 */
import type { Settings } from "../resources/settings.ts";
import { compactionSettings, type CompactionSettings, type RetrySettings } from "../resources/settings-effective.ts";
import { promptOptionsOf, sectionsFromOptions } from "../resources/system-prompt-options.ts";
import { limitsModel } from "../ai/virtual-models.ts";
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from "../tools/output-bound.ts";
import { SpillFiles } from "../tools/spill-files.ts";
import { Activity } from "./activity.ts";
import { AttachedExtensions } from "./attached-extensions.ts";
import { CompactionRunner } from "./compaction-runner.ts";
import { PromptError } from "./errors.ts";
import type { PigEvent, SessionChange } from "./events.ts";
import { ModelCalls } from "./model-calls.ts";
import { ModelChoice } from "./model-choice.ts";
import type { TreeSession } from "./navigate.ts";
import { OpenSession } from "./open-session.ts";
import { SessionRecorder } from "./recorder.ts";
import { Retrier } from "./retry.ts";
import { RunController } from "./run-controller.ts";
import { RunQueues } from "./run-queues.ts";
import { SessionEvents, type ExtensionFailure } from "./session-events.ts";
import { SessionLifecycle } from "./session-lifecycle.ts";
import type { AgentSessionOptions, PromptOptionsPort } from "./session-options.ts";
import { ToolRegistry } from "./tool-registry.ts";
import { UserShell } from "./user-shell.ts";

/** The settings of a run the session keeps in force (replaced whole when they change). */
export interface RunSettings {
  retry: RetrySettings;
  compaction: CompactionSettings;
  /** The bound on results of tools that do not bound their own. */
  toolOutput: OutputLimits;
}

export interface SessionParts {
  events: SessionEvents;
  activity: Activity;
  spillFiles: SpillFiles;
  tools: ToolRegistry;
  runSettings: RunSettings;
  extensions: AttachedExtensions;
  open: OpenSession;
  calls: ModelCalls;
  compactor: CompactionRunner;
  queues: RunQueues;
  runs: RunController;
  choice: ModelChoice;
  lifecycle: SessionLifecycle;
  shell: UserShell;
  /** What a move in the tree works on (navigate.ts). */
  tree: TreeSession;
  /** The settings in force (files merged with any overrides). */
  settings(): Settings;
}

export function composeSession(options: AgentSessionOptions): SessionParts {
  const { registry } = options;
  const events = new SessionEvents();
  const activity = new Activity();
  const spillFiles = new SpillFiles();
  const emit = (event: PigEvent) => events.emit(event);
  const changed = (reason: SessionChange["reason"]) => events.changed(reason);
  const report = (failure: ExtensionFailure) => events.reportExtensionError(failure);
  const settings = (): Settings => options.effectiveSettings?.() ?? options.settings?.settings ?? {};
  const open = new OpenSession(options.store, options.model, options.thinkingLevel, {
    registry,
    emit,
    changed,
    defaultThinkingLevel: options.defaultThinkingLevel,
  });
  const given = options.tools;
  const tools = given instanceof ToolRegistry ? given : new ToolRegistry(given.map((tool) => ({ tool, source: { kind: "builtin" } })), given);
  tools.onChange(() => changed("tools"));
  const runSettings: RunSettings = {
    retry: options.retry,
    compaction: options.compaction ?? compactionSettings({}),
    toolOutput: options.toolOutput ?? DEFAULT_OUTPUT_LIMITS,
  };
  const retrier = new Retrier(() => runSettings.retry, emit);
  const extensions = new AttachedExtensions(report, options.commands);
  const calls = new ModelCalls({
    registry,
    redactor: events.redactor,
    streamFor: options.streamFor,
    requestSettings: options.requestSettings,
    model: () => open.model,
    level: () => open.thinkingLevel,
    conversation: () => open.conversation.messages,
    sessionId: () => open.store.sessionId,
    retry: () => runSettings.retry,
    watchers: () => (extensions.hooked ? extensions.hooks : undefined),
    emit,
  });
  const compactor = new CompactionRunner({
    get store() {
      return open.store;
    },
    // A virtual model's limits are those of the model that answered last.
    get model() {
      return limitsModel(open.model, open.conversation.messages, (provider, id) => registry.physicalModel(provider, id));
    },
    get thinkingLevel() {
      return open.thinkingLevel;
    },
    get compaction() {
      return runSettings.compaction;
    },
    get hooks() {
      return extensions.hooks;
    },
    conversation: open.conversation,
    activity,
    emit,
    changed,
    summaryCall: (signal, source) => calls.summaryCall(signal, source),
  });
  const queues = new RunQueues(emit, { steering: options.steeringMode, followUp: options.followUpMode });
  const recorder = new SessionRecorder(
    () => open.store,
    () => activity.isRunning,
    () => activity.abort("run"),
    (text) => events.warn(text),
  );
  const runs = new RunController(
    { activity, conversation: open.conversation, retrier, compactor, recorder, queues, extensions, events, calls, tools },
    {
      store: () => open.store,
      model: () => open.model,
      level: () => open.thinkingLevel,
      retry: () => runSettings.retry,
      cwd: options.cwd,
      agentDir: options.agentDir,
      spillFiles,
      toolExecution: options.toolExecution ?? "parallel",
      outputLimits: () => runSettings.toolOutput,
      systemSections: options.systemSections,
      promptOptions: options.promptOptions ?? defaultPromptOptions(options.cwd),
      expand: (text) => (options.expandInput ? options.expandInput(text) : text),
      blockImages: () => options.requestSettings?.().blockImages === true,
      autoResizeImages: () => options.requestSettings?.().autoResizeImages !== false,
    },
  );
  const choice = new ModelChoice({
    registry,
    remember: (path, value) => options.settings?.setGlobal(path, value),
    current: () => ({ model: open.model, level: open.thinkingLevel }),
    switchModel: (model) => open.switchModel(model),
    switchLevel: (level) => open.switchThinkingLevel(level),
    ...(options.scopedModels ? { scopedModels: options.scopedModels } : {}),
    ...(options.scopedThinking ? { scopedThinking: options.scopedThinking } : {}),
    ...(options.chosenModel ? { chosenModel: options.chosenModel } : {}),
  });
  const lifecycle = new SessionLifecycle({
    activity,
    registry,
    spillFiles,
    cwd: options.cwd,
    sessionDir: options.sessionDir,
    store: () => open.store,
    model: () => open.model,
    hooks: () => extensions.hooks,
    settings,
    chosenModel: () => choice.chosenWithKey(),
    replaceStore: (store, model, level) => {
      // Held shell results belong to the file they were run in.
      if (activity.isRunning) throw new PromptError("Cannot switch sessions while the agent is running.");
      runs.dropHeld();
      open.replace(store, model, level);
    },
    changed,
    report,
    warn: (text) => events.warn(text),
  });
  const shell = new UserShell({
    activity,
    agentDir: options.agentDir,
    spillFiles,
    hooks: () => extensions.hooks,
    cwd: () => open.store.cwd || options.cwd,
    settings,
    record: (message) => runs.recordUserMessage(message),
  });
  const tree: TreeSession = {
    get store() {
      return open.store;
    },
    get isStreaming() {
      return activity.isRunning;
    },
    get hooks() {
      return extensions.hooks;
    },
    get model() {
      return open.model;
    },
    summaryCall: (signal, source) => calls.summaryCall(signal, source),
    reloadContext: () => open.conversation.reload(),
    changed,
  };
  if (options.hooks) extensions.setHooks(options.hooks);
  open.recordStartingState();
  return { events, activity, spillFiles, tools, runSettings, extensions, open, calls, compactor, queues, runs, choice, lifecycle, shell, tree, settings };
}

/** The prompt's structured inputs when the session was given none: the tools and the working directory. */
function defaultPromptOptions(cwd: string): PromptOptionsPort {
  return {
    of: (active, all) => promptOptionsOf({ cwd, tools: all, selected: active.map((tool) => tool.name) }),
    sections: (options) => sectionsFromOptions(options),
  };
}
