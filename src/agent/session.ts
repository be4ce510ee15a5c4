/**
 * `AgentSession`: the one surface every front end (interactive, RPC, print, the SDK, the
 * extension host) drives pig through. Prompting and running come from session-runs.ts; this
 * adds what is asked of a session beyond that — replace it (new, resume, fork, clone), move in
 * its tree, choose models and thinking levels (remembered as the defaults), run user shell
 * commands, report state and statistics. Event listeners and queues survive every replacement.
 */
import { existsSync } from "node:fs";
import type { AssistantMessage, Model, StreamFunction, StreamOptions } from "../ai/types.ts";
import { type Settings } from "../resources/settings.ts";
import { branchSummarySettings } from "../resources/settings-effective.ts";
import type { SettingsStore } from "../resources/settings-store.ts";
import { createBranchedSession, forkSession } from "../session/branching.ts";
import type { BashExecutionMessage, ThinkingLevel } from "../session/format.ts";
import { SessionStore } from "../session/store.ts";
import { PromptError, SessionSaveError } from "./errors.ts";
import { ModelChoice } from "./model-choice.ts";
import { restoreModelAndThinking } from "./model-restore.ts";
import { navigateTree, type NavigateOptions, type NavigateResult } from "./navigate.ts";
import type { QueueMode } from "./queue.ts";
import { forkMessages, lastAssistantText, sessionState, sessionStats, type SessionState, type SessionStats } from "./session-report.ts";
import { redactAnswer } from "./redact-events.ts";
import { RunningSession } from "./session-runs.ts";
import type { SessionCoreOptions } from "./session-core.ts";
import { bashExecutionMessage, runUserBash, type UserBashResult } from "./user-bash.ts";

export { PromptError, SessionSaveError };
export { toolDeclarations, type Listener } from "./session-core.ts";
export type { SubmitOptions } from "./submit.ts";
export type { SessionState, SessionStats };

export interface AgentSessionOptions extends SessionCoreOptions {
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

export type Cancellable = { cancelled: boolean };

/** A model call made outside the session's runs (for an extension): pig's stream and the request's options. */
export interface OutsideCall {
  stream: StreamFunction;
  /** The key, headers and HTTP limits of the session's own requests to the model; no hooks. */
  options: StreamOptions;
  /** Cleans a failure text that could quote the key, as the session's own answers are. */
  redact(answer: AssistantMessage): void;
}

/** A replacement of the session (new, resume, fork, clone) that its before-hooks let through. */
export interface ReplaceEvent {
  reason: "new" | "switch" | "fork" | "clone";
  /** The session file being left (absent in memory). */
  previousSessionFile?: string;
  /** The session file taking its place (absent in memory). */
  targetSessionFile?: string;
}

/**
 * Told around a replacement, both awaited: `before` while the old session is still current (what
 * it appends lands in the old file), `after` once the new one is in place.
 */
export interface ReplaceListener {
  before?(event: ReplaceEvent): Promise<void> | void;
  after?(event: ReplaceEvent): Promise<void> | void;
}

export class AgentSession extends RunningSession {
  private readonly choice: ModelChoice;

  constructor(private readonly surface: AgentSessionOptions) {
    super(surface);
    this.choice = new ModelChoice({
      registry: this.registry,
      remember: (path, value) => this.surface.settings?.setGlobal(path, value),
      current: () => ({ model: this.model, level: this.thinkingLevel }),
      switchModel: (model) => this.switchModel(model),
      switchLevel: (level) => this.switchThinkingLevel(level),
      ...(surface.scopedModels ? { scopedModels: surface.scopedModels } : {}),
      ...(surface.scopedThinking ? { scopedThinking: surface.scopedThinking } : {}),
      ...(surface.chosenModel ? { chosenModel: surface.chosenModel } : {}),
    });
  }

  get cwd(): string {
    return this.options.cwd;
  }

  private get settings(): Settings {
    return this.surface.effectiveSettings?.() ?? this.surface.settings?.settings ?? {};
  }

  // ── replacing the session ────────────────────────────────────────────────

  private readonly replaceListeners = new Set<ReplaceListener>();

  /** Told before and after each replacement of the session (the extensions' session_shutdown / session_start). */
  onReplace(listener: ReplaceListener): () => void {
    this.replaceListeners.add(listener);
    return () => this.replaceListeners.delete(listener);
  }

  /**
   * A copy is written as soon as it is made, so a fork or clone that `adopt` would refuse later
   * is refused before its hooks run and its file appears.
   */
  private refuseWhileRunning(what: "fork" | "clone"): void {
    if (this.activity.isRunning) throw new PromptError(`Cannot ${what} the session while the agent is running; wait for agent_end or abort first.`);
  }

