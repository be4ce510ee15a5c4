/**
 * The running session as the extension host sees it (`HostSessionPort`). The host starts before
 * the session exists (extensions register tools the session is built with), so the port is
 * bound later; until then it reports a starting state and refuses actions, which extensions
 * cannot send before they are told the session started anyway.
 */
import type { AgentSession } from "../agent/session.ts";
import type { HookImage } from "../agent/hooks.ts";
import type { ContextUsage, SendMessageParams, SendUserMessageParams, ToolsCallResult } from "../extensions/protocol.ts";
import type { HostSessionPort, SessionLogChange, SessionLogSnapshot, SessionState } from "../extensions/host/session-port.ts";
import { resolve } from "node:path";
import * as v from "valibot";
import { describeIssues, type ThinkingLevel } from "../session/format.ts";
import { CustomMessageSchema, type CustomMessage } from "../session/message-format.ts";
import type { SessionStore } from "../session/store.ts";

export interface PortHooks {
  /** ctx.shutdown(): the mode decides when (interactive: once idle; RPC: after the response). */
  shutdown(): void;
  reload(): Promise<void>;
}

export class ExtensionSessionPort implements HostSessionPort {
  private session: AgentSession | undefined;
  private readonly logListeners = new Set<(change: SessionLogChange) => void>();
  private readonly stateListeners = new Set<() => void>();
  private unhookStore: (() => void) | undefined;
  private lastLeaf: string | null = null;
  private flagValues: Record<string, boolean | string> = {};

  constructor(
    private readonly cwd: string,
    private readonly hooks: PortHooks,
  ) {}

  bind(session: AgentSession): void {
    this.session = session;
    this.watchStore(session.store);
    session.onSessionChange((change) => {
      if (change.reason === "new" || change.reason === "switch" || change.reason === "fork" || change.reason === "clone") {
        this.watchStore(session.store);
        this.emitLog({ type: "replaced", snapshot: this.snapshot() });
      } else if (session.store.leafId !== this.lastLeaf) {
        this.lastLeaf = session.store.leafId;
        this.emitLog({ type: "leaf", leafId: this.lastLeaf });
      }
      this.stateChanged();
    });
    session.observe((event) => {
      if (event.type === "agent_start" || event.type === "agent_end" || event.type === "queue_update") this.stateChanged();
    });
    this.stateChanged();
  }

  private watchStore(store: SessionStore): void {
    this.unhookStore?.();
    this.lastLeaf = store.leafId;
    this.unhookStore = store.onEntryAdded((record) => {
      this.lastLeaf = record.id;
      this.emitLog({ type: "appended", entries: [store.serializeRecord(record)], leafId: record.id });
    });
  }

  /** The extension flags' values from the command line, once it has been parsed with them. */
  setFlagValues(values: Record<string, boolean | string>): void {
    this.flagValues = { ...values };
    this.stateChanged();
  }

  private emitLog(change: SessionLogChange): void {
    for (const listener of this.logListeners) listener(change);
  }

  private stateChanged(): void {
    for (const listener of this.stateListeners) listener();
  }

  private get live(): AgentSession {
    if (!this.session) throw new Error("pig is still starting: the session is not ready yet");
    return this.session;
  }

  snapshot(): SessionLogSnapshot {
    return storeSnapshot(this.live.store, false);
  }

  fileSnapshot(): SessionLogSnapshot {
    return storeSnapshot(this.live.store, true);
  }

