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
}

// Events that ask the user or summarise with a model may legitimately take long; the rest sit
// on the path of every prompt or tool call and must be quick.
const QUICK = 5_000;
const SLOW = 120_000;
/** Handlers of these may open a dialog, which waits for a person. */
const INTERACTIVE = 600_000;

export const EVENTS = {
  project_trust: { kind: "request", deadlineMs: INTERACTIVE },
  resources_discover: { kind: "request", deadlineMs: QUICK },
  session_start: { kind: "request", deadlineMs: QUICK },
  session_info_changed: { kind: "notification" },
  session_before_switch: { kind: "request", deadlineMs: INTERACTIVE },
  session_before_fork: { kind: "request", deadlineMs: INTERACTIVE },
  session_before_compact: { kind: "request", deadlineMs: SLOW },
  session_compact: { kind: "notification" },
  session_compact_failed: { kind: "notification" },
  session_shutdown: { kind: "request", deadlineMs: QUICK },
  session_before_tree: { kind: "request", deadlineMs: SLOW },
  session_tree: { kind: "notification" },
  context: { kind: "request", deadlineMs: QUICK },
  context_with_system: { kind: "request", deadlineMs: QUICK },
  cache_warming_decision: { kind: "request", deadlineMs: QUICK },
  before_provider_request: { kind: "request", deadlineMs: QUICK },
  before_provider_headers: { kind: "request", deadlineMs: QUICK },
  after_provider_response: { kind: "notification" },
  before_agent_start: { kind: "request", deadlineMs: INTERACTIVE },
  agent_start: { kind: "notification" },
  agent_end: { kind: "notification" },
  agent_before_settle: { kind: "request", deadlineMs: QUICK },
  agent_settled: { kind: "notification" },
  ui_prompt_start: { kind: "notification" },
  ui_prompt_end: { kind: "notification" },
  turn_start: { kind: "notification" },
  turn_end: { kind: "request", deadlineMs: QUICK },
  message_start: { kind: "notification" },
  message_update: { kind: "notification" },
  message_end: { kind: "request", deadlineMs: QUICK },
  tool_execution_start: { kind: "notification" },
  tool_execution_update: { kind: "notification" },
  tool_execution_end: { kind: "notification" },
  model_select: { kind: "notification" },
  thinking_level_select: { kind: "notification" },
  user_bash: { kind: "request", deadlineMs: INTERACTIVE },
  input: { kind: "request", deadlineMs: INTERACTIVE },
  tool_call: { kind: "request", deadlineMs: INTERACTIVE },
  tool_result: { kind: "request", deadlineMs: QUICK },
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
