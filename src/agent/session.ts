/**
 * `AgentSession`: the one surface every front end (interactive, RPC, print, the SDK, the
 * extension host) drives pig through. It is a façade: the work is done by its parts
 * (session-parts.ts wires them) — the file with its model and level, the events, the model
 * calls, the runs and their queues, replacing the session, choosing models, compacting, the
 * user's shell commands. Most requests go to one part; the few that span parts (abort, compact,
 * a move in the tree, the modes remembered as defaults) are put together here. Event listeners
 * and queues survive every replacement of the session file.
 */
import { isVirtualModel, latestResponse, limitsModel } from "../ai/virtual-models.ts";
import type { SystemPromptOptions } from "../resources/system-prompt-options.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import type { AssistantMessage, Model } from "../ai/types.ts";
import type { Settings } from "../resources/settings.ts";
import { branchSummarySettings, compactionSettings, retrySettings, toolOutputLimits, type CompactionSettings, type RetrySettings } from "../resources/settings-effective.ts";
import type { AgentMessage, BashExecutionMessage, CustomMessage, ThinkingLevel } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import type { CommandPort } from "./command-port.ts";
import { PromptError, SessionSaveError } from "./errors.ts";
import type { PigEvent, SessionChange } from "./events.ts";
import type { AgentHooks, HookImage, InputSource } from "./hooks.ts";
import type { OutsideCall } from "./model-calls.ts";
import { navigateTree, type NavigateOptions, type NavigateResult } from "./navigate.ts";
import { DEFAULT_QUEUE_MODE, type MessageQueue, type QueueMode } from "./queue.ts";
import type { ExtensionFailure, Listener } from "./session-events.ts";
import type { Cancellable, ReplaceListener } from "./session-lifecycle.ts";
import type { AgentSessionOptions } from "./session-options.ts";
import { composeSession, type SessionParts } from "./session-parts.ts";
import { forkMessages, lastAssistantText, sessionState, sessionStats, type SessionState, type SessionStats } from "./session-report.ts";
import type { SubmitOptions } from "./submit.ts";
import type { NestedCallOptions, NestedCallOutcome } from "./nested-tool-calls.ts";
import type { ToolRegistry } from "./tool-registry.ts";
import type { UserBashResult } from "./user-bash.ts";

export { PromptError, SessionSaveError };
export type { AgentSessionOptions, Cancellable, Listener, OutsideCall, ReplaceListener, SessionState, SessionStats, SubmitOptions };
export type { ReplaceEvent } from "./session-lifecycle.ts";

export class AgentSession {
  private readonly parts: SessionParts;

  constructor(private readonly options: AgentSessionOptions) {
    this.parts = composeSession(options);
  }

  // ── what the session is ──────────────────────────────────────────────────

  get store(): SessionStore {
    return this.parts.open.store;
  }
  get registry(): ModelRegistry {
    return this.options.registry;
  }
  get cwd(): string {
    return this.options.cwd;
  }
  /** The context the model gets next (the active branch, as messages). */
  get messages(): readonly AgentMessage[] {
    return this.parts.open.conversation.messages;
  }
  /** Reads the context from the file in the background, a slice per task (`next` ends one, and says whether to go on); `messages` meanwhile reads it at once. */
  readContextInSlices(next: () => Promise<boolean>): Promise<void> {
    return this.parts.open.conversation.buildInSlices(next);
  }
  /** The number of messages in the context, without reading them from the file if not read yet. */
  get messageCount(): number {
    return this.parts.open.conversation.count;
  }
  get model(): Model | undefined {
    return this.parts.open.model;
  }
  get thinkingLevel(): ThinkingLevel {
    return this.parts.open.thinkingLevel;
  }
  /** Every tool the session knows, and the active ones. */
  get toolRegistry(): ToolRegistry {
    return this.parts.tools;
  }
  get steering(): MessageQueue {
    return this.parts.queues.steering;
  }
  get followUps(): MessageQueue {
    return this.parts.queues.followUps;
  }
  /** The retry and compaction settings in force (replaced whole, never changed in place). */
  get retry(): RetrySettings {
    return this.parts.runSettings.retry;
  }
  set retry(settings: RetrySettings) {
    this.parts.runSettings.retry = settings;
  }
  get compaction(): CompactionSettings {
    return this.parts.runSettings.compaction;
  }
  set compaction(settings: CompactionSettings) {
    this.parts.runSettings.compaction = settings;
  }
  /** Whether the latest compaction's content came from a `session_before_compact` handler. */
  get compactionFromExtension(): boolean {
    return this.parts.compactor.fromExtension;
  }
  /** A virtual model's last routed answer: the physical model and level it went to (the footer shows it). */
  routedTo(): { provider: string; model: string; thinkingLevel?: string } | undefined {
    const model = this.model;
    if (!model || !isVirtualModel(model)) return undefined;
    const answer = latestResponse(this.messages);
    return answer && { provider: answer.provider, model: answer.model, ...(answer.thinkingLevel ? { thinkingLevel: answer.thinkingLevel } : {}) };
  }