  onLog(listener: (change: SessionLogChange) => void): () => void {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  state(): SessionState {
    const session = this.session;
    if (!session) {
      return { cwd: this.cwd, sessionId: "", thinkingLevel: "off", activeTools: [], allTools: [], commands: [], isIdle: true, hasPendingMessages: false, systemPrompt: "", flags: this.flagValues };
    }
    const store = session.store;
    const model = session.model;
    const state = session.state();
    return {
      cwd: session.cwd,
      ...(store.path ? { sessionFile: store.path } : {}),
      sessionId: store.sessionId,
      ...(store.name ? { sessionName: store.name } : {}),
      ...(model ? { model: { ...model } } : {}),
      thinkingLevel: session.thinkingLevel,
      activeTools: [...session.toolRegistry.activeToolNames],
      allTools: session.toolRegistry.all().map(({ tool, source }) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        ...(tool.promptGuidelines ? { promptGuidelines: tool.promptGuidelines } : {}),
        exposure: tool.exposure ?? "direct",
        ...(tool.namespace ? { namespace: tool.namespace } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.executionMode ? { executionMode: tool.executionMode } : {}),
        sourceInfo: source.kind === "extension" ? { path: source.path, source: "extension" } : { path: `<${source.kind}>`, source: source.kind },
      })),
      commands: [],
      isIdle: session.isIdle,
      hasPendingMessages: (state.pendingMessageCount ?? 0) > 0,
      systemPrompt: session.systemPrompt,
      flags: this.flagValues,
      credentials: session.registry.credentialKinds(),
      settings: session.effectiveSettings(),
      modelsRevision: session.registry.revision,
    };
  }

  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  async sendMessage(params: SendMessageParams): Promise<void> {
    const session = this.live;
    const { message, options } = params;
    // Checked as a session message: its content is what the file and the model will get.
    const checked = v.safeParse(CustomMessageSchema, {
      role: "custom",
      customType: message.customType,
      content: message.content,
      display: message.display,
      ...(message.details !== undefined ? { details: message.details } : {}),
      timestamp: Date.now(),
    });
    if (!checked.success) throw new Error(`sendMessage: the message is not valid: ${describeIssues(checked.issues)}`);
    const custom: CustomMessage = checked.output;
    const delivery = {
      ...(options?.triggerTurn !== undefined ? { triggerTurn: options.triggerTurn } : {}),
      ...(options?.deliverAs !== undefined ? { deliverAs: options.deliverAs } : {}),
    };
    // Answered once the message is placed, not when a run it starts is over (upstream's
    // sendMessage returns at once); a run that fails is the extension's `send_message` error.
    const placed = session.sendCustomMessage(custom, delivery);
    if (options?.triggerTurn && options.deliverAs !== "nextTurn") {
      placed.catch((error: unknown) => session.reportExtensionError({ extensionPath: "", event: "send_message", error: error instanceof Error ? error.message : String(error) }));
      return;
    }
    await placed;
  }

  async sendUserMessage(params: SendUserMessageParams): Promise<void> {
    const session = this.live;
    const blocks = typeof params.content === "string" ? [{ type: "text" as const, text: params.content }] : params.content;
    const text = blocks.flatMap((b) => (b.type === "text" ? [String((b as { text: unknown }).text)] : [])).join("\n");
    const images = blocks.filter((b): b is HookImage => b.type === "image") as HookImage[];
    const deliverAs = params.options?.deliverAs;
    // Input as upstream's sendUserMessage makes it: the input hook sees it (source "extension");
    // only with expandPromptTemplates does a command run or a template expand. Answered once the
    // input has gone where it goes (a command, a queue, a run), not when a run it starts is over.
    await new Promise<void>((placed, refused) => {
      session
        .submit(text, {
          source: "extension",
          ...(images.length > 0 ? { images } : {}),
          ...(deliverAs === "steer" || deliverAs === "followUp" ? { streamingBehavior: deliverAs } : {}),
          literal: params.options?.expandPromptTemplates !== true,
          onAccepted: () => placed(),
        })
        .then(() => placed(), refused);
    });
  }

  async appendEntry(customType: string, data: unknown): Promise<void> {
    const session = this.live;
    const entry = session.store.getEntry(session.store.appendCustomEntry(customType, data));
    if (entry) session.emit({ type: "entry_appended", entry });
  }

  async setName(name: string): Promise<void> {
    this.live.setSessionName(name);
  }

  async setLabel(entryId: string, label: string | undefined): Promise<void> {
    this.live.setLabel(entryId, label);
  }

  setActiveTools(names: string[]): void {
    this.live.toolRegistry.setActive(names);
    this.stateChanged();
  }

  async callTool(toolCallId: string, name: string, args: unknown, signal: AbortSignal, onUpdate: (partial: { content: unknown[]; details?: unknown }) => void): Promise<ToolsCallResult> {
    const outcome = await this.live.executeNestedTool(toolCallId, name, args, {
      signal,
      onUpdate: (partial) => onUpdate({ content: partial.content, ...(partial.details !== undefined ? { details: partial.details } : {}) }),
    });
    const { result } = outcome;
    return {
      result: {
        content: result.content,
        ...(result.details !== undefined ? { details: result.details } : {}),
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
        ...(result.isError !== undefined ? { isError: result.isError } : {}),
        ...(result.terminate ? { terminate: true } : {}),
      },
      isError: outcome.isError,
      ...(outcome.durationMs !== undefined ? { durationMs: outcome.durationMs } : {}),
      toolCallId: outcome.toolCallId,
    };
  }

  async setModel(provider: string, id: string): Promise<boolean> {
    const session = this.live;
    const model = session.availableModels().find((m) => m.provider === provider && m.id === id);
    if (!model) return false;
    session.setModel(model);
    return true;
  }

  setThinkingLevel(level: ThinkingLevel): void {
    this.live.setThinkingLevel(level);
  }

  async compact(customInstructions: string | undefined): Promise<void> {
    await this.live.compact(customInstructions);
  }

  abort(): void {
    void this.live.abort();
  }

  shutdown(): void {
    this.hooks.shutdown();
  }

  waitForIdle(): Promise<void> {
    return this.live.waitForIdle();
  }

  contextUsage(): ContextUsage | undefined {
    return this.live.stats().contextUsage ?? undefined;
  }

  systemPromptOptions(): Record<string, unknown> {
    return { ...this.live.systemPromptOptions() };
  }

  newSession(options: { parentSession?: string }): Promise<{ cancelled: boolean }> {
    return this.live.newSession(options);
  }

  async fork(entryId: string, options: { position?: "before" | "at" }): Promise<{ cancelled: boolean }> {
    const session = this.live;
    if (options.position === "at") return session.clone();
    const result = await session.fork(entryId);
    return { cancelled: result.cancelled };
  }

  async navigateTree(
    targetId: string,
    options: { summarize?: boolean; customInstructions?: string; replaceInstructions?: boolean; label?: string },
  ): Promise<{ cancelled: boolean }> {
    const result = await this.live.navigateTree(targetId, options);
    return { cancelled: result.cancelled };
  }

  switchSession(path: string): Promise<{ cancelled: boolean }> {
    return this.live.switchSession(path);
  }

  reload(): Promise<void> {
    return this.hooks.reload();
  }
}

/**
 * A store's log as the host hands it out. With `useFile`, the entries already in the file, one
 * line after another right after the header, are named as a byte range of it rather than copied:
 * only the rest (entries not written yet, or after a line the store could not use) go as text.
 */
export function storeSnapshot(store: SessionStore, useFile: boolean): SessionLogSnapshot {
  const lines = useFile && store.path ? store.flushedLines() : undefined;
  const records = store.tree.records;
  const from = lines && lines.count > 0 ? lines.count : 0;
  const entries: string[] = new Array(records.length - from);
  for (let i = from; i < records.length; i++) entries[i - from] = store.serializeRecord(records[i]!);
  return {
    header: store.serializeHeader(),
    entries,
    leafId: store.leafId,
    ...(store.path ? { sessionFile: store.path } : {}),
    ...(lines && lines.count > 0 ? { file: { path: resolve(store.path!), ...lines } } : {}),
  };
}
