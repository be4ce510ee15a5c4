/**
 * What every front end (RPC, interactive, SDK) can ask of a running pig beyond prompting:
 * replace the session (new, resume, fork, clone), switch models and thinking levels, run user
 * shell commands, report state and statistics. It owns the `AgentSession`, whose event
 * listeners and queues survive every replacement.
 */
import { existsSync } from "node:fs";
import type { ModelRegistry } from "../ai/registry.ts";
import { supportedThinkingLevels, THINKING_LEVELS } from "../ai/thinking.ts";
import type { Model } from "../ai/types.ts";
import { branchSummarySettings, type Settings } from "../resources/settings.ts";
import type { SettingsStore } from "../resources/settings-store.ts";
import { createBranchedSession, forkSession } from "../session/branching.ts";
import type { AssistantMessage, BashExecutionMessage, MessageEntry, ThinkingLevel, UserMessage } from "../session/format.ts";
import { contentText } from "../session/convert.ts";
import { SessionStore } from "../session/store.ts";
import { contextUsage } from "../compaction/index.ts";
import { restoreModelAndThinking } from "./model-restore.ts";
import { sessionTotals, type SessionTotals } from "./session-stats.ts";
import { navigateTree, type NavigateOptions, type NavigateResult } from "./navigate.ts";
import type { QueueMode } from "./queue.ts";
import { PromptError, type AgentSession } from "./session.ts";
import { bashExecutionMessage, runUserBash, type UserBashResult } from "./user-bash.ts";

export interface ControllerOptions {
  session: AgentSession;
  registry: ModelRegistry;
  settings: SettingsStore;
  agentDir: string;
  /** Where new sessions are written; undefined for `--no-session` (sessions stay in memory). */
  sessionDir: string | undefined;
  cwd: string;
  /** The settings in force (files merged with any overrides); defaults to the store's. */
  effectiveSettings?: () => Settings;
  /** `--models` / `enabledModels`: the models Ctrl+P and `cycle_model` go through. */
  scopedModels?: Model[];
  /** A scoped model's own thinking level (`--models a:high`), keyed `provider/id`. */
  scopedThinking?: Record<string, ThinkingLevel>;
  /** The model picked on the command line (`--model`, `--models`), which `/new` keeps. */
  chosenModel?: Model;
}

export interface SessionState {
  model?: Model;
  thinkingLevel: ThinkingLevel;
  isStreaming: boolean;
  isCompacting: boolean;
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  sessionFile?: string;
  sessionId: string;
  sessionName?: string;
  autoCompactionEnabled: boolean;
  messageCount: number;
  pendingMessageCount: number;
}

export interface SessionStats extends SessionTotals {
  sessionFile?: string;
  sessionId: string;
  contextUsage?: { tokens: number | null; contextWindow: number; percent: number | null };
}

export class SessionController {
  readonly session: AgentSession;
  private bashAbort: AbortController | undefined;
  isCompacting = false;
  /** The model last chosen by the user (flag, `/model`, cycling): a new session starts on it. */
  private chosenModel: Model | undefined;

  constructor(private readonly options: ControllerOptions) {
    this.session = options.session;
    this.chosenModel = options.chosenModel;
  }

  get cwd(): string {
    return this.options.cwd;
  }

  private get settings(): Settings {
    return this.options.effectiveSettings?.() ?? this.options.settings.settings;
  }

  // ── replacing the session ────────────────────────────────────────────────

  private adopt(store: SessionStore, model?: Model): void {
    const restored = restoreModelAndThinking({ store, registry: this.options.registry, settings: this.settings, ...(model ? { model } : {}) });
    this.session.replaceStore(store, restored.model ?? this.session.model, restored.thinkingLevel);
  }

  /**
   * Starts a fresh session (optionally recording where it came from), on the model the user
   * chose last, else the saved default (read now: `/model` may have changed it since start).
   */
  newSession(options: { parentSession?: string } = {}): void {
    const chosen = this.chosenModel && this.options.registry.hasKey(this.chosenModel.provider) ? this.chosenModel : undefined;
    this.adopt(
      SessionStore.create({
        cwd: this.options.cwd,
        ...(this.options.sessionDir ? { dir: this.options.sessionDir } : {}),
        ...(options.parentSession ? { parentSession: options.parentSession } : {}),
      }),
      chosen,
    );
  }

  /**
   * Continues the session in `path` (a path with no file starts a new session there, as
   * upstream). Its recorded working directory must still exist.
   */
  switchSession(path: string): void {
    if (!existsSync(path)) {
      this.adopt(SessionStore.create({ cwd: this.options.cwd, path }));
      return;
    }
    const store = SessionStore.open(path, { write: true });
    if (store.cwd && !existsSync(store.cwd)) {
      store.close();
      throw new PromptError(
        `Stored session working directory does not exist: ${store.cwd}\nSession file: ${path}\nCurrent working directory: ${this.options.cwd}`,
      );
    }
    this.adopt(store);
  }

  /** A new session holding the path up to (not including) the user message `entryId`; returns its text. */
  fork(entryId: string): { text: string } {
    const { store, selectedText } = forkSession(this.session.store, entryId, "before");
    this.adopt(store);
    return { text: selectedText ?? "" };
  }