  /** The model whose limits count now: a virtual model's are those of the model that answered last. */
  get limitsModel(): Model | undefined {
    return limitsModel(this.model, this.messages, (provider, id) => this.registry.physicalModel(provider, id));
  }

  /** The system prompt now: the run's while one runs (as its hooks left it), otherwise the session's. */
  get systemPrompt(): string {
    return this.parts.runs.systemPrompt;
  }

  /** The prompt's structured inputs for the tools active now (upstream's `getSystemPromptOptions()`). */
  systemPromptOptions(): SystemPromptOptions {
    return this.parts.runs.promptOptions();
  }

  get isStreaming(): boolean {
    return this.parts.activity.isRunning;
  }
  get isCompacting(): boolean {
    return this.parts.activity.isCompacting;
  }
  /** Nothing runs: no run, no compaction, no branch summary. */
  get isIdle(): boolean {
    return this.parts.activity.isIdle;
  }

  // ── events and extensions ────────────────────────────────────────────────

  /** A front end's listener: the first one is also told what extensions did at startup (session-events.ts). */
  subscribe(listener: Listener): () => void {
    return this.parts.events.subscribe(listener);
  }
  /** Keeps what happens from now for the first front end to subscribe (the extensions' startup). */
  keepEventsForFirstListener(): void {
    this.parts.events.keepForFirstListener();
  }
  /** One of pig's own listeners (the extension host): every event from now on, nothing kept from before. */
  observe(listener: Listener): () => void {
    return this.parts.events.observe(listener);
  }
  /** Sends an event to every listener; a failure text quoting a key is shown without it. */
  emit(event: PigEvent): void {
    this.parts.events.emit(event);
  }
  /** Told whenever what a front end shows may have changed (see SessionEvents.onSessionChange). */
  onSessionChange(listener: (change: SessionChange) => void): () => void {
    return this.parts.events.onSessionChange(listener);
  }
  /** Told of problems that stop nothing but that the user must know of (a session that cannot be saved). */
  onWarning(listener: (text: string) => void): () => void {
    return this.parts.events.onWarning(listener);
  }
  /** An extension failed in a hook, a command or a handler of its own: told to every listener. */
  reportExtensionError(error: ExtensionFailure): void {
    this.parts.events.reportExtensionError(error);
  }
  /** Attaches the hooks (the extension host, once it is up); a hook that throws counts as doing nothing. */
  setHooks(hooks: AgentHooks): void {
    this.parts.extensions.setHooks(hooks);
  }
  setCommands(commands: CommandPort): void {
    this.parts.extensions.setCommands(commands);
  }

  // ── input and runs ───────────────────────────────────────────────────────

