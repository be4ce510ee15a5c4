/**
 * The points where something outside the agent (extensions, the SDK) may change what the agent
 * does. Every hook is awaited; `NO_HOOKS` is the default and changes nothing. The agent never
 * asks who is behind a hook: the extension host chains its extensions' handlers behind this one
 * interface, with deadlines and safe defaults of its own.
 *
 * Event names and result shapes follow upstream Pi's extension events of the same names.
 */
import type { LlmMessage } from "../ai/types.ts";
import type { SystemPromptOptions } from "../resources/system-prompt-options.ts";
import type { ProjectedEntry } from "../session/context.ts";
import type { AgentMessage, CustomMessage, SessionEntry, ToolResultMessage, Usage, UserContentBlock } from "../session/format.ts";
import type { ToolContent } from "../tools/types.ts";
import { HOOKED_EVENTS, type HookedEventName, type HookName } from "../util/extension-events.ts";

export type HookImage = { type: "image"; data: string; mimeType: string };

export type InputSource = "interactive" | "rpc" | "extension";

export interface InputHookEvent {
  text: string;
  images?: HookImage[];
  source: InputSource;
  /** How the input will be delivered while the agent is busy; absent when idle. */
  streamingBehavior?: "steer" | "followUp";
}

export type InputHookResult =
  | { action: "continue" }
  | { action: "transform"; text: string; images?: HookImage[] }
  | { action: "handled" };

/** What starts a run (upstream 1.x's `messageType`): a user's prompt or an extension's custom message. */
export type RunTrigger =
  | {
      messageType: "user";
      /** The prompt after skill and template expansion. */
      prompt: string;
      images?: HookImage[];
    }
  | { messageType: "custom"; message: CustomMessage };

export type BeforeAgentStartHookEvent = RunTrigger & {
  /** The system prompt the run would use. */
  systemPrompt: string;
  /** Its structured inputs, which handlers may edit (upstream's `systemPromptOptions`). */
  systemPromptOptions: SystemPromptOptions;
};

export interface BeforeAgentStartHookResult {
  /** Custom messages to add after the user message (each persisted as a `custom_message`). */
  messages?: Omit<CustomMessage, "timestamp">[];
  /** A non-empty prompt replaces the system prompt for this run only. */
  systemPrompt?: string;
  /** The structured inputs as the handlers left them, when they changed; the run's prompt is made from them. */
  systemPromptOptions?: SystemPromptOptions;
}

export interface ToolCallHookEvent {
  toolCallId: string;
  toolName: string;
  /** Set for a call another tool made through `ctx.executeTool` (Pi ≥ 1.x). */
  parentToolCallId?: string;
  /** The validated arguments; a hook may edit them in place (no re-validation, as upstream). */
  input: Record<string, unknown>;
}

export interface ToolCallHookResult {
  block?: boolean;
  reason?: string;
}

export interface ToolResultHookEvent {
  toolCallId: string;
  toolName: string;
  parentToolCallId?: string;
  input: Record<string, unknown>;
  content: ToolContent[];
  details: unknown;
  /** The result's data for programmatic callers (Pi ≥ 1.x), when the tool gave any. */
  structuredContent?: unknown;
  isError: boolean;
}

export interface ToolResultHookResult {
  content?: ToolContent[];
  details?: unknown;
  /** Replacing `content` without it drops the structured content, as upstream. */
  structuredContent?: unknown;
  isError?: boolean;
}

export interface CompactHookEvent {
  /** What compaction would summarise (compaction's own preparation object). */
  preparation: unknown;
  branchEntries: readonly SessionEntry[];
  customInstructions?: string;
  reason: "manual" | "threshold" | "overflow";
  willRetry: boolean;
  signal: AbortSignal;
}

export interface CompactHookResult {
  cancel?: boolean;
  /** A compaction the hook made itself: stored with `fromHook: true`. */
  compaction?: { summary: string; firstKeptEntryId: string | null; tokensBefore: number; details?: unknown };
}

export interface TreeHookEvent {
  preparation: {
    targetId: string;
    oldLeafId: string | null;
    commonAncestorId: string | null;
    entriesToSummarize: readonly SessionEntry[];
    userWantsSummary: boolean;
    customInstructions?: string;
    replaceInstructions?: boolean;
    label?: string;
  };
  signal: AbortSignal;
}

