/**
 * The wire contract between pig and its extension processes (pig-ext/1): envelope shapes, error
 * codes, launch environment, and every method's params and results. Both the host and the
 * extension-side runner validate against these schemas; nothing here knows about the agent, so an
 * SDK in another language can be checked against this one file and docs/extension-protocol.md.
 *
 * Params and results are open objects (`looseObject`): a newer peer may add fields and an older
 * one ignores them, which is how the protocol grows inside one major version.
 */
import * as v from "valibot";
import { THINKING_LEVELS } from "../ai/message-types.ts";
import { MIN_MAX_FRAME_BYTES } from "./protocol-constants.ts";

export {
  DEFAULT_MAX_FRAME_BYTES,
  ErrorCode,
  type ErrorCodeValue,
  MIN_MAX_FRAME_BYTES,
  PROTOCOL,
  SUPPORTED_PROTOCOLS,
} from "./protocol-constants.ts";
export { ENV_PROTOCOL, ENV_SOCKET, ENV_TOKEN } from "./launch-env.ts";
import { BoundaryContextParamsSchema } from "./protocol-boundary.ts";
export { BoundaryContextParamsSchema, BoundaryDraftSchema, BoundaryResultSchema, ProjectTrustResultSchema, type WireBoundaryDraft } from "./protocol-boundary.ts";
import { CredentialKindSchema, ModelAuthParamsSchema, ModelStreamParamsSchema } from "./protocol-model.ts";
export {
  ModelAuthParamsSchema,
  type ModelAuthParams,
  ModelAuthResultSchema,
  type ModelAuthResult,
  ModelListResultSchema,
  type ModelListResult,
  type ModelCallContext,
  type ModelCallMessage,
  type ModelCallOptions,
  ModelStreamParamsSchema,
  type ModelStreamParams,
  ModelStreamResultSchema,
} from "./protocol-model.ts";

// ---------------------------------------------------------------------------------------------
// Envelope

export const IdSchema = v.union([v.string(), v.number()]);
export type RequestId = v.InferOutput<typeof IdSchema>;

export const ErrorObjectSchema = v.looseObject({
  code: v.number(),
  message: v.string(),
  data: v.optional(v.unknown()),
});
export type ErrorObject = v.InferOutput<typeof ErrorObjectSchema>;

// `jsonrpc` is always sent; a frame without it is still accepted, so a hand-written peer that
// forgets it is not cut off over a formality.
const jsonrpc = v.optional(v.literal("2.0"));

export const RequestFrameSchema = v.looseObject({ jsonrpc, id: IdSchema, method: v.string(), params: v.optional(v.unknown()) });
export const NotificationFrameSchema = v.looseObject({ jsonrpc, method: v.string(), params: v.optional(v.unknown()) });
export const ResultFrameSchema = v.looseObject({ jsonrpc, id: IdSchema, result: v.unknown() });
export const ErrorFrameSchema = v.looseObject({ jsonrpc, id: v.nullable(IdSchema), error: ErrorObjectSchema });

export type RequestFrame = v.InferOutput<typeof RequestFrameSchema>;
export type NotificationFrame = v.InferOutput<typeof NotificationFrameSchema>;
export type ResultFrame = v.InferOutput<typeof ResultFrameSchema>;
export type ErrorFrame = v.InferOutput<typeof ErrorFrameSchema>;
export type Frame = RequestFrame | NotificationFrame | ResultFrame | ErrorFrame;

// Connection-level notifications, handled by the Connection itself.
export const CancelParamsSchema = v.looseObject({ id: IdSchema });
export const ProgressParamsSchema = v.looseObject({ id: IdSchema, value: v.unknown() });
export const PartParamsSchema = v.looseObject({ stream: v.union([v.string(), v.number()]), data: v.string(), final: v.boolean() });
export type PartParams = v.InferOutput<typeof PartParamsSchema>;

// ---------------------------------------------------------------------------------------------
// Shared shapes

const Empty = v.looseObject({});
const JsonObject = v.record(v.string(), v.unknown());

export const TextContentSchema = v.looseObject({ type: v.literal("text"), text: v.string() });
export const ImageContentSchema = v.looseObject({ type: v.literal("image"), data: v.string(), mimeType: v.string() });
export const ContentSchema = v.variant("type", [TextContentSchema, ImageContentSchema]);
export type WireContent = v.InferOutput<typeof ContentSchema>;