  /**
   * Input from anywhere (submit.ts): a command, the input hook, expansion, then a new run or —
   * while one runs — a steer or a follow-up. Resolves when what it started is over.
   */
  submit(text: string, options: SubmitOptions): Promise<void> {
    return this.parts.runs.submit(text, options);
  }

  /**
   * Sends a user message as the program wrote it: no command, no input hook. While a run is
   * going, `streamingBehavior` says whether it steers or follows up; without one it is refused.
   * Resolves when the run (with its retries) is over.
   */
  prompt(text: string, options: { images?: HookImage[]; streamingBehavior?: "steer" | "followUp"; typedText?: string } = {}): Promise<void> {
    return this.parts.runs.prompt(text, options);
  }

  /**
   * An extension's `sendMessage`, as upstream delivers it: `nextTurn` waits for the next prompt;
   * while a run goes on it steers (or, `followUp`, follows up); idle with `triggerTurn` it is the
   * prompt of a new run (no input or before_agent_start hooks); idle otherwise it is added to the
   * context and the file (a `custom_message`) and announced with message_start/message_end.
   * Resolves when what it started is over.
   */
  sendCustomMessage(message: CustomMessage, options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" } = {}): Promise<void> {
    return this.parts.runs.sendCustomMessage(message, options);
  }

  /** Runs the agent on the current context without a new message (e.g. after a compaction). */
  continue(): Promise<void> {
    return this.parts.runs.continue();
  }

  /**
   * A steer or a follow-up as upstream 1.x takes RPC's `steer`/`follow_up`: the input hook may take
   * it (`"handled"`) or rewrite it; then it is expanded and queued (`"queued"`), idle or not.
   */
  queueInput(kind: "steer" | "followUp", text: string, options: { source: InputSource; images?: HookImage[] }): Promise<"handled" | "queued"> {
    return this.parts.runs.queueInput(kind, text, options);
  }

  /**
   * Runs another tool for the tool call `parentToolCallId` while it runs (upstream Pi 1.x's
   * `ctx.executeTool`): the model's checks and hooks, events with `parentToolCallId`, no message.
   */
  executeNestedTool(parentToolCallId: string, name: string, args: unknown, options?: NestedCallOptions): Promise<NestedCallOutcome> {
    return this.parts.runs.executeNestedTool(parentToolCallId, name, args, options);
  }

  /** Queues a steer (an extension's message, the SDK): expanded, no input hook. */
  steer(text: string, images?: HookImage[]): void {
    this.parts.runs.queue("steer", text, images);
  }
  followUp(text: string, images?: HookImage[]): void {
    this.parts.runs.queue("followUp", text, images);
  }

  /**
   * Stops the run (stream, tools, retry wait), a compaction and a branch summary, and empties
   * both queues unless `keepQueued` (RPC's `abort`, as upstream: queued messages go with the
   * next run). Returns the texts taken off the queues, steering first, so a UI can put them back
   * in the editor. Resolves once everything stopped has ended.
   */
  async abort(options: { keepQueued?: boolean } = {}): Promise<string[]> {
    const queued = options.keepQueued ? [] : this.clearQueues();
    this.parts.activity.stopAll();
    await this.parts.activity.waitForIdle();
    return queued;
  }

  /** Empties both queues at once (steering first) and returns their texts. */
  clearQueues(): string[] {
    const { steering, followUp } = this.clearQueue();
    return [...steering, ...followUp];
  }

  /** Empties both queues and returns their texts, each queue on its own (RPC `clear_queue`). */
  clearQueue(): { steering: string[]; followUp: string[] } {
    return this.parts.queues.clear();
  }

  /** Cancels a pending retry (the wait before the next attempt); a running turn is left alone. */
  abortRetry(): void {
    this.parts.activity.abort("retry");
  }

  /** Resolves once the run, compactions and tree moves under way have ended. */
  waitForIdle(): Promise<void> {
    return this.parts.activity.waitForIdle();
  }

