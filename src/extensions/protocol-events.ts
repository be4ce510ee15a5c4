/**
 * Every event of upstream Pi's extension API, and how pig-ext/1 carries it: as a notification
 * when the handler's return value cannot change anything, as a request when it can. A request
 * has a deadline; when the extension misses it (or fails) the host goes on as if the handler had
 * returned nothing, which is each event's safe default.
 */

export type EventKind = "request" | "notification";

export interface EventInfo {
  kind: EventKind;
  /** Milliseconds the host waits for one extension's answer (requests only). */
  deadlineMs?: number;
  /** What pig does when that answer is late or fails (requests only; the protocol doc's last column). */
  safeDefault?: string;
}

// Events that ask the user or summarise with a model may legitimately take long; the rest sit
// on the path of every prompt or tool call and must be quick.
const QUICK = 5_000;
const SLOW = 120_000;
/** Handlers of these may open a dialog, which waits for a person. */
const INTERACTIVE = 600_000;

export const EVENTS = {
  project_trust: { kind: "request", deadlineMs: INTERACTIVE, safeDefault: "undecided" },
  resources_discover: { kind: "request", deadlineMs: QUICK, safeDefault: "no extra paths" },
  session_start: { kind: "request", deadlineMs: QUICK, safeDefault: "pig goes on" },
  session_info_changed: { kind: "notification" },
  session_before_switch: { kind: "request", deadlineMs: INTERACTIVE, safeDefault: "go ahead" },
  session_before_fork: { kind: "request", deadlineMs: INTERACTIVE, safeDefault: "go ahead" },
  session_before_compact: { kind: "request", deadlineMs: SLOW, safeDefault: "pig compacts itself" },
  session_compact: { kind: "notification" },
  session_compact_failed: { kind: "notification" },
  session_shutdown: { kind: "request", deadlineMs: QUICK, safeDefault: "pig goes on" },
  session_before_tree: { kind: "request", deadlineMs: SLOW, safeDefault: "go ahead, pig summarises" },
  session_tree: { kind: "notification" },
  context: { kind: "request", deadlineMs: QUICK, safeDefault: "messages unchanged" },
  context_with_system: { kind: "request", deadlineMs: QUICK, safeDefault: "unchanged" },
  cache_warming_decision: { kind: "request", deadlineMs: QUICK, safeDefault: "pig's own decision" },
  before_provider_request: { kind: "request", deadlineMs: QUICK, safeDefault: "payload unchanged" },
  before_provider_headers: { kind: "request", deadlineMs: QUICK, safeDefault: "headers unchanged" },
  after_provider_response: { kind: "notification" },
  before_agent_start: { kind: "request", deadlineMs: INTERACTIVE, safeDefault: "nothing added, base prompt" },
  agent_start: { kind: "notification" },
  agent_end: { kind: "notification" },
  agent_before_settle: { kind: "request", deadlineMs: QUICK, safeDefault: "settle normally" },
  agent_settled: { kind: "notification" },
  ui_prompt_start: { kind: "notification" },
  ui_prompt_end: { kind: "notification" },
  turn_start: { kind: "notification" },
  turn_end: { kind: "request", deadlineMs: QUICK, safeDefault: "nothing added, the run goes on as it would" },
  message_start: { kind: "notification" },
  message_update: { kind: "notification" },
  message_end: { kind: "request", deadlineMs: QUICK, safeDefault: "message unchanged" },
  tool_execution_start: { kind: "notification" },
  tool_execution_update: { kind: "notification" },
  tool_execution_end: { kind: "notification" },
  model_select: { kind: "notification" },
  thinking_level_select: { kind: "notification" },
  user_bash: { kind: "request", deadlineMs: INTERACTIVE, safeDefault: "pig runs the command" },
  input: { kind: "request", deadlineMs: INTERACTIVE, safeDefault: "continue" },
  tool_call: { kind: "request", deadlineMs: INTERACTIVE, safeDefault: "blocked" },
  tool_result: { kind: "request", deadlineMs: QUICK, safeDefault: "unchanged" },
} as const satisfies Record<string, EventInfo>;

export type EventName = keyof typeof EVENTS;

/** Events of upstream's API nothing in pig raises (an extension may subscribe; it never hears them). */
export const NEVER_SENT: ReadonlySet<EventName> = new Set<EventName>(["cache_warming_decision"]);

/** Unknown names are notifications: an event this version does not know cannot be waited on. */
export function eventKind(name: string): EventKind {
  return Object.hasOwn(EVENTS, name) ? EVENTS[name as EventName].kind : "notification";
}

export function eventDeadlineMs(name: string): number {
  const info: EventInfo | undefined = Object.hasOwn(EVENTS, name) ? EVENTS[name as EventName] : undefined;
  return info?.deadlineMs ?? QUICK;
}