export interface TreeHookResult {
  cancel?: boolean;
  /** Used only when a summary was asked for. */
  summary?: { summary: string; details?: unknown };
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

export interface SwitchHookEvent {
  reason: "new" | "resume";
  targetSessionFile?: string;
}

export interface ForkHookEvent {
  entryId: string;
  /** `at` is a clone at the entry. */
  position: "before" | "at";
}

export interface UserBashHookEvent {
  command: string;
  excludeFromContext: boolean;
  cwd: string;
}

export interface UserBashHookResult {
  /** The command's outcome, supplied instead of running it. */
  result?: { output: string; exitCode: number | undefined; cancelled: boolean; truncated: boolean; fullOutputPath?: string };
}

export interface ProviderResponseHookEvent {
  status: number;
  headers: Record<string, string>;
}

export interface ProviderStreamHookEvent {
  provider: string;
  api: string;
  model: string;
  /** One event of the answer's stream as the provider sent it (read-only). */
  data: unknown;
}

/** An entry a boundary handler asks to append (upstream's session boundary drafts). */
export type BoundaryDraft =
  | { type: "custom"; customType: string; data?: unknown }
  | { type: "custom_message"; customType: string; content: string | UserContentBlock[]; display: boolean; details?: unknown }
  | { type: "context_edit"; targetId: string; replacement: { content: unknown } | null }
  | { type: "compaction"; summary: string; firstKeptEntryId: string | null; details?: unknown; usage?: Usage };

/** The context as it would be with a boundary's drafts appended. */
export interface BoundaryContext {
  contextEntries: ProjectedEntry[];
  contextMessages: AgentMessage[];
  llmMessages: LlmMessage[];
  /** Queued steering and follow-up messages. */
  pendingMessages: AgentMessage[];
  /** Whether one more model request could run on it. */
  canContinue: boolean;
}

/** Builds the boundary context with `drafts` appended; throws when a draft cannot be applied. */
export type BoundaryPreview = (drafts: readonly BoundaryDraft[]) => BoundaryContext;

export type ActivityOutcome = "completed" | "aborted" | "error";

export interface TurnEndHookEvent {
  turnIndex: number;
  message: AgentMessage;
  toolResults: ToolResultMessage[];
  messageEntryId: string;
  toolResultEntryIds: string[];
  outcome: ActivityOutcome;
}

export interface BeforeSettleHookEvent {
  outcome: ActivityOutcome;
}

/** What a boundary ends with: entries to append, and whether one more model request is wanted. */
export interface BoundaryHookResult {
  entries: BoundaryDraft[];
  continue: boolean;
}

/** Hook names, for `listens` (upstream's event names): every event of the table a hook raises. */
export type HookEventName = HookedEventName;

/**
 * `signal` is the abort of whatever asked (the run, a prompt being submitted): once it fires a
 * pending hook resolves at once with its safe default — for `toolCall`, a block.
 */
export interface AgentHooks {
  /** Every prompt passes here first (interactive, RPC, print, SDK, extension). */
  input(event: InputHookEvent, signal?: AbortSignal): Promise<InputHookResult>;
  /** Once per prompt that starts a run. */
  beforeAgentStart(event: BeforeAgentStartHookEvent, signal?: AbortSignal): Promise<BeforeAgentStartHookResult | undefined>;
  /** Before every model call: the conversation without system messages; the result is used for that call only. */
  context(messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[] | undefined>;
  /** The provider's request body; a returned value replaces it. */
  beforeProviderRequest(payload: unknown, signal?: AbortSignal): Promise<unknown>;
  /** The request headers (credentials left out); the changes to make: a string sets, `null` removes. */
  /**
   * After `context`: the whole transcript of the call, system messages included; what it returns
   * is sent as it is, the prompt and tools replayed from its system messages. The messages are
   * the session's own objects: a hook returns new ones rather than changing them.
   */
  contextWithSystem(messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[] | undefined>;
  beforeProviderHeaders(headers: Record<string, string>, signal?: AbortSignal): Promise<Record<string, string | null> | undefined>;
  afterProviderResponse(event: ProviderResponseHookEvent): Promise<void>;
  /** Each event of the answer's stream, before pig reads it; asked for only while someone listens. */
  providerStreamEvent(event: ProviderStreamHookEvent): Promise<void>;
  toolCall(event: ToolCallHookEvent, signal?: AbortSignal): Promise<ToolCallHookResult | undefined>;
  toolResult(event: ToolResultHookEvent, signal?: AbortSignal): Promise<ToolResultHookResult | undefined>;
  /** A finished message (user, assistant, tool result, custom); a replacement must keep the role. */
  messageEnd(message: AgentMessage, signal?: AbortSignal): Promise<AgentMessage | undefined>;
  sessionBeforeCompact(event: CompactHookEvent): Promise<CompactHookResult | undefined>;
  sessionBeforeTree(event: TreeHookEvent): Promise<TreeHookResult | undefined>;
  sessionBeforeSwitch(event: SwitchHookEvent): Promise<{ cancel?: boolean } | undefined>;
  sessionBeforeFork(event: ForkHookEvent): Promise<{ cancel?: boolean } | undefined>;
  userBash(event: UserBashHookEvent): Promise<UserBashHookResult | undefined>;
  /** After each turn (the answer and its tool results are in the file): entries to add, one more request. */
  turnEnd(event: TurnEndHookEvent, preview: BoundaryPreview, signal?: AbortSignal): Promise<BoundaryHookResult | undefined>;
  /** When the run would settle (not after an abort): entries to add, one more request. */
  beforeSettle(event: BeforeSettleHookEvent, preview: BoundaryPreview, signal?: AbortSignal): Promise<BoundaryHookResult | undefined>;
  /** Whether anyone handles `event` now: a hook nobody handles is not called (nor its input copied). */
  listens(event: HookEventName): boolean;
}

/** The hooks but `listens`: one per row of the event table that an agent hook raises. */
export type HookMethod = Exclude<keyof AgentHooks, "listens">;

// The table and this interface name the same hooks; a hook added to one only compiles once it
// is in the other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const TABLE_NAMES_EVERY_HOOK: Same<HookName, HookMethod> = true;
void TABLE_NAMES_EVERY_HOOK;

/** Each hook returns its row's `none` (a copy: a caller may keep and change it): nothing is changed. */
export const NO_HOOKS: AgentHooks = {
  ...(Object.fromEntries(HOOKED_EVENTS.map(({ hook }) => [hook.name, async () => structuredClone(hook.none)])) as unknown as Pick<AgentHooks, HookMethod>),
  // A set of hooks made from these with some replaced is asked for every hook: the rest do nothing.
  listens: () => true,
};
