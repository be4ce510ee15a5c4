/**
 * pig's TypeScript extension API, shaped like upstream Pi's `ExtensionAPI` so Pi extensions
 * type-check and run unchanged. Where Pi's types reach into its TUI or provider internals the
 * shapes here are deliberately loose: pig's line UI does not draw components.
 */
import type { TSchema } from "typebox";
import type { ToolAnnotations, ToolExposure, ToolNamespace } from "../../tools/types.ts";

/** Upstream Pi 0.87.1's levels, `max` included (a model offers it where its thinking-level map says). */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
export type ExtensionMode = "tui" | "rpc" | "json" | "print";

export interface TextContent {
  type: "text";
  text: string;
}
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

export interface Model<_Api = any> {
  provider: string;
  id: string;
  name?: string;
  api?: string;
  baseUrl?: string;
  reasoning?: boolean;
  input?: string[];
  contextWindow?: number;
  maxTokens?: number;
  [key: string]: unknown;
}

export interface AgentToolResult<TDetails = unknown> {
  content: (TextContent | ImageContent)[];
  details: TDetails;
  /** Report a failure without throwing: the model sees `content` as an error (Pi ≥ 1.x). */
  isError?: boolean;
  /** Data matching the tool's `outputSchema`, for programmatic callers; not sent to the model. */
  structuredContent?: unknown;
  terminate?: boolean;
}
export type AgentToolUpdateCallback<TDetails = unknown> = (partial: { content: (TextContent | ImageContent)[]; details?: TDetails }) => void;

// One definition for every source of tools (extensions, MCP servers, the built-ins).
export type { ToolAnnotations, ToolExposure, ToolNamespace };

/** Upstream's slot renderers of a tool (they return TUI components). */
export interface ToolRenderers {
  renderShell?: "default" | "self";
  renderCall?: (...args: any[]) => any;
  renderResult?: (...args: any[]) => any;
}
export type ToolRendererResolver = (toolName: string, next: () => ToolRenderers | undefined) => ToolRenderers | undefined;

export interface ToolDefinition<TParams extends TSchema = TSchema, TDetails = unknown, _TState = any> {
  name: string;
  label: string;
  description: string;
  promptSnippet?: string;
  promptGuidelines?: string[];
  parameters: TParams;
  prepareArguments?: (args: unknown) => any;
  executionMode?: "sequential" | "parallel";
  /** How the model reaches the tool (Pi ≥ 1.x); `direct` when absent. */
  exposure?: ToolExposure;
  /** `false`: registering does not activate the tool. */
  defaultActive?: boolean;
  namespace?: ToolNamespace;
  annotations?: ToolAnnotations;
  /** JSON Schema of `structuredContent` in successful results. */
  outputSchema?: TSchema;
  renderShell?: "default" | "self";
  execute(
    toolCallId: string,
    params: any,
    signal: AbortSignal | undefined,
    onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
    ctx: ExtensionToolContext,
  ): Promise<AgentToolResult<TDetails>>;
  renderCall?: (...args: any[]) => any;
  renderResult?: (...args: any[]) => any;
}

export interface AutocompleteItem {
  value: string;
  label?: string;
  description?: string;
}

export interface RegisteredCommand {
  name: string;
  description?: string;
  getArgumentCompletions?: (prefix: string) => AutocompleteItem[] | null | Promise<AutocompleteItem[] | null>;
  handler: (args: string, ctx: ExtensionCommandContext) => Promise<void> | void;
}

export interface ExecOptions {
  signal?: AbortSignal;
  timeout?: number;
  cwd?: string;
  /** Byte cap on stdout and stderr together; going over it ends the command (default 256 MiB). */
  maxBuffer?: number;
}
export interface ExecResult {
  stdout: string;
  stderr: string;
  /** The exit code, or 128 + the signal's number when a signal ended the command. */
  code: number;
  /** pig ended the command: timeout, abort, or output over `maxBuffer`. */
  killed: boolean;
  /** The output went over `maxBuffer`: stdout and stderr are cut, and `code` is not 0. */
  truncated: boolean;
}

export interface EventBus {
  emit(channel: string, data: unknown): void;
  on(channel: string, handler: (data: unknown) => void): () => void;
}

export interface ExtensionUIDialogOptions {
  signal?: AbortSignal;
  timeout?: number;
}