  /**
   * `/compact [instructions]`: stops a running turn (queued messages are kept), then summarises.
   * Throws a `CompactionError` ("Already compacted", "Nothing to compact …", "Compaction failed …").
   */
  async compact(customInstructions?: string) {
    const { activity, compactor } = this.parts;
    activity.abort("run");
    activity.abort("retry");
    await activity.run?.catch(() => undefined);
    return activity.track(compactor.manual(customInstructions));
  }

  /** Stops a compaction or a branch summary in progress and nothing else; false when none runs. */
  abortCompaction(): boolean {
    const compaction = this.parts.activity.abort("compaction");
    return this.parts.activity.abort("branchSummary") || compaction;
  }

  // ── replacing the session ────────────────────────────────────────────────

  /** Told before and after each replacement of the session (the extensions' session_shutdown / session_start). */
  onReplace(listener: ReplaceListener): () => void {
    return this.parts.lifecycle.onReplace(listener);
  }
  /** A fresh session, on the model the user chose last, else the saved default. */
  newSession(options: { parentSession?: string } = {}): Promise<Cancellable> {
    return this.parts.lifecycle.newSession(options);
  }
  /** Continues the session in `path` (a path with no file starts a new session there). */
  switchSession(path: string): Promise<Cancellable> {
    return this.parts.lifecycle.switchSession(path);
  }
  /** A new session holding the path up to (not including) the user message `entryId`; returns its text. */
  fork(entryId: string): Promise<Cancellable & { text: string }> {
    return this.parts.lifecycle.fork(entryId);
  }
  /** A new session holding the whole current branch. */
  clone(): Promise<Cancellable> {
    return this.parts.lifecycle.clone();
  }
  /** Names the session (trimmed; empty names are refused). */
  setSessionName(name: string): void {
    this.parts.open.setName(name);
  }

  // ── the tree ─────────────────────────────────────────────────────────────

  /** Moves to another point of the tree (see navigate.ts). A summary can be stopped with `abortBranchSummary`. */
  navigateTree(targetId: string, options: NavigateOptions = {}): Promise<NavigateResult> {
    const { activity } = this.parts;
    const work = activity.during(options.summarize ? "branchSummary" : "tree", (signal) => {
      options.signal?.addEventListener("abort", () => activity.abort(options.summarize ? "branchSummary" : "tree"), { once: true });
      return navigateTree(this.parts.tree, targetId, { reserveTokens: branchSummarySettings(this.parts.settings()).reserveTokens, ...options, signal });
    });
    return activity.track(work);
  }
  /** Stops a branch summary in progress (the move is then cancelled); false when none runs. */
  abortBranchSummary(): boolean {
    return this.parts.activity.abort("branchSummary");
  }
  /** Rebuilds the model's context from the file (after a compaction or a move in the tree), in place. */
  reloadContext(): void {
    this.parts.open.conversation.reload();
  }
  /** Labels an entry (an empty label clears it). */
  setLabel(entryId: string, label: string | undefined): void {
    this.store.appendLabelChange(entryId, label);
  }

  // ── models and thinking ──────────────────────────────────────────────────

