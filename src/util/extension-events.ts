/**
 * The one table of extension events: for each of upstream Pi's event names, how pig-ext/1
 * carries it (notification or request), how long the host waits for an answer, what pig does
 * when the answer is late or fails, which agent hook raises it and what that hook returns when
 * nobody answers, and how several answers combine. Everything else about an event is derived
 * from here: the agent's `NO_HOOKS` and the guard's fallbacks, the protocol's event list, the
 * host's and the runner's chaining, the event table of docs/extension-protocol.md and the JSON
 * copy the SDKs' tests read (scripts/docs/events-table.ts writes both).
 *
 * It is data and imports nothing, so every layer may read it: the agent (its hooks), the
 * protocol (which knows nothing of the agent) and the scripts.
 */

export type EventKind = "request" | "notification";

/** How long a request may take: *quick* ones sit on the path of every prompt or tool call. */
export type DeadlineClass = "quick" | "slow" | "interactive";

export const DEADLINE_MS: Readonly<Record<DeadlineClass, number>> = {
  quick: 5_000,
  slow: 120_000,
  // A handler may be waiting for a person at a dialog.
  interactive: 600_000,
};

/**
 * How the answers to one event combine. The rule is the same for several handlers of one
 * extension (the runner chains them) and for several extensions (the host chains them), as in
 * upstream Pi, which runs every handler of every extension in one loop. In each, the next
 * handler sees the payload as the ones before it left it.
 */
export type Combinator =
  /** Answers carry nothing: every handler runs, the answer is `null` (sent when they are done). */
  | { rule: "ignore" }
  /** The first answer whose `field` is present (and, with `values`, one of them) ends the chain and is the result. */
  | { rule: "first-that-decides"; field: string; values?: readonly string[] }
  /** An answer with `cancel: true` ends the chain; otherwise the last non-null answer is the result. */
  | { rule: "cancel-or-last" }
  /** `block: true` ends the chain; an edited `input` is passed on; a failing handler blocks. */
  | { rule: "block-or-edit" }
  /** `handled` ends the chain; `transform` passes its `text` (and `images`) on. */
  | { rule: "handled-or-transform" }
  /** A non-null `field` replaces the payload's, for the next handler and as the result. */
  | { rule: "replace-field"; field: string }
  /** The whole answer replaces the payload's `field` (any non-null JSON). */
  | { rule: "replace-payload"; field: string }
  /** Each present field of `fields` replaces that field; the result is the fields changed. */
  | { rule: "patch-fields"; fields: readonly string[] }
  /** The changes in `field` (an object; `null` deletes a key) add up, the later one winning per key. */
  | { rule: "merge-objects"; field: string }
  /** The arrays in `fields` are collected in order over every answer. */
  | { rule: "collect"; fields: readonly string[] }
  /** Every `message` is collected; a non-empty `systemPrompt` is passed on. */
  | { rule: "collect-messages-pass-prompt" }
  /** `entries` and `continue`, each when present, replace the ones before (docs §3.1). */
  | { rule: "boundary" };

export type CombinatorName = Combinator["rule"];

/** The agent hook that raises an event, and what it returns when nothing answers. */
export interface HookInfo {
  /** The `AgentHooks` method. */
  name: string;
  /** What the hook returns when no extension changes anything (`NO_HOOKS`, and the guard's fallback). */
  none: unknown;
  /** `block`: a hook that throws blocks (tool_call); `skip`: it counts as `none` and is reported. */
  onThrow: "skip" | "block";
}

interface EventCommon {
  /** The payload as the docs give it. */
  payload: string;
  /** Upstream names nothing in pig raises: an extension may subscribe and never hears them. */
  neverSent?: true;
  hook?: HookInfo;
}

export interface NotificationInfo extends EventCommon {
  kind: "notification";
}

