/**
 * Every event of upstream Pi's extension API, and how pig-ext/1 carries it: as a notification
 * when the handler's return value cannot change anything, as a request when it can. A request
 * has a deadline; when the extension misses it (or fails) the host goes on as if the handler had
 * returned nothing, which is each event's safe default. All of it is read from the one event
 * table (util/extension-events.ts).
 */
import { DEADLINE_MS, EXTENSION_EVENT_NAMES, EXTENSION_EVENTS, type ExtensionEventName, extensionEvent } from "../util/extension-events.ts";

export type EventKind = "request" | "notification";

export interface EventInfo {
  kind: EventKind;
  /** Milliseconds the host waits for one extension's answer (requests only). */
  deadlineMs?: number;
  /** What pig does when that answer is late or fails (requests only; the protocol doc's last column). */
  safeDefault?: string;
}

export type EventName = ExtensionEventName;

export const EVENTS: Readonly<Record<EventName, EventInfo>> = Object.fromEntries(
  EXTENSION_EVENT_NAMES.map((name) => {
    const row = extensionEvent(name)!;
    return [name, row.kind === "request" ? { kind: row.kind, deadlineMs: DEADLINE_MS[row.deadline], safeDefault: row.safeDefault } : { kind: row.kind }];
  }),
) as Record<EventName, EventInfo>;

/** Events of upstream's API nothing in pig raises (an extension may subscribe; it never hears them). */
export const NEVER_SENT: ReadonlySet<EventName> = new Set(EXTENSION_EVENT_NAMES.filter((name) => "neverSent" in EXTENSION_EVENTS[name]));

/** Unknown names are notifications: an event this version does not know cannot be waited on. */
export function eventKind(name: string): EventKind {
  return extensionEvent(name)?.kind ?? "notification";
}

export function eventDeadlineMs(name: string): number {
  const row = extensionEvent(name);
  return row?.kind === "request" ? DEADLINE_MS[row.deadline] : DEADLINE_MS.quick;
}