export const ToolExposureSchema = v.picklist(["direct", "model-only", "codemode", "deferred", "hidden"]);
export const ToolNamespaceSchema = v.looseObject({
  name: v.string(),
  aliases: v.optional(v.array(v.string())),
  description: v.optional(v.string()),
  instructions: v.optional(v.string()),
});
export const ToolAnnotationsSchema = v.looseObject({
  readOnlyHint: v.optional(v.boolean()),
  destructiveHint: v.optional(v.boolean()),
  idempotentHint: v.optional(v.boolean()),
  openWorldHint: v.optional(v.boolean()),
});

export const ToolSpecSchema = v.looseObject({
  name: v.pipe(v.string(), v.minLength(1)),
  label: v.optional(v.string()),
  description: v.string(),
  /** JSON Schema of the arguments (TypeBox schemas are JSON Schema already). */
  parameters: JsonObject,
  promptSnippet: v.optional(v.string()),
  promptGuidelines: v.optional(v.array(v.string())),
  executionMode: v.optional(v.picklist(["parallel", "sequential"])),
  /** How the model reaches the tool (upstream Pi 1.x); `direct` when absent. */
  exposure: v.optional(ToolExposureSchema),
  /** `false`: registering does not activate the tool. */
  defaultActive: v.optional(v.boolean()),
  namespace: v.optional(ToolNamespaceSchema),
  annotations: v.optional(ToolAnnotationsSchema),
  /** JSON Schema of a successful result's `structuredContent`. */
  outputSchema: v.optional(JsonObject),
});
export type ToolSpec = v.InferOutput<typeof ToolSpecSchema>;

export const CommandSpecSchema = v.looseObject({
  name: v.pipe(v.string(), v.minLength(1)),
  description: v.optional(v.string()),
  hasCompletions: v.optional(v.boolean()),
});
export type CommandSpec = v.InferOutput<typeof CommandSpecSchema>;

export const ShortcutSpecSchema = v.looseObject({ key: v.pipe(v.string(), v.minLength(1)), description: v.optional(v.string()) });
export type ShortcutSpec = v.InferOutput<typeof ShortcutSpecSchema>;

export const FlagSpecSchema = v.looseObject({
  name: v.pipe(v.string(), v.minLength(1)),
  description: v.optional(v.string()),
  type: v.picklist(["boolean", "string"]),
  default: v.optional(v.union([v.boolean(), v.string()])),
});
export type FlagSpec = v.InferOutput<typeof FlagSpecSchema>;

export const ProviderSpecSchema = v.looseObject({ name: v.string(), config: JsonObject });
export type ProviderSpec = v.InferOutput<typeof ProviderSpecSchema>;

export const ModelRefSchema = v.looseObject({ provider: v.string(), id: v.string() });

/** Upstream Pi 0.87.1's levels, `max` included (the session clamps a level to what the model offers). */
export const ThinkingLevelSchema = v.picklist(THINKING_LEVELS);

/** `pi.registerVirtualModel` without its `route` (upstream 1.x); `unregister` withdraws it. */
export const VirtualModelSpecSchema = v.looseObject({
  provider: v.string(),
  id: v.string(),
  name: v.optional(v.string()),
  thinkingLevels: v.optional(v.array(ThinkingLevelSchema)),
  contextWindow: v.optional(v.number()),
  maxTokens: v.optional(v.number()),
  input: v.optional(v.array(v.picklist(["text", "image"]))),
  unregister: v.optional(v.boolean()),
});
export type VirtualModelSpec = v.InferOutput<typeof VirtualModelSpecSchema>;

// ---------------------------------------------------------------------------------------------
// Handshake and registration (extension → host)

export const InitializeParamsSchema = v.looseObject({
  token: v.string(),
  protocols: v.array(v.string()),
  client: v.optional(v.looseObject({ name: v.string(), version: v.optional(v.string()) })),
  /** Required: the host refuses an `initialize` without it (-32001); optional here so that refusal can name the field. */
  pid: v.optional(v.number()),
});
export type InitializeParams = v.InferOutput<typeof InitializeParamsSchema>;

export const SessionModeSchema = v.picklist(["interactive", "print", "json", "rpc"]);
export type SessionMode = v.InferOutput<typeof SessionModeSchema>;