export interface RequestInfo extends EventCommon {
  kind: "request";
  deadline: DeadlineClass;
  /** What pig does when the answer is late, an error or `null` (the docs' last column). */
  safeDefault: string;
  /** The answer as the docs give it. */
  result: string;
  combine: Combinator;
  /** A deadline the docs add to (`session_shutdown` at quit). */
  deadlineNote?: string;
  /** Upstream's event carries the request's `AbortSignal` as `signal`; the runner puts it back (the wire has `$/cancel`). */
  signalInPayload?: true;
}

export type EventInfo = NotificationInfo | RequestInfo;

const notification = <M extends Partial<NotificationInfo>>(payload: string, more?: M): NotificationInfo & M =>
  ({ kind: "notification", payload, ...more }) as NotificationInfo & M;

const skipHook = <N extends string>(name: N, none: unknown = undefined): HookInfo & { name: N } => ({ name, none, onThrow: "skip" });

/** In the order of docs/extension-protocol.md §3. */
export const EXTENSION_EVENTS = {
  project_trust: {
    kind: "request",
    payload: "`{cwd}`, before the project's resources load, to extensions that are not the project's (§3.2)",
    result: '`{trusted:"yes"\\|"no"\\|"undecided", remember?}`',
    deadline: "interactive",
    safeDefault: "undecided",
    combine: { rule: "first-that-decides", field: "trusted", values: ["yes", "no"] },
  },
  resources_discover: {
    kind: "request",
    payload: '`{cwd, reason:"startup"\\|"reload"}`, after `session_start`',
    result:
      "`{skillPaths, promptPaths, themePaths}` (all extensions' results collected; relative paths are the cwd's; they join the run's skills, prompt templates and themes for the next prompt)",
    deadline: "quick",
    safeDefault: "no extra paths",
    combine: { rule: "collect", fields: ["skillPaths", "promptPaths", "themePaths"] },
  },
  mcp_servers_change: notification(
    "`{servers:[{name, config, extensionPath}]}`: every MCP server extensions registered, after `pi.registerMcpServer`/`unregisterMcpServer` once the session exists (those registered while loading are read with `pi.getMcpServers()` at `session_start`); upstream Pi 1.x",
  ),
  session_start: {
    kind: "request",
    payload: "`{reason, previousSessionFile?}`",
    result: "— (answered when the handlers are done)",
    deadline: "quick",
    safeDefault: "pig goes on",
    combine: { rule: "ignore" },
  },
  session_info_changed: notification("`{name?}`"),
  session_before_switch: {
    kind: "request",
    payload: '`{reason:"new"\\|"resume", targetSessionFile?}`',
    result: "`{cancel}`",
    deadline: "interactive",
    safeDefault: "go ahead",
    combine: { rule: "cancel-or-last" },
    hook: skipHook("sessionBeforeSwitch"),
  },
  session_before_fork: {
    kind: "request",
    payload: '`{entryId, position:"before"\\|"at"}`',
    result: "`{cancel}`",
    deadline: "interactive",
    safeDefault: "go ahead",
    combine: { rule: "cancel-or-last" },
    hook: skipHook("sessionBeforeFork"),
  },
  session_before_compact: {
    kind: "request",
    payload: "`{preparation, branchEntries, customInstructions?, reason, willRetry}`",
    result: "`{cancel, compaction:{summary, firstKeptEntryId, tokensBefore, details?}}`",
    deadline: "slow",
    safeDefault: "pig compacts itself",
    signalInPayload: true,
    combine: { rule: "cancel-or-last" },
    hook: skipHook("sessionBeforeCompact"),
  },
  session_compact: notification("`{compactionEntry, fromExtension}`"),
  session_compact_failed: notification("`{reason, errorMessage?, aborted, willRetry, fromExtension}`: a compaction failed or was cancelled"),
  session_shutdown: {
    kind: "request",
    payload: "`{reason, targetSessionFile?}`",
    result: "— (answered when the handlers are done)",
    deadline: "quick",
    deadlineNote: "1 s at quit",
    safeDefault: "pig goes on",
    combine: { rule: "ignore" },
  },
  session_before_tree: {
    kind: "request",
    payload: "`{preparation}`",
    result: "`{cancel, summary:{summary, details?}, customInstructions, replaceInstructions, label}`",
    deadline: "slow",
    safeDefault: "go ahead, pig summarises",
    signalInPayload: true,
    combine: { rule: "cancel-or-last" },
    hook: skipHook("sessionBeforeTree"),
  },
  session_tree: notification("`{newLeafId, oldLeafId, summaryEntry?, fromExtension?}`"),
  context: {
    kind: "request",
    payload: "`{messages}`",
    result: "`{messages}`",
    deadline: "quick",
    safeDefault: "messages unchanged",
    combine: { rule: "replace-field", field: "messages" },
    hook: skipHook("context"),
  },
  context_with_system: {
    kind: "request",
    payload: "`{messages}` (the call's whole transcript, system messages first, after every `context` handler)",
    result: "`{messages}`: sent as returned, the prompt and tools replayed from its system messages",
    deadline: "quick",
    safeDefault: "unchanged",
    combine: { rule: "replace-field", field: "messages" },
    hook: skipHook("contextWithSystem"),
  },
  cache_warming_decision: {
    kind: "request",
    neverSent: true,
    payload: "upstream's `{warmCost, missCost, continuationProbability, action}`",
    result: '`{action:"warm"\\|"stop"}`',
    deadline: "quick",
    safeDefault: "pig's own decision",
    // Upstream: the last handler that names an action decides.
    combine: { rule: "patch-fields", fields: ["action"] },
  },
  before_provider_request: {
    kind: "request",
    payload: "`{payload}`",
    result: "the replacement payload (any non-null JSON)",
    deadline: "quick",
    safeDefault: "payload unchanged",
    combine: { rule: "replace-payload", field: "payload" },
    hook: skipHook("beforeProviderRequest"),
  },
  before_provider_headers: {
    kind: "request",
    payload: '`{headers}`: the request\'s headers, each credential\'s value replaced by `"[redacted]"` (sent back unchanged, the real value stays)',
    result: "`{headers}`: the changes, a string sets a header, `null` deletes it (handlers may also edit `event.headers` in place)",
    deadline: "quick",
    safeDefault: "headers unchanged",
    combine: { rule: "merge-objects", field: "headers" },
    hook: skipHook("beforeProviderHeaders"),
  },
  after_provider_response: notification("`{status, headers}`", { hook: skipHook("afterProviderResponse") }),
  provider_stream_event: notification(
    "`{provider, api, model, data}`: each event of the answer's stream as the provider sent it, before pig reads it (`data`: an SSE event's JSON, a Bedrock event as `{<type>: payload}`, an OpenAI SDK chunk); upstream Pi 1.x",
    { hook: skipHook("providerStreamEvent") },
  ),
  before_agent_start: {
    kind: "request",
    payload:
      '`{messageType:"user", prompt, images?, systemPrompt, systemPromptOptions}` for a prompt, `{messageType:"custom", message, systemPrompt, systemPromptOptions}` for a custom message that starts a run (upstream 1.x)',
    result: "`{message:{customType, content, display, details?}, messages:[…], systemPrompt, systemPromptOptions}`",
    deadline: "interactive",
    safeDefault: "nothing added, base prompt",
    combine: { rule: "collect-messages-pass-prompt" },
    hook: skipHook("beforeAgentStart"),
  },
  agent_start: notification("`{}`"),
  agent_end: notification("`{messages}`"),
  agent_before_settle: {
    kind: "request",
    payload: "`{outcome, entries, continue, boundary}` when a run would settle (not after an abort; §3.1)",
    result: "`{entries, continue}`",
    deadline: "quick",
    safeDefault: "settle normally",
    combine: { rule: "boundary" },
    hook: skipHook("beforeSettle"),
  },
  agent_settled: notification("`{aborted}`: true when the run ended because it was stopped (upstream 1.x)"),
  ui_prompt_start: notification(
    '`{reason:"ui_prompt", kind, title?}`, to every extension, around an extension\'s blocking select, confirm, input or editor (the outermost one when several are open)',
  ),
  ui_prompt_end: notification(
    '`{reason:"ui_prompt", kind, title?}`, to every extension, around an extension\'s blocking select, confirm, input or editor (the outermost one when several are open)',
  ),
  turn_start: notification("`{turnIndex, timestamp}`"),
  turn_end: {
    kind: "request",
    payload: "`{turnIndex, message, toolResults, messageEntryId, toolResultEntryIds, outcome, entries, continue, boundary}` after each turn, its messages in the session (§3.1)",
    result: "`{entries, continue}`",
    deadline: "quick",
    safeDefault: "nothing added, the run goes on as it would",
    combine: { rule: "boundary" },
    hook: skipHook("turnEnd"),
  },
  message_start: notification("`{message}` (+ `assistantMessageEvent`)"),
  message_update: notification("`{message}` (+ `assistantMessageEvent`)"),
  message_end: {
    kind: "request",
    payload: "`{message}`",
    result: "`{message}` with the same `role`",
    deadline: "quick",
    safeDefault: "message unchanged",
    combine: { rule: "replace-field", field: "message" },
    hook: skipHook("messageEnd"),
  },
  tool_execution_start: notification("as pig's RPC events"),
  tool_execution_update: notification("as pig's RPC events"),
  tool_execution_end: notification("as pig's RPC events: `durationMs` when the tool ran, and `parentToolCallId` on the events of a call another tool made (`ctx.executeTool`); upstream Pi 1.x"),
  model_select: notification("`{model, previousModel?, source}`"),
  thinking_level_select: notification("`{level, previousLevel}`"),
  user_bash: {
    kind: "request",
    payload: "`{command, excludeFromContext, cwd}`",
    result: "`{result:{output, exitCode, cancelled, truncated, fullOutputPath?}}`",
    deadline: "interactive",
    safeDefault: "pig runs the command",
    combine: { rule: "first-that-decides", field: "result" },
    hook: skipHook("userBash"),
  },
  input: {
    kind: "request",
    payload: "`{text, images?, source, streamingBehavior?}`",
    result: '`{action:"continue"}` \\| `{action:"transform", text, images?}` \\| `{action:"handled"}`',
    deadline: "interactive",
    safeDefault: "continue",
    combine: { rule: "handled-or-transform" },
    hook: skipHook("input", { action: "continue" }),
  },
  tool_call: {
    kind: "request",
    payload: "`{toolCallId, toolName, input, parentToolCallId?}` (`parentToolCallId`: a call another tool made, upstream Pi 1.x)",
    result: "`{block, reason, input}`",
    deadline: "interactive",
    safeDefault: "blocked",
    combine: { rule: "block-or-edit" },
    hook: { name: "toolCall" as const, none: undefined, onThrow: "block" },
  },
  tool_result: {
    kind: "request",
    payload: "`{toolCallId, toolName, input, content, details, structuredContent?, isError, parentToolCallId?}`",
    result: "`{content, details, structuredContent, isError}` (field-wise; new `content` without `structuredContent` drops it)",
    deadline: "quick",
    safeDefault: "unchanged",
    combine: { rule: "patch-fields", fields: ["content", "details", "structuredContent", "isError"] },
    hook: skipHook("toolResult"),
  },
} as const satisfies Record<string, EventInfo>;

