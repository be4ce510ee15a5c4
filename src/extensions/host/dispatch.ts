/**
 * Sending events to the extensions that subscribed to them. Observe-only events go out as
 * notifications and nobody waits; an interceptable event is a request to one extension at a
 * time, bounded by a deadline, and any failure — error, lateness, a dead process — is reported
 * and turned into "no answer", so the caller can fall back to the event's safe default.
 */
import { RpcError } from "../connection.ts";
import { ErrorCode, eventDeadlineMs } from "../protocol.ts";
import type { RegistrationStore } from "./registry.ts";

/** Upstream's `extension_error` shape. */
export interface ExtensionErrorReport {
  extensionPath: string;
  event: string;
  error: string;
  stack?: string;
}

export interface EventRoute {
  /** Whether the extension's process is running (events never start a process). */
  isUp(extension: string): boolean;
  request(extension: string, method: string, params: unknown, options: { signal?: AbortSignal }): Promise<unknown>;
  notify(extension: string, method: string, params: unknown): void;
}

export type Answer = { ok: true; value: unknown } | { ok: false; error: string };

export interface DispatcherOptions {
  registry: RegistrationStore;
  route: EventRoute;
  onError(report: ExtensionErrorReport): void;
  /** Fixed deadline for every event (tests); else the protocol's per-event value. */
  deadlineMs?: number;
}

export class EventDispatcher {
  constructor(private readonly options: DispatcherOptions) {}

  /** Running subscribers of `event`, in load order. */
  targets(event: string): string[] {
    return this.options.registry.subscribers(event).filter((id) => this.options.route.isUp(id));
  }

  /**
   * Every subscriber of a fail-closed event (`tool_call`), up or not, in load order: one that is
   * starting or restarting is waited for (a request waits for its restart), one that is disabled
   * or shut down answers with an error naming it — never is it silently left out.
   */
  guards(event: string): readonly string[] {
    return this.options.registry.subscribers(event);
  }

  notify(event: string, payload: unknown): void {
    for (const id of this.targets(event)) this.options.route.notify(id, "event", { extension: id, event, payload });
  }

  /**
   * One extension's answer. `signal` (the run's abort) ends the wait at once: the request is
   * cancelled (`$/cancel` when it was sent) and the answer is `{ok:false, error:"aborted"}`,
   * which each hook turns into its safe default — a blocked call for `tool_call`.
   */
  async ask(extension: string, event: string, payload: unknown, signal?: AbortSignal, deadlineMs?: number): Promise<Answer> {
    if (signal?.aborted) return { ok: false, error: "aborted" };
    const deadline = deadlineMs ?? this.options.deadlineMs ?? eventDeadlineMs(event);
    const controller = new AbortController();
    let late = false;
    // Settles the wait even where the request does not listen yet (a process waiting to restart).
    let stop!: (err: Error) => void;
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    const timer = setTimeout(() => {
      late = true;
      controller.abort();
      stop(new Error("late"));
    }, deadline);
    const forward = () => {
      controller.abort();
      stop(new Error("aborted"));
    };
    signal?.addEventListener("abort", forward, { once: true });
    try {
      const request = this.options.route.request(extension, "event", { extension, event, payload }, { signal: controller.signal });
      void Promise.resolve(request).catch(() => {});
      const value = await Promise.race([request, stopped]);
      return { ok: true, value };
    } catch (err) {
      if (signal?.aborted && !late) return { ok: false, error: "aborted" };
      const message = late
        ? `Extension "${extension}" did not answer ${event} within ${deadline} ms`
        : err instanceof RpcError && err.code === ErrorCode.HandlerError
          ? err.message
          : (err as Error).message;
      const stack = err instanceof RpcError ? stackOf(err.data) : undefined;
      this.report({ extensionPath: extension, event, error: message, ...(stack ? { stack } : {}) });
      return { ok: false, error: message };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", forward);
    }
  }

  /** Every running subscriber's answer in load order (for events whose results are collected). */
  async askAll(event: string, payload: unknown, options: { signal?: AbortSignal; deadlineMs?: number } = {}): Promise<Array<{ extension: string; value: unknown }>> {
    const out: Array<{ extension: string; value: unknown }> = [];
    for (const id of this.targets(event)) {
      if (options.signal?.aborted) break;
      const a = await this.ask(id, event, payload, options.signal, options.deadlineMs);
      if (a.ok && a.value !== null && a.value !== undefined) out.push({ extension: id, value: a.value });
    }
    return out;
  }

  report(report: ExtensionErrorReport): void {
    try {
      this.options.onError(report);
    } catch {
      // A broken reporter must not take the event path down with it.
    }
  }
}

function stackOf(data: unknown): string | undefined {
  if (typeof data === "object" && data !== null && "stack" in data && typeof data.stack === "string") return data.stack;
  return undefined;
}