export const InitializeResultSchema = v.looseObject({
  protocol: v.string(),
  maxFrameBytes: v.pipe(v.number(), v.integer(), v.minValue(MIN_MAX_FRAME_BYTES)),
  host: v.looseObject({ name: v.string(), version: v.string() }),
  /** The extensions this process loads; empty for a process that is one extension by itself. */
  load: v.array(v.looseObject({ id: v.string(), path: v.string() })),
  /** The id of a process that is one extension by itself (load is then empty); else null. */
  extension: v.optional(v.nullable(v.string())),
  session: v.looseObject({ cwd: v.string(), mode: SessionModeSchema, hasUI: v.boolean() }),
  flags: v.record(v.string(), v.union([v.boolean(), v.string()])),
});
export type InitializeResult = v.InferOutput<typeof InitializeResultSchema>;

export const RegisterParamsSchema = v.looseObject({
  extension: v.string(),
  tools: v.optional(v.array(ToolSpecSchema), []),
  commands: v.optional(v.array(CommandSpecSchema), []),
  shortcuts: v.optional(v.array(ShortcutSpecSchema), []),
  flags: v.optional(v.array(FlagSpecSchema), []),
  providers: v.optional(v.array(ProviderSpecSchema), []),
  renderers: v.optional(v.array(v.string()), []),
  events: v.optional(v.array(v.string()), []),
  virtualModels: v.optional(v.array(VirtualModelSpecSchema), []),
  /** `pi.registerMcpServer` (an `mcpServers` entry as `config`) and, with `config: null`, `unregisterMcpServer`. */
  mcpServers: v.optional(v.array(v.looseObject({ name: v.string(), config: v.nullable(v.record(v.string(), v.unknown())) })), []),
});
/** As received (lists filled in); `RegisterParamsInput` is what a sender may leave out. */
export type RegisterParams = v.InferOutput<typeof RegisterParamsSchema>;
export type RegisterParamsInput = v.InferInput<typeof RegisterParamsSchema>;

export const DiagnosticSchema = v.looseObject({ type: v.picklist(["warning", "error"]), message: v.string() });
export type Diagnostic = v.InferOutput<typeof DiagnosticSchema>;
export const RegisterResultSchema = v.looseObject({ diagnostics: v.array(DiagnosticSchema) });
export type RegisterResult = v.InferOutput<typeof RegisterResultSchema>;

export const ReadyParamsSchema = v.looseObject({
  extension: v.string(),
  error: v.optional(v.looseObject({ message: v.string(), stack: v.optional(v.string()) })),
});
export type ReadyParams = v.InferOutput<typeof ReadyParamsSchema>;

/** A handler of the extension threw (the extension went on): the session's `extension_error`. */
export const ExtensionErrorParamsSchema = v.looseObject({
  extension: v.string(),
  event: v.string(),
  error: v.string(),
  stack: v.optional(v.string()),
});

// ---------------------------------------------------------------------------------------------
// Host → extension

/** Upstream's structured system-prompt inputs (`before_agent_start`'s `systemPromptOptions`), as a handler may have edited them. */
export const SystemPromptOptionsSchema = v.looseObject({
  customPrompt: v.optional(v.string()),
  forceSystemPrompt: v.optional(v.string()),
  selectedTools: v.array(v.string()),
  hiddenTools: v.array(v.string()),
  toolSnippets: v.record(v.string(), v.string()),
  toolGuidelines: v.record(v.string(), v.array(v.string())),
  promptGuidelines: v.array(v.string()),
  appendSystemPrompt: v.string(),
  sections: v.record(v.string(), v.string()),
  cwd: v.string(),
  contextFiles: v.array(v.object({ path: v.string(), content: v.string() })),
  skills: v.array(v.looseObject({ name: v.string(), description: v.string(), filePath: v.string(), baseDir: v.string(), disableModelInvocation: v.boolean() })),
});

/** A custom message an extension adds to a prompt (`before_agent_start`). */
export const CustomMessageResultSchema = v.looseObject({ customType: v.string(), content: v.unknown(), display: v.boolean(), details: v.optional(v.unknown()) });
/**
 * `before_agent_start`'s answer: `message`, or `messages` when one extension has several
 * handlers that add one (then `messages` holds them all, in order, and `message` is the first,
 * for a host that reads only that).
 */
export const BeforeAgentStartResultSchema = v.looseObject({
  message: v.optional(CustomMessageResultSchema),
  messages: v.optional(v.array(CustomMessageResultSchema)),
  systemPrompt: v.optional(v.string()),
  /** The event's `systemPromptOptions` as the handlers left them, sent only when they changed (upstream 1.x edits them in place). */
  systemPromptOptions: v.optional(SystemPromptOptionsSchema),
});
export const EventParamsSchema = v.looseObject({ extension: v.string(), event: v.string(), payload: v.optional(v.unknown()) });
export type EventParams = v.InferOutput<typeof EventParamsSchema>;