export type ExtensionEventName = keyof typeof EXTENSION_EVENTS;

type Rows = typeof EXTENSION_EVENTS;

/** The `AgentHooks` methods the table names (agent/hooks.ts checks they are exactly its own). */
export type HookName = { [K in keyof Rows]: Rows[K] extends { hook: { name: infer N } } ? N : never }[keyof Rows];

export type RequestEventName = {
  [K in ExtensionEventName]: (typeof EXTENSION_EVENTS)[K] extends { kind: "request" } ? K : never;
}[ExtensionEventName];

/** The table's row for `name`, or undefined for a name this version does not know. */
export function extensionEvent(name: string): EventInfo | undefined {
  return Object.hasOwn(EXTENSION_EVENTS, name) ? (EXTENSION_EVENTS as Record<string, EventInfo>)[name] : undefined;
}

/** Every event's name, in the table's order. */
export const EXTENSION_EVENT_NAMES = Object.keys(EXTENSION_EVENTS) as ExtensionEventName[];

/** The rows an agent hook raises, each with its hook. */
export const HOOKED_EVENTS: ReadonlyArray<{ event: ExtensionEventName; hook: HookInfo & { name: HookName } }> = EXTENSION_EVENT_NAMES.flatMap((event) => {
  const hook = (EXTENSION_EVENTS as Record<string, EventInfo>)[event]!.hook;
  return hook ? [{ event, hook: hook as HookInfo & { name: HookName } }] : [];
});

