/**
 * The session's outward voice: the one event stream every mode renders (failure texts that
 * could quote a key are cleaned first), the change notices front ends redraw on, and warnings
 * that stop nothing. Listeners stay across every replacement of the session file.
 */
import { SecretRedactor } from "../util/redact.ts";
import type { PigEvent, SessionChange } from "./events.ts";
import { redactEvent } from "./redact-events.ts";

export type Listener = (event: PigEvent) => void;

/** How many events before the first front end listens are kept for it (startup makes a handful). */
const MAX_EARLY_EVENTS = 1000;

/** An extension's failure in a hook, a command or a handler of its own. */
export interface ExtensionFailure {
  extensionPath: string;
  event: string;
  error: string;
  stack?: string;
}

export class SessionEvents {
  /** Knows the keys in use, so no event, answer or failure text carries one. */
  readonly redactor = new SecretRedactor();
  private readonly listeners = new Set<Listener>();
  /** pig's own listeners (the extension host's forwarding): they do not end the startup's keeping. */
  private readonly observers = new Set<Listener>();
  /**
   * What was told between `keepForFirstListener()` and the first front end's subscribing (a
   * mode, an SDK caller): what extensions did in `session_start` at startup (an entry appended, a
   * message sent). That front end is told it, in order, as upstream's modes are; later ones are not.
   */
  private early: PigEvent[] | undefined;
  private subscribed = false;
  private readonly changeListeners = new Set<(change: SessionChange) => void>();
  private readonly warningListeners = new Set<(text: string) => void>();

  /** A front end's listener; the first one is told first what happened before any listened. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    this.subscribed = true;
    const early = this.early;
    this.early = undefined;
    for (const event of early ?? []) listener(event);
    return () => this.listeners.delete(listener);
  }

  /**
   * From now until a front end subscribes, events are kept for it (the extensions' startup; what
   * pig itself did before, such as naming the session for `--name`, is not told, as upstream).
   */
  keepForFirstListener(): void {
    if (!this.subscribed) this.early ??= [];
  }

  /** One of pig's own listeners: told every event from now on, like a front end's. */
  observe(listener: Listener): () => void {
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  /** Sends an event to every listener; a failure text quoting a key is shown without it. */
  emit(event: PigEvent): void {
    redactEvent(event, this.redactor);
    for (const observer of this.observers) observer(event);
    // Bounded: an SDK caller that never listens does not make pig keep a whole run.
    if (this.early && this.early.length < MAX_EARLY_EVENTS) this.early.push(event);
    for (const listener of this.listeners) listener(event);
  }

  /**
   * Told whenever what a front end shows of the session may have changed (another file, a move
   * in the tree, a compaction, the model, the level, the name, the tools). Not an event of the
   * stream: RPC and JSON clients speak upstream's protocol, which has no such line.
   */
  onSessionChange(listener: (change: SessionChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  changed(reason: SessionChange["reason"]): void {
    const change: SessionChange = { type: "session_changed", reason };
    for (const listener of this.changeListeners) listener(change);
  }

  /** Told of problems that stop nothing but that the user must know of (a session that cannot be saved). */
  onWarning(listener: (text: string) => void): () => void {
    this.warningListeners.add(listener);
    return () => this.warningListeners.delete(listener);
  }

  warn(text: string): void {
    for (const listener of this.warningListeners) listener(text);
  }

  /** An extension failed: told to every listener as an `extension_error` event. */
  reportExtensionError(error: ExtensionFailure): void {
    this.emit({ type: "extension_error", ...error });
  }
}