export const ToolExecuteParamsSchema = v.looseObject({
  extension: v.string(),
  name: v.string(),
  toolCallId: v.string(),
  args: JsonObject,
});
export type ToolExecuteParams = v.InferOutput<typeof ToolExecuteParamsSchema>;

export const ToolExecuteResultSchema = v.looseObject({
  content: v.array(ContentSchema),
  details: v.optional(v.unknown()),
  isError: v.optional(v.boolean()),
  terminate: v.optional(v.boolean()),
  /** Data matching the tool's `outputSchema`, for programmatic callers; never sent to the model. */
  structuredContent: v.optional(v.unknown()),
});
export type ToolExecuteResult = v.InferOutput<typeof ToolExecuteResultSchema>;
/** The `value` of a `$/progress` for a `tool.execute`. */
export const ToolProgressSchema = v.looseObject({ content: v.array(ContentSchema), details: v.optional(v.unknown()) });
export type ToolProgress = v.InferOutput<typeof ToolProgressSchema>;

export const CommandRunParamsSchema = v.looseObject({ extension: v.string(), name: v.string(), args: v.string() });
export const CommandCompleteParamsSchema = v.looseObject({ extension: v.string(), name: v.string(), prefix: v.string() });
export const CompletionItemSchema = v.looseObject({ value: v.string(), label: v.optional(v.string()), description: v.optional(v.string()) });
export type CompletionItem = v.InferOutput<typeof CompletionItemSchema>;
export const CommandCompleteResultSchema = v.looseObject({ items: v.nullable(v.array(CompletionItemSchema)) });
export const ShortcutRunParamsSchema = v.looseObject({ extension: v.string(), key: v.string() });
export const ProviderStreamParamsSchema = v.looseObject({
  extension: v.string(),
  provider: v.string(),
  model: JsonObject,
  context: v.unknown(),
  options: v.optional(v.unknown()),
});
export const ProviderStreamResultSchema = v.looseObject({ message: v.unknown() });
/** A virtual model's router asked for one request: upstream's `request` (models as objects), without its signal. */
export const VirtualModelRouteParamsSchema = v.looseObject({ extension: v.string(), provider: v.string(), id: v.string(), request: JsonObject });
/** The router's choice: a model by name, its level, and state to keep on the branch (absent: unchanged). */
export const VirtualModelRouteResultSchema = v.looseObject({ model: ModelRefSchema, thinkingLevel: v.optional(v.string()), state: v.optional(v.unknown()) });

export const ToolInfoSchema = v.looseObject({ name: v.string(), description: v.string(), parameters: v.unknown(), sourceInfo: v.optional(v.unknown()) });
export const CommandInfoSchema = v.looseObject({ name: v.string(), description: v.optional(v.string()), source: v.string() });
export const ContextUsageSchema = v.looseObject({ tokens: v.nullable(v.number()), contextWindow: v.number(), percent: v.nullable(v.number()) });
export type ContextUsage = v.InferOutput<typeof ContextUsageSchema>;

export const StateParamsSchema = v.looseObject({
  cwd: v.string(),
  sessionFile: v.optional(v.string()),
  sessionId: v.string(),
  sessionName: v.optional(v.string()),
  model: v.optional(v.looseObject({ provider: v.string(), id: v.string() })),
  thinkingLevel: v.string(),
  activeTools: v.array(v.string()),
  allTools: v.array(ToolInfoSchema),
  commands: v.array(CommandInfoSchema),
  isIdle: v.boolean(),
  hasPendingMessages: v.boolean(),
  systemPrompt: v.string(),
  contextUsage: v.optional(v.nullable(ContextUsageSchema)),
  /** The providers pig holds credentials for, with their kind: names only, never a key. */
  credentials: v.optional(v.record(v.string(), CredentialKindSchema)),
  /** The settings in force (global and trusted project files merged, overrides applied): `pi.getSettings()`. */
  settings: v.optional(v.record(v.string(), v.unknown())),
  /** Which model list `model.list` would answer with: a process may keep its copy while this stays the same. */
  modelsRevision: v.optional(v.number()),
});
export type StateParams = v.InferOutput<typeof StateParamsSchema>;