  private async adopt(store: SessionStore, reason: ReplaceEvent["reason"], model?: Model): Promise<void> {
    if (this.activity.isRunning) {
      if (store !== this.store) store.close();
      throw new PromptError("Cannot switch sessions while the agent is running.");
    }
    const event: ReplaceEvent = {
      reason,
      ...(this.store.path ? { previousSessionFile: this.store.path } : {}),
      ...(store.path ? { targetSessionFile: store.path } : {}),
    };
    for (const listener of [...this.replaceListeners]) await this.tell(() => listener.before?.(event));
    const restored = restoreModelAndThinking({ store, registry: this.registry, settings: this.settings, ...(model ? { model } : {}) });
    this.replaceStore(store, restored.model ?? this.model, restored.thinkingLevel);
    // A fork or clone carries the messages that name the spill files along; a new or other session does not.
    const sameConversation = reason === "fork" || reason === "clone" || (event.previousSessionFile !== undefined && event.previousSessionFile === event.targetSessionFile);
    if (!sameConversation) this.spillFiles.removeAll();
    this.changed(reason);
    for (const listener of [...this.replaceListeners]) await this.tell(() => listener.after?.(event));
  }

  /** A listener that fails does not stop the replacement. */
  private async tell(run: () => Promise<void> | void): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.reportExtensionError({ extensionPath: "", event: "session_replace", error: error instanceof Error ? error.message : String(error) });
    }
  }

  /**
   * Starts a fresh session (optionally recording where it came from), on the model the user
   * chose last, else the saved default (read now: `/model` may have changed it since start).
   */
  async newSession(options: { parentSession?: string } = {}): Promise<Cancellable> {
    if ((await this.hooks.sessionBeforeSwitch({ reason: "new" }))?.cancel) return { cancelled: true };
    const chosen = this.choice.chosenWithKey();
    const dir = this.surface.sessionDir;
    const store = SessionStore.create({ cwd: this.cwd, ...(dir ? { dir } : {}), ...(options.parentSession ? { parentSession: options.parentSession } : {}) });
    await this.adopt(store, "new", chosen);
    return { cancelled: false };
  }

  /**
   * Continues the session in `path` (a path with no file starts a new session there, as
   * upstream). Its recorded working directory must still exist.
   */
  async switchSession(path: string): Promise<Cancellable> {
    if (path === "") throw new PromptError("Cannot switch sessions: the session file path is empty");
    if ((await this.hooks.sessionBeforeSwitch({ reason: "resume", targetSessionFile: path }))?.cancel) return { cancelled: true };
    if (!existsSync(path)) {
      await this.adopt(SessionStore.create({ cwd: this.cwd, path }), "switch");
      return { cancelled: false };
    }
    const store = SessionStore.open(path, { write: true });
    if (store.cwd && !existsSync(store.cwd)) {
      store.close();
      throw new PromptError(
        `Stored session working directory does not exist: ${store.cwd}\nSession file: ${path}\nCurrent working directory: ${this.cwd}`,
      );
    }
    await this.adopt(store, "switch");
    return { cancelled: false };
  }

  /** A new session holding the path up to (not including) the user message `entryId`; returns its text. */
  async fork(entryId: string): Promise<Cancellable & { text: string }> {
    this.refuseWhileRunning("fork");
    if ((await this.hooks.sessionBeforeFork({ entryId, position: "before" }))?.cancel) return { text: "", cancelled: true };
    const { store, selectedText } = forkSession(this.store, entryId, "before");
    await this.adopt(store, "fork");
    return { text: selectedText ?? "", cancelled: false };
  }

  /** A new session holding the whole current branch. */
  async clone(): Promise<Cancellable> {
    const leaf = this.store.leafId;
    this.refuseWhileRunning("clone");
    if (leaf === null) throw new PromptError("Cannot clone session: no current entry selected");
    if ((await this.hooks.sessionBeforeFork({ entryId: leaf, position: "at" }))?.cancel) return { cancelled: true };
    await this.adopt(createBranchedSession(this.store, leaf), "clone");
    return { cancelled: false };
  }

  /** Every user message of the session (all branches), for choosing where to fork. */
  forkMessages(): { entryId: string; text: string }[] {
    return forkMessages(this.store);
  }

  /** The last answer's text (an aborted answer with nothing in it is skipped). */
  lastAssistantText(): string | undefined {
    return lastAssistantText(this.messages);
  }

  // ── the tree ─────────────────────────────────────────────────────────────

  /** Moves to another point of the tree (see navigate.ts). A summary can be stopped with `abortBranchSummary`. */
  navigateTree(targetId: string, options: NavigateOptions = {}): Promise<NavigateResult> {
    const work = this.activity.during(options.summarize ? "branchSummary" : "tree", (signal) => {
      options.signal?.addEventListener("abort", () => this.activity.abort(options.summarize ? "branchSummary" : "tree"), { once: true });
      return navigateTree(this, targetId, { reserveTokens: branchSummarySettings(this.settings).reserveTokens, ...options, signal });
    });
    return this.activity.track(work);
  }

  /** Stops a branch summary in progress (the move is then cancelled); false when none runs. */
  abortBranchSummary(): boolean {
    return this.activity.abort("branchSummary");
  }

  /** Labels an entry (an empty label clears it). */
  setLabel(entryId: string, label: string | undefined): void {
    this.store.appendLabelChange(entryId, label);
  }

  // ── models and thinking ──────────────────────────────────────────────────

  availableModels(): Model[] {
    return this.registry.available();
  }

  /**
   * A call to `model` for an extension: pig's provider code and credentials, without the
   * session's hooks (extensions watch the session's requests, not each other's) and without its
   * thinking level (the caller says what it wants).
   */
  async outsideCall(model: Model, signal?: AbortSignal): Promise<OutsideCall> {
    const { reasoning: _level, ...options } = await this.requestOptions(model, false, signal);
    return { stream: this.options.streamFor(model), options, redact: (answer) => redactAnswer(answer, this.redactor) };
  }

  /**
   * Switches the model and makes it the default: a model given as such is taken as it is; one
   * named `provider`/`modelId` must be known and have a key.
   */
  setModel(model: Model): Model;
  setModel(provider: string, modelId: string): Model;
  setModel(modelOrProvider: Model | string, modelId?: string): Model {
    return this.choice.setModel(modelOrProvider, modelId);
  }

  /** The models Ctrl+P goes through (`--models` / `enabledModels`); empty: every available model. */
  get scopedModels(): readonly Model[] {
    return this.choice.scopedModels;
  }

  /** Replaces the cycling list for this session (`/scoped-models`). */
  setScopedModels(models: readonly Model[]): void {
    this.choice.setScopedModels(models);
  }

  /** The next (or previous) model of the scoped list (or of every available model); null with fewer than two. */
  cycleModel(direction: "forward" | "backward" = "forward"): { model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | null {
    return this.choice.cycleModel(direction);
  }

  /** Sets the thinking level (clamped to the model) and remembers it as the default. */
  setThinkingLevel(level: ThinkingLevel): void {
    this.choice.setThinkingLevel(level);
  }

  /** The levels the current model accepts (`off` only without reasoning; every level without a model). */
  availableThinkingLevels(): ThinkingLevel[] {
    return this.choice.availableThinkingLevels();
  }

  /** The next level the model supports; null for a model without reasoning. */
  cycleThinkingLevel(): { level: ThinkingLevel } | null {
    return this.choice.cycleThinkingLevel();
  }

  // ── modes ────────────────────────────────────────────────────────────────

  setSteeringMode(mode: QueueMode): void {
    this.steering.mode = mode;
    this.surface.settings?.setGlobal(["steeringMode"], mode);
  }

  setFollowUpMode(mode: QueueMode): void {
    this.followUps.mode = mode;
    this.surface.settings?.setGlobal(["followUpMode"], mode);
  }

  setAutoRetry(enabled: boolean): void {
    this.retry = { ...this.retry, enabled };
    this.surface.settings?.setGlobal(["retry", "enabled"], enabled);
  }

  get autoCompactionEnabled(): boolean {
    return this.compaction.enabled;
  }

  setAutoCompaction(enabled: boolean): void {
    this.compaction = { ...this.compaction, enabled };
    this.surface.settings?.setGlobal(["compaction", "enabled"], enabled);
  }

  // ── user shell commands ──────────────────────────────────────────────────

  /**
   * Runs `command` in the session's directory and records it (`exclude`: kept out of the
   * context). The user-bash hook may supply the outcome instead of running it.
   */
  async bash(
    command: string,
    options: { exclude?: boolean; /** Each new piece of output as it arrives. */ onOutput?: (text: string) => void } = {},
  ): Promise<UserBashResult & { message: BashExecutionMessage }> {
    const exclude = options.exclude ?? false;
    const cwd = this.store.cwd || this.cwd;
    const hooked = await this.hooks.userBash({ command, excludeFromContext: exclude, cwd });
    const result =
      hooked?.result ??
      (await this.activity.during("bash", (signal) =>
        runUserBash(command, {
          cwd,
          agentDir: this.options.agentDir,
          ...(this.settings.shellPath ? { shellPath: this.settings.shellPath } : {}),
          ...(this.settings.shellCommandPrefix ? { shellCommandPrefix: this.settings.shellCommandPrefix } : {}),
          signal,
          ...(options.onOutput ? { onOutput: options.onOutput } : {}),
          spillFiles: this.spillFiles,
        }),
      ));
    const message = bashExecutionMessage(command, result, exclude);
    this.recordUserMessage(message);
    return { ...result, message };
  }

  abortBash(): void {
    this.activity.abort("bash");
  }

  // ── reporting ────────────────────────────────────────────────────────────

  state(): SessionState {
    return sessionState(this);
  }

  /**
   * The session's totals (every message and every billed token in the file, as Pi 0.87 counts
   * them) and the current context's share of the window.
   */
  stats(): SessionStats {
    return sessionStats(this);
  }
}