  availableModels(): Model[] {
    return this.registry.available();
  }
  /** Switches the model and makes it the default (one named must be known and have a key). */
  setModel(model: Model): Model;
  setModel(provider: string, modelId: string): Model;
  setModel(modelOrProvider: Model | string, modelId?: string): Model {
    return this.parts.choice.setModel(modelOrProvider, modelId);
  }
  /** The registry's object for the current model again, after an extension changed its provider. */
  refreshModel(): void {
    this.parts.open.refreshModel();
  }
  /** The models Ctrl+P goes through (`--models` / `enabledModels`); empty: every available model. */
  get scopedModels(): readonly Model[] {
    return this.parts.choice.scopedModels;
  }
  /** Replaces the cycling list for this session (`/scoped-models`). */
  setScopedModels(models: readonly Model[]): void {
    this.parts.choice.setScopedModels(models);
  }
  /** The next (or previous) model of the scoped list (or of every available model); null with fewer than two. */
  cycleModel(direction: "forward" | "backward" = "forward"): { model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | null {
    return this.parts.choice.cycleModel(direction);
  }
  /** Sets the thinking level (clamped to the model) and remembers it as the default. */
  setThinkingLevel(level: ThinkingLevel): void {
    this.parts.choice.setThinkingLevel(level);
  }
  /** The levels the current model accepts (`off` only without reasoning; every level without a model). */
  availableThinkingLevels(): ThinkingLevel[] {
    return this.parts.choice.availableThinkingLevels();
  }
  /** The next level the model supports; null for a model without reasoning. */
  cycleThinkingLevel(): { level: ThinkingLevel } | null {
    return this.parts.choice.cycleThinkingLevel();
  }
  /** A call to `model` for an extension: pig's provider code and credentials, no session hooks. */
  outsideCall(model: Model, signal?: AbortSignal): Promise<OutsideCall> {
    return this.parts.calls.outsideCall(model, signal);
  }

  /** The settings in force: the files merged, with any overrides applied. */
  effectiveSettings(): Settings {
    return this.parts.settings();
  }

  /**
   * Takes up `settings` again for what the session keeps a copy of (retry, compaction, the tool
   * output bound, the queue modes): `/reload` after the files changed. Nothing is saved.
   */
  adoptSettings(settings: Settings): void {
    this.retry = retrySettings(settings);
    this.compaction = compactionSettings(settings);
    this.parts.runSettings.toolOutput = toolOutputLimits(settings);
    this.steering.mode = settings.steeringMode ?? DEFAULT_QUEUE_MODE;
    this.followUps.mode = settings.followUpMode ?? DEFAULT_QUEUE_MODE;
  }

  // ── modes (each remembered as the default) ───────────────────────────────

  setSteeringMode(mode: QueueMode): void {
    this.steering.mode = mode;
    this.options.settings?.setGlobal(["steeringMode"], mode);
  }
  setFollowUpMode(mode: QueueMode): void {
    this.followUps.mode = mode;
    this.options.settings?.setGlobal(["followUpMode"], mode);
  }
  setAutoRetry(enabled: boolean): void {
    this.retry = { ...this.retry, enabled };
    this.options.settings?.setGlobal(["retry", "enabled"], enabled);
  }
  get autoCompactionEnabled(): boolean {
    return this.compaction.enabled;
  }
  setAutoCompaction(enabled: boolean): void {
    this.compaction = { ...this.compaction, enabled };
    this.options.settings?.setGlobal(["compaction", "enabled"], enabled);
  }

  // ── user shell commands ──────────────────────────────────────────────────

  /** Runs the user's own `command` and records it (`exclude`: kept out of the context); see user-shell.ts. */
  bash(command: string, options: { exclude?: boolean; onOutput?: (text: string) => void } = {}): Promise<UserBashResult & { message: BashExecutionMessage }> {
    return this.parts.shell.run(command, options);
  }
  abortBash(): void {
    this.parts.shell.abort();
  }

  // ── reporting ────────────────────────────────────────────────────────────

  state(): SessionState {
    return sessionState(this);
  }
  /** The session's totals (every message and billed token in the file, as Pi 0.87 counts them) and the context's share of the window. */
  stats(): SessionStats {
    return sessionStats(this);
  }
  /** Every user message of the session (all branches), for choosing where to fork. */
  forkMessages(): { entryId: string; text: string }[] {
    return forkMessages(this.store);
  }
  /** The last answer's text (an aborted answer with nothing in it is skipped). */
  lastAssistantText(): string | undefined {
    return lastAssistantText(this.messages);
  }
  /** The last answer. */
  lastAssistant(): AssistantMessage | undefined {
    return this.messages.findLast((message) => message.role === "assistant") as AssistantMessage | undefined;
  }

  /** Stops whatever runs and closes the session file. */
  dispose(): void {
    this.parts.activity.stopAll();
    this.store.close();
  }
}