export const SessionAppendedParamsSchema = v.looseObject({ entries: v.array(v.string()), leafId: v.nullable(v.string()) });
export const SessionLeafParamsSchema = v.looseObject({ leafId: v.nullable(v.string()) });
export const SessionSnapshotSchema = v.looseObject({
  header: v.string(),
  entries: v.array(v.string()),
  leafId: v.nullable(v.string()),
  sessionFile: v.optional(v.string()),
  /** Only in the answer to `session.subscribe {file: true}`: see docs/extension-protocol.md §5. */
  file: v.optional(v.looseObject({ path: v.string(), offset: v.number(), length: v.number(), count: v.number() })),
});
export const SessionSubscribeParamsSchema = v.looseObject({ file: v.optional(v.boolean()) });
export type SessionSnapshot = v.InferOutput<typeof SessionSnapshotSchema>;
export const BusMessageParamsSchema = v.looseObject({ channel: v.string(), data: v.optional(v.unknown()) });
export const ShutdownParamsSchema = v.looseObject({ reason: v.string() });

// ---------------------------------------------------------------------------------------------
// Extension → host: UI and actions

const timeout = v.optional(v.number());
export const UiSelectParamsSchema = v.looseObject({ title: v.string(), options: v.array(v.string()), timeout });
export const UiConfirmParamsSchema = v.looseObject({ title: v.string(), message: v.string(), timeout });
export const UiInputParamsSchema = v.looseObject({ title: v.string(), placeholder: v.optional(v.string()), timeout });
export const UiEditorParamsSchema = v.looseObject({ title: v.string(), prefill: v.optional(v.string()) });
export const UiNotifyParamsSchema = v.looseObject({ message: v.string(), type: v.optional(v.picklist(["info", "warning", "error"])) });
export const UiSetStatusParamsSchema = v.looseObject({ key: v.string(), text: v.optional(v.nullable(v.string())) });
export const UiSetWidgetParamsSchema = v.looseObject({
  key: v.string(),
  lines: v.optional(v.nullable(v.array(v.string()))),
  placement: v.optional(v.picklist(["aboveEditor", "belowEditor"])),
});
export const UiSetTitleParamsSchema = v.looseObject({ title: v.string() });
export const UiSetEditorTextParamsSchema = v.looseObject({ text: v.string() });

export const DeliverAsSchema = v.picklist(["steer", "followUp", "nextTurn"]);
export const SendMessageParamsSchema = v.looseObject({
  message: v.looseObject({ customType: v.string(), content: v.unknown(), display: v.boolean(), details: v.optional(v.unknown()) }),
  options: v.optional(v.looseObject({ triggerTurn: v.optional(v.boolean()), deliverAs: v.optional(DeliverAsSchema) })),
});
export type SendMessageParams = v.InferOutput<typeof SendMessageParamsSchema>;
export const SendUserMessageParamsSchema = v.looseObject({
  content: v.union([v.string(), v.array(ContentSchema)]),
  options: v.optional(
    v.looseObject({
      deliverAs: v.optional(DeliverAsSchema),
      /** Upstream 1.x: the text is input as typed — a command runs, `/skill:…` and templates expand. */
      expandPromptTemplates: v.optional(v.boolean()),
    }),
  ),
});
export type SendUserMessageParams = v.InferOutput<typeof SendUserMessageParamsSchema>;
export const AppendEntryParamsSchema = v.looseObject({ customType: v.string(), data: v.optional(v.unknown()) });
export const SetNameParamsSchema = v.looseObject({ name: v.string() });
export const SetLabelParamsSchema = v.looseObject({ entryId: v.string(), label: v.optional(v.nullable(v.string())) });
export const SetActiveToolsParamsSchema = v.looseObject({ names: v.array(v.string()) });
/** A running tool calls another (`ctx.executeTool`, upstream Pi 1.x): `toolCallId` is the running call's. */
export const ToolsCallParamsSchema = v.looseObject({ toolCallId: v.string(), name: v.string(), args: v.optional(v.unknown()) });
export const ToolsCallResultSchema = v.looseObject({
  /** The result as the tool gave it (its content blocks in whichever of upstream's shapes it used). */
  result: v.looseObject({ ...ToolExecuteResultSchema.entries, content: v.array(v.unknown()) }),
  isError: v.boolean(),
  durationMs: v.optional(v.number()),
  /** The id pig gave the call: `<toolCallId>/<n>`. */
  toolCallId: v.string(),
});
export type ToolsCallResult = v.InferOutput<typeof ToolsCallResultSchema>;
export const ThinkingSetParamsSchema = v.looseObject({ level: ThinkingLevelSchema });
export const CompactParamsSchema = v.looseObject({ customInstructions: v.optional(v.string()) });
export const SessionNewParamsSchema = v.looseObject({ parentSession: v.optional(v.string()) });
export const SessionForkParamsSchema = v.looseObject({ entryId: v.string(), position: v.optional(v.picklist(["before", "at"])) });
export const SessionNavigateParamsSchema = v.looseObject({
  targetId: v.string(),
  summarize: v.optional(v.boolean()),
  customInstructions: v.optional(v.string()),
  replaceInstructions: v.optional(v.boolean()),
  label: v.optional(v.string()),
});
export const SessionSwitchParamsSchema = v.looseObject({ path: v.string() });
export const CancelledResultSchema = v.looseObject({ cancelled: v.boolean() });