/** How answers to `name` combine; a notification's, or an unknown event's, carry nothing. */
export function combinatorOf(name: string): Combinator {
  const row = extensionEvent(name);
  return row?.kind === "request" ? row.combine : { rule: "ignore" };
}

/**
 * What each rule does: the chaining rules of docs/extension-protocol.md §3 and the JSON copy are
 * written from these (scripts/docs/events-table.ts), each with the events that combine by it.
 */
export const COMBINATOR_DOCS: Readonly<Record<CombinatorName, string>> = {
  ignore: "the answers carry nothing; every handler runs, and the extension answers when they are done",
  "first-that-decides":
    "the first answer whose field decides is the result (`project_trust`: `trusted` of `yes` or `no`, `undecided` passing it on; `user_bash`: a `result`); later handlers are not asked",
  "cancel-or-last": "`cancel:true` stops the chain at once; otherwise the last non-null answer is the result",
  "block-or-edit":
    "the first `block:true` wins and stops the chain (its `reason`, or `Tool execution was blocked`). Because an out-of-process handler cannot edit the host's object in place, it returns the edited arguments as `input`; the next one sees them and the tool runs with them, without new validation. **A failing handler blocks** (upstream blocks when a handler throws, and a permission check that times out must not let the call through): the reason names the extension",
  "handled-or-transform":
    "`transform` feeds its `text` (and `images`; earlier ones stay when a later transform leaves them out) to the next handler, the last being the result; `handled` stops the chain; `continue` alone is no answer",
  "replace-field": "a non-null field replaces the one the next handler sees; the last is the result",
  "replace-payload": "the whole answer replaces the payload the next handler sees; the last is the result",
  "patch-fields": "each present field replaces that field for the next handler; the result is the fields changed",
  "merge-objects": "the changes add up, a later one winning per name (names compared without case; `null` deletes); handlers may also edit the object in place",
  collect: "the arrays of every answer are collected in order",
  "collect-messages-pass-prompt":
    "every `message` is collected; a non-empty `systemPrompt` becomes the next handler's `systemPrompt`. An extension with several handlers that add a message answers with `messages` (all of them, in handler order); pig then uses `messages` and ignores `message` (which the runner sets to the first, for older hosts). Handlers edit `systemPromptOptions` in place, as upstream; an extension whose handlers changed them answers with the whole edited `systemPromptOptions`, which the next extension is shown and the run's prompt is made from",
  boundary: "`entries` and `continue`, each when present, replace the ones before (§3.1)",
};

/** The requests an agent hook raises: the host checks and combines their answers. */
export type HookedRequestEventName = {
  [K in ExtensionEventName]: Rows[K] extends { kind: "request"; hook: object } ? K : never;
}[ExtensionEventName];

/** The events an agent hook raises (what `AgentHooks.listens` is asked about). */
export type HookedEventName = { [K in ExtensionEventName]: Rows[K] extends { hook: object } ? K : never }[ExtensionEventName];

/** The hooks that raise notifications: nothing comes back, so the host derives them from here. */
export type NotificationHookName = {
  [K in ExtensionEventName]: Rows[K] extends { kind: "notification"; hook: { name: infer N } } ? N : never;
}[ExtensionEventName];