export interface ThemeLike {
  fg(color: string, text: string): string;
  bg(color: string, text: string): string;
  bold(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  strikethrough(text: string): string;
  inverse(text: string): string;
  dim?(text: string): string;
  [key: string]: any;
}

export interface ExtensionUIContext {
  select(title: string, options: string[], opts?: ExtensionUIDialogOptions): Promise<string | undefined>;
  confirm(title: string, message: string, opts?: ExtensionUIDialogOptions): Promise<boolean>;
  input(title: string, placeholder?: string, opts?: ExtensionUIDialogOptions): Promise<string | undefined>;
  editor(title: string, prefill?: string): Promise<string | undefined>;
  notify(message: string, type?: "info" | "warning" | "error"): void;
  setStatus(key: string, text: string | undefined): void;
  setWidget(key: string, content: string[] | ((...args: any[]) => any) | undefined, options?: { placement?: "aboveEditor" | "belowEditor" }): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
  pasteToEditor(text: string): void;
  getEditorText(): string;
  onTerminalInput(handler: (data: string) => any): () => void;
  setWorkingMessage(message?: string): void;
  setWorkingVisible(visible: boolean): void;
  setWorkingIndicator(options?: unknown): void;
  setHiddenThinkingLabel(label?: string): void;
  setFooter(factory: unknown): void;
  setHeader(factory: unknown): void;
  custom<T>(factory: (...args: any[]) => any, options?: unknown): Promise<T>;
  addAutocompleteProvider(factory: unknown): void;
  setEditorComponent(factory: unknown): void;
  getEditorComponent(): undefined;
  readonly theme: ThemeLike;
  getAllThemes(): { name: string; path: string | undefined }[];
  getTheme(name: string): ThemeLike | undefined;
  setTheme(theme: string | ThemeLike): { success: boolean; error?: string };
  getToolsExpanded(): boolean;
  setToolsExpanded(expanded: boolean): void;
}

export interface ContextUsage {
  tokens: number | null;
  contextWindow: number;
  percent: number | null;
}

export interface CompactOptions {
  customInstructions?: string;
  onComplete?: (result: unknown) => void;
  onError?: (error: Error) => void;
}

export type SessionEntry = Record<string, any> & { type: string; id: string; parentId: string | null; timestamp?: string };

export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

export interface ReadonlySessionManager {
  getCwd(): string;
  getSessionDir(): string;
  getSessionId(): string;
  getSessionFile(): string | undefined;
  getLeafId(): string | null;
  getLeafEntry(): SessionEntry | undefined;
  getEntry(id: string): SessionEntry | undefined;
  getLabel(id: string): string | undefined;
  getBranch(fromId?: string): SessionEntry[];
  getHeader(): Record<string, any> | null;
  getEntries(): SessionEntry[];
  getTree(): SessionTreeNode[];
  getSessionName(): string | undefined;
}

/** What a model call is given: the prompt, the conversation and the tools the model may call. */
export interface ModelCallContext {
  systemPrompt?: string;
  messages: unknown[];
  tools?: { name: string; description?: string; parameters?: unknown }[];
}

/** A model answer as it streams: its events as they come; `result()` is the final assistant message. */
export interface ModelCallStream extends AsyncIterable<Record<string, unknown>> {
  result(): Promise<Record<string, unknown>>;
}

/**
 * The models pig knows and whether it can call them. pig keeps provider keys to itself: where
 * upstream hands out a key, pig gives a handle that makes pig do the call with its credentials.
 */
export interface ModelRegistry {
  find(provider: string, modelId: string): Model | undefined;
  getAll(): Model[];
  getAvailable(): Model[];
  getError(): string | undefined;
  hasConfiguredAuth(model: Model): boolean;
  getApiKeyAndHeaders(model: Model): Promise<{ ok: true; apiKey?: string; headers?: Record<string, string> } | { ok: false; error: string }>;
  getApiKeyForProvider(provider: string): Promise<string | undefined>;
  getProviderAuth(provider: string): Promise<{ auth: { apiKey?: string }; source?: string } | undefined>;
  getProviderAuthStatus(provider: string): { configured: boolean; source?: string; label?: string };
  isUsingOAuth(model: Model): boolean;
  getProviderDisplayName(provider: string): string;
  /** A call pig makes with its credentials (upstream: request-time authentication). */
  stream(model: Model, context: ModelCallContext, options?: Record<string, unknown>): ModelCallStream;
  streamSimple(model: Model, context: ModelCallContext, options?: Record<string, unknown>): ModelCallStream;
  complete(model: Model, context: ModelCallContext, options?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Upstream 1.x: asks pig for its model list again. */
  refresh(options?: unknown): Promise<{ aborted: boolean; errors: ReadonlyMap<string, Error> }>;
  /** Upstream 1.x's typed lists: pig's models are all of type "chat"; other types have none. */
  findOfType(type: string, provider: string, modelId: string): Model | undefined;
  getModelOfType(type: string, provider: string, modelId: string): Model | undefined;
  getModelsOfType(type: string, provider?: string): readonly Model[];
  getAvailableOfType(type: string, provider?: string, options?: unknown): Promise<readonly Model[]>;
  /** A provider as a list of models; its credentials stay in pig, so it carries no `auth`. */
  getProvider(provider: string): { id: string; name: string; baseUrl?: string; getModels(): readonly Model[] } | undefined;
  /** Upstream 1.x's classifier and image models: pig has none, so these answer with an error result (they never reject). */
  classify(model: Model, context: unknown, options?: unknown): Promise<Record<string, unknown>>;
  generateImages(model: Model, context: unknown, options?: unknown): Promise<Record<string, unknown>>;
  registerProvider(name: unknown, config?: unknown): void;
  unregisterProvider(name: string): void;
  getRegisteredProviderConfig(name: string): unknown;
  getRegisteredNativeProvider(name: string): unknown;
  getRegisteredProviderIds(): readonly string[];
}

export interface ExtensionContext {
  ui: ExtensionUIContext;
  mode: ExtensionMode;
  hasUI: boolean;
  cwd: string;
  sessionManager: ReadonlySessionManager;
  modelRegistry: ModelRegistry;
  model: Model | undefined;
  scopedModels: readonly { model: Model; thinkingLevel?: ThinkingLevel }[];
  thinkingLevel?: ThinkingLevel;
  signal: AbortSignal | undefined;
  isIdle(): boolean;
  isProjectTrusted(): boolean;
  abort(): void;
  hasPendingMessages(): boolean;
  shutdown(): void;
  getContextUsage(): ContextUsage | undefined;
  compact(options?: CompactOptions): void;
  getSystemPrompt(): string;
}

export interface ExtensionCommandContext extends ExtensionContext {
  getSystemPromptOptions(): Record<string, unknown>;
  waitForIdle(): Promise<void>;
  newSession(options?: { parentSession?: string; setup?: (sm: unknown) => Promise<void>; withSession?: (ctx: ExtensionCommandContext) => Promise<void> }): Promise<{ cancelled: boolean }>;
  fork(entryId: string, options?: { position?: "before" | "at"; withSession?: (ctx: ExtensionCommandContext) => Promise<void> }): Promise<{ cancelled: boolean }>;
  navigateTree(targetId: string, options?: { summarize?: boolean; customInstructions?: string; replaceInstructions?: boolean; label?: string }): Promise<{ cancelled: boolean }>;
  switchSession(sessionPath: string, options?: { withSession?: (ctx: ExtensionCommandContext) => Promise<void> }): Promise<{ cancelled: boolean }>;
  reload(): Promise<void>;
}

export interface CustomMessage<T = unknown> {
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: T;
}

/** A tool another tool may call, as `ctx.tools` lists it (upstream's `AgentTool`). */
export interface CallableTool {
  name: string;
  label: string;
  description: string;
  parameters: unknown;
  outputSchema?: unknown;
  executionMode?: "sequential" | "parallel";
  execute(toolCallId: string, params: unknown, signal?: AbortSignal, onUpdate?: AgentToolUpdateCallback): Promise<AgentToolResult>;
}

export interface ExecuteToolOptions {
  /** The calling tool's signal when absent. */
  signal?: AbortSignal;
  /** Partial results of the called tool, besides the `tool_execution_update` events. */
  onUpdate?: AgentToolUpdateCallback;
}

/** What `ctx.executeTool` resolves to; it never rejects for a tool's failure (upstream's `AgentToolCallOutcome`). */
export interface ToolCallOutcome {
  toolCall: { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };
  result: AgentToolResult;
  isError: boolean;
  durationMs?: number;
}

/** The context a tool's `execute` gets: the extension context plus the tools it may call (Pi ≥ 1.x). */
export interface ExtensionToolContext extends ExtensionContext {
  readonly tools: readonly CallableTool[];
  executeTool(name: string, args: unknown, options?: ExecuteToolOptions): Promise<ToolCallOutcome>;
}

export interface ToolInfo {
  name: string;
  description: string;
  parameters: unknown;
  promptGuidelines?: string[];
  outputSchema?: unknown;
  executionMode?: "sequential" | "parallel";
  exposure?: ToolExposure;
  namespace?: ToolNamespace;
  annotations?: ToolAnnotations;
  sourceInfo?: unknown;
}
export interface SlashCommandInfo {
  name: string;
  description?: string;
  source: string;
  sourceInfo?: unknown;
}

export type ExtensionHandler<E = any, R = any> = (event: E, ctx: ExtensionContext) => Promise<R | void> | R | void;

export interface ExtensionAPI {
  on(event: string, handler: ExtensionHandler): () => void;
  registerTool<TParams extends TSchema = TSchema, TDetails = unknown>(tool: ToolDefinition<TParams, TDetails>): void;
  registerCommand(name: string, options: Omit<RegisteredCommand, "name">): void;
  registerShortcut(shortcut: string, options: { description?: string; handler: (ctx: ExtensionContext) => Promise<void> | void }): void;
  registerFlag(name: string, options: { description?: string; type: "boolean" | "string"; default?: boolean | string }): void;
  getFlag(name: string): boolean | string | undefined;
  registerMessageRenderer<_T = unknown>(customType: string, renderer: (...args: any[]) => any): void;
  registerEntryRenderer<_T = unknown>(customType: string, renderer: (...args: any[]) => any): void;
  /**
   * Chooses how calls to a tool are drawn (Pi ≥ 1.x). Accepted and kept; pig's line-oriented
   * interactive mode draws its own tool blocks and calls no renderer (docs/decisions.md).
   */
  registerToolRenderer(resolver: ToolRendererResolver): void;
  registerMarkdownTransformer(transformer: unknown): void;
  sendMessage<T = unknown>(message: CustomMessage<T>, options?: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" }): void;
  /**
   * Sends a user message. With `expandPromptTemplates: true` the text is taken as typed input: a
   * command runs, skills and prompt templates expand; otherwise it reaches the model as it is.
   */
  sendUserMessage(content: string | (TextContent | ImageContent)[], options?: { deliverAs?: "steer" | "followUp"; expandPromptTemplates?: boolean }): void;
  appendEntry<T = unknown>(customType: string, data?: T): void;
  setSessionName(name: string): void;
  getSessionName(): string | undefined;
  setLabel(entryId: string, label: string | undefined): void;
  exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
  getActiveTools(): string[];
  getAllTools(): ToolInfo[];
  /** A copy of the settings in force: global and project settings merged, with overrides applied. */
  getSettings(): Record<string, unknown>;
  setActiveTools(toolNames: string[]): void;
  getCommands(): SlashCommandInfo[];
  setModel(model: Model): Promise<boolean>;
  getThinkingLevel(): ThinkingLevel;
  setThinkingLevel(level: ThinkingLevel): void;
  registerProvider(name: string | Record<string, any>, config?: Record<string, any>): void;
  unregisterProvider(name: string): void;
  /** Upstream 1.x: a selectable model whose every request `route` sends to a physical model. */
  registerVirtualModel<State = unknown>(definition: VirtualModelDefinition<State>): void;
  unregisterVirtualModel(provider: string, id: string): void;
  /**
   * Adds an MCP server for this run, shaped as an `mcpServers` entry of `mcp.json`; a server of
   * the same name in `mcp.json` wins. Throws for an invalid config or a name another extension took.
   */
  registerMcpServer(name: string, config: McpServerConfig): void;
  /** Removes a server this extension registered (its connection closes). */
  unregisterMcpServer(name: string): void;
  /** The servers extensions of this process registered. */
  getMcpServers(): RegisteredMcpServer[];
  events: EventBus;
}

/** An `mcpServers` entry: `command`/`args`/`env`/`cwd` (stdio) or `url`/`headers`/`oauth` (streamable HTTP), and `enabled`, `description`, `timeout`, `exposure`, `toolExposure`. */
export type McpServerConfig = Record<string, unknown>;

export interface RegisteredMcpServer {
  name: string;
  config: McpServerConfig;
  /** The extension that registered it. */
  extensionPath: string;
}

export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;

/** Why a virtual model's request is made (upstream 1.x). */
export type VirtualModelRouteReason = "user" | "continuation" | "retry" | "direct";

/** What a virtual model's router is asked for one request. */
export interface VirtualModelRouteRequest<State = unknown> {
  model: Model;
  thinkingLevel: ThinkingLevel;
  reason: VirtualModelRouteReason;
  previous?: { model: Model; thinkingLevel?: ThinkingLevel };
  failed?: { model: Model; thinkingLevel?: ThinkingLevel; message: Record<string, any> };
  state?: State;
  messages: Record<string, any>[];
  signal?: AbortSignal;
}

/** `pi.registerVirtualModel`'s definition (upstream 1.x). */
export interface VirtualModelDefinition<State = unknown> {
  provider: string;
  id: string;
  name?: string;
  thinkingLevels?: ThinkingLevel[];
  contextWindow?: number;
  maxTokens?: number;
  input?: ("text" | "image")[];
  route(
    request: VirtualModelRouteRequest<State>,
    ctx: ExtensionContext,
  ): { model: Model; thinkingLevel: ThinkingLevel; state?: State } | Promise<{ model: Model; thinkingLevel: ThinkingLevel; state?: State }>;
}
