/**
 * One extension's handlers for one event, run in registration order and combined by the event's
 * rule in the event table (util/extension-events.ts), which is upstream Pi's. The host combines across extensions; this is the same chain
 * within one. A handler that throws is reported (on stderr and, through `onError`, to the host,
 * which makes it the session's `extension_error`) and skipped, except for `tool_call`, where a
 * throw blocks (the error goes back to the host as the answer, which blocks with its message).
 */
import { combinatorOf } from "../../util/extension-events.ts";
import type { ExtensionContext, ExtensionHandler } from "../api/types.ts";

type Json = Record<string, unknown>;

/** Told of each handler that threw (the chain goes on without it). */
export type HandlerErrorSink = (event: string, error: unknown) => void;

function report(extension: string, event: string, error: unknown, onError?: HandlerErrorSink): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`[${extension}] ${event} handler failed: ${text}\n`);
  try {
    onError?.(event, error);
  } catch {
    // Reporting must not break the chain.
  }
}

/** What some events need from the host while their handlers run. */
export interface EventServices {
  /** The context of an open session boundary with `entries` appended (a synchronous host call). */
  boundaryContext(boundary: string, entries: unknown[]): unknown;
}

export async function runEventHandlers(
  name: string,
  eventName: string,
  payload: Json,
  handlers: readonly ExtensionHandler[],
  ctx: ExtensionContext,
  onError?: HandlerErrorSink,
  services?: EventServices,
): Promise<unknown> {
  const each = async (event: string, list: readonly ExtensionHandler[], run: (h: ExtensionHandler) => Promise<boolean | void>): Promise<void> => {
    for (const handler of list) {
      try {
        if ((await run(handler)) === true) return;
      } catch (error) {
        report(name, event, error, onError);
      }
    }
  };
  const event: Json = { type: eventName, ...payload };
  const call = (h: ExtensionHandler): Promise<unknown> => Promise.resolve(h(event, ctx));
  const combine = combinatorOf(eventName);
  switch (combine.rule) {
    case "block-or-edit": {
      const before = JSON.stringify(event.input);
      for (const handler of handlers) {
        const r = (await call(handler)) as Json | undefined;
        if (r?.block) return r;
      }
      // Upstream lets handlers edit `input` in place; across the socket the edit travels back.
      const after = JSON.stringify(event.input);
      return after !== before ? { input: event.input } : null;
    }
    case "patch-fields": {
      const patch: Json = {};
      await each(eventName, handlers, async (h) => {
        const r = (await call(h)) as Json | undefined;
        if (!r) return;
        for (const key of combine.fields) {
          if (r[key] !== undefined) event[key] = patch[key] = r[key];
        }
      });
      return Object.keys(patch).length > 0 ? patch : null;
    }
    case "replace-field": {
      let changed = false;
      await each(eventName, handlers, async (h) => {
        const r = (await call(h)) as Json | undefined;
        if (r?.[combine.field]) {
          event[combine.field] = r[combine.field];
          changed = true;
        }
      });
      return changed ? { [combine.field]: event[combine.field] } : null;
    }
    case "replace-payload": {
      let changed = false;
      await each(eventName, handlers, async (h) => {
        const r = await call(h);
        if (r !== undefined) {
          event[combine.field] = r;
          changed = true;
        }
      });
      return changed ? event[combine.field] : null;
    }
    case "merge-objects": {
      // Upstream's handlers edit the object in place (a returned one is taken as well);
      // across the socket the edits travel back, a removed key as `null`.
      const field = combine.field;
      const current = (event[field] && typeof event[field] === "object" ? event[field] : (event[field] = {})) as Record<string, unknown>;
      const before: Record<string, unknown> = { ...current };
      await each(eventName, handlers, async (h) => {
        const r = (await call(h)) as Json | undefined;
        if (r?.[field] && typeof r[field] === "object") Object.assign(current, r[field]);
      });
      const changes: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(current)) if (before[name] !== value) changes[name] = typeof value === "string" || value === null ? value : String(value);
      for (const name of Object.keys(before)) if (!Object.hasOwn(current, name)) changes[name] = null;
      return Object.keys(changes).length > 0 ? { [field]: changes } : null;
    }
    case "handled-or-transform": {
      let transformed: Json | null = null;
      let handled = false;
      await each(eventName, handlers, async (h) => {
        const r = (await call(h)) as Json | undefined;
        if (r?.action === "handled") return (handled = true);
        if (r?.action === "transform") {
          event.text = r.text;
          if (r.images !== undefined) event.images = r.images;
          transformed = { action: "transform", text: event.text, ...(event.images !== undefined ? { images: event.images } : {}) };
        }
      });
      return handled ? { action: "handled" } : (transformed ?? null);
    }
    case "collect-messages-pass-prompt": {
      const messages: unknown[] = [];
      let systemPrompt: unknown;
      await each(eventName, handlers, async (h) => {
        const r = (await call(h)) as Json | undefined;
        if (!r) return;
        if (r.message) messages.push(r.message);
        if (typeof r.systemPrompt === "string" && r.systemPrompt) event.systemPrompt = systemPrompt = r.systemPrompt;
      });
      if (messages.length === 0 && systemPrompt === undefined) return null;
      return { ...(messages[0] ? { message: messages[0] } : {}), ...(messages.length > 1 ? { messages } : {}), ...(systemPrompt !== undefined ? { systemPrompt } : {}) };
    }
    case "collect": {
      const out: Record<string, unknown[]> = {};
      await each(eventName, handlers, async (h) => {
        const r = (await call(h)) as Json | undefined;
        for (const key of combine.fields) {
          if (Array.isArray(r?.[key])) (out[key] ??= []).push(...(r[key] as unknown[]));
        }
      });
      return Object.keys(out).length > 0 ? out : null;
    }
    case "boundary": {
      // Each handler sees the drafts and `continue` the ones before it left; `context` is the
      // preview of the context with those drafts, asked of the host when a handler reads it.
      const { boundary, ...rest } = payload;
      let entries = Array.isArray(rest.entries) ? (rest.entries as unknown[]) : [];
      let more = rest.continue === true;
      let changed = false;
      await each(eventName, handlers, async (h) => {
        let cached: { for: unknown[]; value: unknown } | undefined;
        const current: Json = { ...rest, type: eventName, entries, continue: more };
        Object.defineProperty(current, "context", {
          enumerable: true,
          configurable: true,
          get: () => {
            if (cached?.for !== entries) cached = { for: entries, value: services?.boundaryContext(String(boundary), entries) };
            return cached.value;
          },
        });
        const r = (await Promise.resolve(h(current, ctx))) as Json | undefined;
        if (Array.isArray(r?.entries)) {
          entries = r.entries as unknown[];
          changed = true;
        }
        if (typeof r?.continue === "boolean") {
          more = r.continue;
          changed = true;
        }
      });
      return changed ? { entries, continue: more } : null;
    }
    case "first-that-decides": {
      // project_trust: the first yes or no decides, undecided passes it on; user_bash: the first result.
      let decided: unknown = null;
      await each(eventName, handlers, async (h) => {
        const r = (await call(h)) as Json | undefined;
        const value = r?.[combine.field];
        if (value === undefined || value === null) return;
        if (combine.values && !combine.values.includes(value as string)) return;
        return ((decided = r), true);
      });
      return decided;
    }
    case "cancel-or-last": {
      // session_before_*: a non-null result replaces the previous one, `cancel` ends the chain.
      let last: unknown = null;
      await each(eventName, handlers, async (h) => {
        const r = await call(h);
        if (r !== undefined && r !== null) last = r;
        if ((r as Json | undefined)?.cancel === true) return true;
      });
      return last;
    }
    case "ignore": {
      await each(eventName, handlers, async (h) => void (await call(h)));
      return null;
    }
  }
}