/**
 * Requests the host answers, with the schema their params are checked against. Every one of
 * them may also arrive as a notification when the extension does not want the answer.
 */
export const HOST_METHODS = {
  initialize: InitializeParamsSchema,
  register: RegisterParamsSchema,
  ready: ReadyParamsSchema,
  "session.subscribe": SessionSubscribeParamsSchema,
  "session.boundaryContext": BoundaryContextParamsSchema,
  "ui.select": UiSelectParamsSchema,
  "ui.confirm": UiConfirmParamsSchema,
  "ui.input": UiInputParamsSchema,
  "ui.editor": UiEditorParamsSchema,
  "ui.getEditorText": Empty,
  "ui.notify": UiNotifyParamsSchema,
  "ui.setStatus": UiSetStatusParamsSchema,
  "ui.setWidget": UiSetWidgetParamsSchema,
  "ui.setTitle": UiSetTitleParamsSchema,
  "ui.setEditorText": UiSetEditorTextParamsSchema,
  "agent.sendMessage": SendMessageParamsSchema,
  "agent.sendUserMessage": SendUserMessageParamsSchema,
  "session.appendEntry": AppendEntryParamsSchema,
  "session.setName": SetNameParamsSchema,
  "session.setLabel": SetLabelParamsSchema,
  "tools.setActive": SetActiveToolsParamsSchema,
  "tools.call": ToolsCallParamsSchema,
  "model.set": ModelRefSchema,
  "model.auth": ModelAuthParamsSchema,
  "model.list": Empty,
  "model.stream": ModelStreamParamsSchema,
  "thinking.set": ThinkingSetParamsSchema,
  "agent.compact": CompactParamsSchema,
  "agent.abort": Empty,
  "agent.shutdown": Empty,
  "agent.waitForIdle": Empty,
  "session.new": SessionNewParamsSchema,
  "session.fork": SessionForkParamsSchema,
  "session.navigate": SessionNavigateParamsSchema,
  "session.switch": SessionSwitchParamsSchema,
  "agent.reload": Empty,
  "context.usage": Empty,
  /** `ctx.getSystemPromptOptions()` in a command (upstream 1.x): the prompt's structured inputs now. */
  "session.systemPromptOptions": Empty,
  "bus.emit": BusMessageParamsSchema,
  "extension.error": ExtensionErrorParamsSchema,
} as const;
export type HostMethod = keyof typeof HOST_METHODS;
export type HostMethodParams<M extends HostMethod> = v.InferOutput<(typeof HOST_METHODS)[M]>;
export type HostMethodInput<M extends HostMethod> = v.InferInput<(typeof HOST_METHODS)[M]>;

/** Requests and notifications the extension side answers or receives. */
export const EXTENSION_METHODS = {
  event: EventParamsSchema,
  "tool.execute": ToolExecuteParamsSchema,
  "command.run": CommandRunParamsSchema,
  "command.complete": CommandCompleteParamsSchema,
  "shortcut.run": ShortcutRunParamsSchema,
  "provider.stream": ProviderStreamParamsSchema,
  "virtualModel.route": VirtualModelRouteParamsSchema,
  state: StateParamsSchema,
  "session.appended": SessionAppendedParamsSchema,
  "session.leaf": SessionLeafParamsSchema,
  "session.replaced": SessionSnapshotSchema,
  "bus.message": BusMessageParamsSchema,
  shutdown: ShutdownParamsSchema,
  /** Optional: the session mirror as exact lines, asked only by `pig extension check`. */
  "check.mirror": Empty,
} as const;
export type ExtensionMethod = keyof typeof EXTENSION_METHODS;
export type ExtensionMethodParams<M extends ExtensionMethod> = v.InferOutput<(typeof EXTENSION_METHODS)[M]>;

export { EVENTS, type EventInfo, type EventKind, type EventName, eventDeadlineMs, eventKind } from "./protocol-events.ts";