  /** A new session holding the whole current branch. */
  clone(): void {
    const leaf = this.session.store.leafId;
    if (leaf === null) throw new PromptError("Cannot clone session: no current entry selected");
    this.adopt(createBranchedSession(this.session.store, leaf));
  }

  /** Every user message of the session (all branches), for choosing where to fork. */
  forkMessages(): { entryId: string; text: string }[] {
    const store = this.session.store;
    const out: { entryId: string; text: string }[] = [];
    for (const record of store.tree.records) {
      if (record.type !== "message" || record.role !== "user") continue;
      const entry = store.readEntry(record) as MessageEntry | undefined;
      if (!entry) continue;
      const text = contentText((entry.message as UserMessage).content);
      if (text) out.push({ entryId: record.id, text });
    }
    return out;
  }

  /** The last answer's text (an aborted answer with nothing in it is skipped). */
  lastAssistantText(): string | undefined {
    const messages = this.session.messages;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]!;
      if (message.role !== "assistant") continue;
      const answer = message as AssistantMessage;
      if (answer.stopReason === "aborted" && answer.content.length === 0) continue;
      const text = contentText(answer.content).trim();
      return text;
    }
    return undefined;
  }

  // ── models and thinking ──────────────────────────────────────────────────

  availableModels(): Model[] {
    return this.options.registry.available();
  }

  /** Switches to `provider/modelId` (which needs a key) and makes it the default. */
  setModel(provider: string, modelId: string): Model {
    const model = this.options.registry.find(provider, modelId);
    if (!model || !this.options.registry.hasKey(provider)) throw new PromptError(`Model not found: ${provider}/${modelId}`);
    this.session.setModel(model);
    this.persistModel(model);
    this.chosenModel = model;
    return model;
  }

  private persistModel(model: Model): void {
    this.options.settings.setGlobal(["defaultProvider"], model.provider);
    this.options.settings.setGlobal(["defaultModel"], model.id);
  }

  /** The models Ctrl+P goes through (`--models` / `enabledModels`); empty: every available model. */
  get scopedModels(): readonly Model[] {
    return this.options.scopedModels ?? [];
  }

  /** Replaces the cycling list for this session (`/scoped-models`). */
  setScopedModels(models: readonly Model[]): void {
    this.options.scopedModels = [...models];
  }

  /** The next (or previous) model of the scoped list (or of every available model); null with fewer than two. */
  cycleModel(direction: "forward" | "backward" = "forward"): { model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | null {
    const scoped = this.options.scopedModels && this.options.scopedModels.length > 0;
    const candidates = scoped ? this.options.scopedModels! : this.availableModels();
    if (candidates.length < 2) return null;
    const current = this.session.model;
    const index = candidates.findIndex((m) => m.provider === current?.provider && m.id === current?.id);
    const step = direction === "forward" ? 1 : -1;
    // Not in the list: forward starts at the first model, backward at the last.
    const from = index === -1 && step === -1 ? 0 : index;
    const next = candidates[(from + step + candidates.length) % candidates.length]!;
    this.session.setModel(next);
    const level = scoped ? this.options.scopedThinking?.[`${next.provider}/${next.id}`] : undefined;
    if (level) this.session.setThinkingLevel(level);
    this.persistModel(next);
    this.chosenModel = next;
    return { model: next, thinkingLevel: this.session.thinkingLevel, isScoped: Boolean(scoped) };
  }

  setThinkingLevel(level: ThinkingLevel): void {
    this.session.setThinkingLevel(level);
    const model = this.session.model;
    // A model without reasoning runs with "off" whatever was asked: not worth remembering.
    if (model?.reasoning || this.session.thinkingLevel !== "off") {
      this.options.settings.setGlobal(["defaultThinkingLevel"], this.session.thinkingLevel);
    }
  }

  /** The levels the current model accepts (`off` only without reasoning; every level without a model). */
  availableThinkingLevels(): ThinkingLevel[] {
    const model = this.session.model;
    return model ? supportedThinkingLevels(model) : [...THINKING_LEVELS];
  }

  /** The next level the model supports; null for a model without reasoning. */
  cycleThinkingLevel(): { level: ThinkingLevel } | null {
    const model = this.session.model;
    if (!model || !model.reasoning) return null;
    const levels = supportedThinkingLevels(model);
    const next = levels[(levels.indexOf(this.session.thinkingLevel) + 1) % levels.length]!;
    this.setThinkingLevel(next);
    return { level: this.session.thinkingLevel };
  }

  // ── modes ────────────────────────────────────────────────────────────────

  setSteeringMode(mode: QueueMode): void {
    this.session.steering.mode = mode;
    this.options.settings.setGlobal(["steeringMode"], mode);
  }

  setFollowUpMode(mode: QueueMode): void {
    this.session.followUps.mode = mode;
    this.options.settings.setGlobal(["followUpMode"], mode);
  }

  setAutoRetry(enabled: boolean): void {
    this.session.retry = { ...this.session.retry, enabled };
    this.options.settings.setGlobal(["retry", "enabled"], enabled);
  }

  get autoCompactionEnabled(): boolean {
    return this.session.compaction.enabled;
  }

  setAutoCompaction(enabled: boolean): void {
    this.session.compaction = { ...this.session.compaction, enabled };
    this.options.settings.setGlobal(["compaction", "enabled"], enabled);
  }

  // ── user shell commands ──────────────────────────────────────────────────

  /** Runs `command` in the session's directory and records it (`exclude`: kept out of the context). */
  async bash(
    command: string,
    options: { exclude?: boolean; /** Each new piece of output as it arrives. */ onOutput?: (text: string) => void } = {},
  ): Promise<UserBashResult & { message: BashExecutionMessage }> {
    const controller = new AbortController();
    this.bashAbort = controller;
    try {
      const result = await runUserBash(command, {
        cwd: this.session.store.cwd || this.options.cwd,
        agentDir: this.options.agentDir,
        ...(this.settings.shellPath ? { shellPath: this.settings.shellPath } : {}),
        ...(this.settings.shellCommandPrefix ? { shellCommandPrefix: this.settings.shellCommandPrefix } : {}),
        signal: controller.signal,
        ...(options.onOutput ? { onOutput: options.onOutput } : {}),
      });
      const message = bashExecutionMessage(command, result, options.exclude ?? false);
      this.session.recordUserMessage(message);
      return { ...result, message };
    } finally {
      if (this.bashAbort === controller) this.bashAbort = undefined;
    }
  }

  abortBash(): void {
    this.bashAbort?.abort();
  }

  // ── reporting ────────────────────────────────────────────────────────────

  state(): SessionState {
    const session = this.session;
    const store = session.store;
    return {
      ...(session.model ? { model: session.model } : {}),
      thinkingLevel: session.thinkingLevel,
      isStreaming: session.isStreaming,
      isCompacting: this.isCompacting || session.compactor.isCompacting,
      steeringMode: session.steering.mode,
      followUpMode: session.followUps.mode,
      ...(store.path ? { sessionFile: store.path } : {}),
      sessionId: store.sessionId,
      ...(store.name ? { sessionName: store.name } : {}),
      autoCompactionEnabled: this.autoCompactionEnabled,
      messageCount: session.messages.length,
      pendingMessageCount: session.steering.length + session.followUps.length,
    };
  }

  /** Token, cost and message counts of the current context, with its share of the window. */
  /**
   * The session's totals (every message and every billed token in the file, as Pi 0.87 counts
   * them) and the current context's share of the window.
   */
  stats(): SessionStats {
    const session = this.session;
    const store = session.store;
    const totals = sessionTotals(store.tree.records, store.readEntry);
    const usage = contextUsage({ messages: session.messages, branch: store.branchRecords(), entryOf: store.materialise, model: session.model });
    return {
      ...(store.path ? { sessionFile: store.path } : {}),
      sessionId: store.sessionId,
      ...totals,
      ...(usage ? { contextUsage: usage } : {}),
    };
  }

  private summaryAbort: AbortController | undefined;
  /** Manual compactions and tree moves under way, which `abort` stops and waits for. */
  private readonly stoppable = new Set<Promise<unknown>>();

  private track<T>(work: Promise<T>): Promise<T> {
    this.stoppable.add(work);
    void work.catch(() => undefined).finally(() => this.stoppable.delete(work));
    return work;
  }

  /**
   * RPC `abort`, as upstream's: stops the run, a compaction and a branch summary, and resolves
   * once they have all stopped. Queued messages stay queued for the next run (`clear_queue`
   * takes them off).
   */
  async abort(): Promise<void> {
    this.abortBranchSummary();
    await this.session.abort({ keepQueued: true });
    await Promise.all([...this.stoppable].map((work) => work.catch(() => undefined)));
  }

  /** Moves to another point of the tree (see navigate.ts). A summary can be stopped with `abortBranchSummary`. */
  navigateTree(targetId: string, options: NavigateOptions = {}): Promise<NavigateResult> {
    this.isCompacting = Boolean(options.summarize);
    const abort = new AbortController();
    this.summaryAbort = abort;
    options.signal?.addEventListener("abort", () => abort.abort(), { once: true });
    return this.track(
      navigateTree(this.session, targetId, {
        reserveTokens: branchSummarySettings(this.settings).reserveTokens,
        ...options,
        signal: abort.signal,
      }).finally(() => {
        this.isCompacting = false;
        if (this.summaryAbort === abort) this.summaryAbort = undefined;
      }),
    );
  }

  /** Stops a branch summary in progress (the move is then cancelled); false when none runs. */
  abortBranchSummary(): boolean {
    if (!this.summaryAbort) return false;
    this.summaryAbort.abort();
    return true;
  }

  /** `/compact`: see AgentSession.compact. */
  async compact(customInstructions?: string) {
    this.isCompacting = true;
    try {
      return await this.track(this.session.compact(customInstructions));
    } finally {
      this.isCompacting = false;
    }
  }

  /** Labels an entry (an empty label clears it). */
  setLabel(entryId: string, label: string | undefined): void {
    this.session.store.appendLabelChange(entryId, label);
  }
}
