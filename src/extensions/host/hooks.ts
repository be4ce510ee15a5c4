/**
 * pig's agent hooks, answered by the extensions: each hook walks the subscribers in load order,
 * feeds each one the previous one's output, and combines the answers by the event's rule in
 * the event table (upstream Pi's). Answers are checked with valibot (event-results.ts); one that
 * does not fit is reported and skipped. Notifications are told and not waited for.
 */
import * as v from "valibot";
import type { AgentHooks, BeforeAgentStartHookResult, BoundaryDraft, BoundaryHookResult, BoundaryPreview, HookImage } from "../../agent/hooks.ts";
import type { AgentMessage } from "../../session/message-format.ts";
import type { ToolContent } from "../../tools/types.ts";
import { combinatorOf, extensionEvent, HOOKED_EVENTS, type HookedRequestEventName, type NotificationHookName } from "../../util/extension-events.ts";
import { describeIssues } from "../connection.ts";
import type { OpenBoundaries } from "./boundaries.ts";
import type { EventDispatcher } from "./dispatch.ts";
import { RESULT_SCHEMAS, type ResultOf } from "./event-results.ts";

type Json = Record<string, unknown>;

/** The reason a tool call gets when the run is aborted while its guards are asked. */
export const ABORTED_CALL = "Tool call aborted";

export function createHooks(d: EventDispatcher, boundaries: OpenBoundaries): AgentHooks {
  /** Each subscriber's checked, non-null answer, in order; `stop` ends the walk early. */
  async function* answers<E extends HookedRequestEventName>(event: E, payload: () => unknown, signal?: AbortSignal): AsyncGenerator<{ id: string; value: ResultOf<E> }> {
    const schema = RESULT_SCHEMAS[event] as v.GenericSchema<unknown, ResultOf<E>>;
    for (const id of d.targets(event)) {
      if (signal?.aborted) return;
      const a = await d.ask(id, event, payload(), signal);
      if (!a.ok || a.value === null || a.value === undefined) continue;
      const parsed = v.safeParse(schema, a.value);
      if (!parsed.success) {
        d.report({ extensionPath: id, event, error: `invalid ${event} result: ${describeIssues(parsed.issues)}` });
        continue;
      }
      yield { id, value: parsed.output };
    }
  }

  /**
   * The answers to `event` combined by its rule in the event table, for the rules that need
   * nothing but the answers: the payload as the last extension left it (`changed` when one
   * did), and the answer that decided, when the rule has one decide.
   */
  async function combined<E extends HookedRequestEventName>(event: E, payload: Json, signal?: AbortSignal): Promise<{ payload: Json; changed: boolean; decided?: Json }> {
    const rule = combinatorOf(event);
    const current: Json = { ...payload };
    let changed = false;
    let last: Json | undefined;
    for await (const { value } of answers(event, () => ({ ...current }), signal)) {
      const answer = value as Json;
      switch (rule.rule) {
        case "replace-field":
          if (answer[rule.field]) [current[rule.field], changed] = [answer[rule.field], true];
          break;
        case "replace-payload":
          [current[rule.field], changed] = [answer, true];
          break;
        case "patch-fields":
          for (const key of rule.fields) if (key in answer && answer[key] !== undefined) current[key] = answer[key];
          changed = true;
          break;
        case "cancel-or-last":
          if (answer.cancel) return { payload: current, changed, decided: answer };
          last = answer;
          break;
        case "first-that-decides": {
          const field = answer[rule.field];
          if (field !== undefined && field !== null && (!rule.values || rule.values.includes(field as string))) return { payload: current, changed, decided: answer };
          break;
        }
        default:
          throw new Error(`${event} combines by ${rule.rule}, which its hook applies itself`);
      }
    }
    return { payload: current, changed, ...(last ? { decided: last } : {}) };
  }

  /**
   * A boundary, as upstream chains it: each extension sees the drafts and `continue` the ones
   * before it left, and may replace them; the context preview is fetched on demand
   * (`session.boundaryContext`). Drafts that cannot be applied are reported; when the final
   * list is such, nothing is appended and the run does not continue.
   */
  async function boundary(event: "turn_end" | "agent_before_settle", base: object, preview: BoundaryPreview, signal?: AbortSignal): Promise<BoundaryHookResult | undefined> {
    if (d.targets(event).length === 0) return undefined;
    return boundaries.during(preview, async (id) => {
      let entries: BoundaryDraft[] = [];
      let more = false;
      let valid = true;
      for await (const { id: ext, value } of answers(event, () => ({ ...base, entries, continue: more, boundary: id }), signal)) {
        if (value.entries !== undefined) {
          entries = value.entries as BoundaryDraft[];
          try {
            preview(entries);
            valid = true;
          } catch (error) {
            valid = false;
            d.report({ extensionPath: ext, event, error: `Invalid boundary entries: ${(error as Error).message}` });
          }
        }
        if (value.continue !== undefined) more = value.continue;
      }
      return valid ? { entries, continue: more } : { entries: [], continue: false };
    });
  }

  // A notification's hook tells the subscribers and waits for nobody.
  const notifications = Object.fromEntries(
    HOOKED_EVENTS.filter(({ event }) => extensionEvent(event)?.kind === "notification").map(({ event, hook }) => [hook.name, async (payload: unknown) => d.notify(event, payload)]),
  ) as unknown as Pick<AgentHooks, NotificationHookName>;

  const requests: Omit<AgentHooks, NotificationHookName> = {
    listens(event) {
      return (event === "tool_call" ? d.guards(event) : d.targets(event)).length > 0;
    },

    turnEnd(event, preview, signal) {
      return boundary("turn_end", event, preview, signal);
    },

    beforeSettle(event, preview, signal) {
      return boundary("agent_before_settle", event, preview, signal);
    },

    async input(event, signal) {
      let text = event.text;
      let images: HookImage[] | undefined = event.images;
      let changed = false;
      for await (const { value } of answers("input", () => ({ ...event, text, images }), signal)) {
        if (value.action === "handled") return { action: "handled" };
        if (value.action === "transform") {
          text = value.text;
          images = value.images ?? images;
          changed = true;
        }
      }
      return changed ? { action: "transform", text, ...(images ? { images } : {}) } : { action: "continue" };
    },

    async beforeAgentStart(event, signal) {
      let systemPrompt = event.systemPrompt;
      const messages: NonNullable<BeforeAgentStartHookResult["messages"]> = [];
      let promptChanged = false;
      for await (const { value } of answers("before_agent_start", () => ({ ...event, systemPrompt }), signal)) {
        // Several handlers of one extension answer as `messages` (all of them; `message` is its first).
        for (const m of value.messages ?? (value.message ? [value.message] : [])) {
          messages.push({ role: "custom", ...m } as (typeof messages)[number]);
        }
        if (value.systemPrompt) {
          systemPrompt = value.systemPrompt;
          promptChanged = true;
        }
      }
      if (messages.length === 0 && !promptChanged) return undefined;
      return { ...(messages.length ? { messages } : {}), ...(promptChanged ? { systemPrompt } : {}) };
    },

    async context(messages, signal) {
      const r = await combined("context", { messages }, signal);
      return r.changed ? (r.payload.messages as AgentMessage[]) : undefined;
    },

    async contextWithSystem(messages, signal) {
      const r = await combined("context_with_system", { messages }, signal);
      return r.changed ? (r.payload.messages as AgentMessage[]) : undefined;
    },

    async beforeProviderRequest(payload, signal) {
      const r = await combined("before_provider_request", { payload }, signal);
      return r.changed ? r.payload.payload : undefined;
    },

    async beforeProviderHeaders(headers, signal) {
      // Each extension sees the headers as the ones before it left them; the changes add up.
      const current: Record<string, string> = { ...headers };
      const changes: Record<string, string | null> = {};
      let changed = false;
      for await (const { value } of answers("before_provider_headers", () => ({ headers: { ...current } }), signal)) {
        for (const [name, header] of Object.entries(value.headers ?? {})) {
          const lower = name.toLowerCase();
          for (const key of Object.keys(current)) if (key.toLowerCase() === lower) delete current[key];
          for (const key of Object.keys(changes)) if (key.toLowerCase() === lower) delete changes[key];
          if (header !== null) current[name] = header;
          changes[name] = header;
          changed = true;
        }
      }
      return changed ? changes : undefined;
    },

    async toolCall(event, signal) {
      // A guard that is down is asked all the same: it is waited for while it restarts, and blocks once it is gone.
      for (const id of d.guards("tool_call")) {
        if (signal?.aborted) return { block: true, reason: ABORTED_CALL };
        const a = await d.ask(id, "tool_call", event, signal);
        if (signal?.aborted) return { block: true, reason: ABORTED_CALL };
        // Fail closed: a guard that cannot answer must not wave the call through.
        if (!a.ok) return { block: true, reason: a.error };
        if (a.value === null || a.value === undefined) continue;
        const parsed = v.safeParse(RESULT_SCHEMAS.tool_call, a.value);
        if (!parsed.success) {
          const reason = `Extension "${id}" returned an invalid tool_call result: ${describeIssues(parsed.issues)}`;
          d.report({ extensionPath: id, event: "tool_call", error: reason });
          return { block: true, reason };
        }
        const r = parsed.output;
        if (r.input) replaceContents(event.input, r.input);
        if (r.block) return { block: true, reason: r.reason ?? "Tool execution was blocked" };
      }
      return undefined;
    },

    async toolResult(event, signal) {
      const r = await combined("tool_result", { ...event }, signal);
      if (!r.changed) return undefined;
      return { content: r.payload.content as ToolContent[], details: r.payload.details, isError: r.payload.isError as boolean };
    },

    async messageEnd(message, signal) {
      let current: AgentMessage | undefined;
      for (const id of d.targets("message_end")) {
        if (signal?.aborted) break;
        const a = await d.ask(id, "message_end", { message: current ?? message }, signal);
        if (!a.ok || a.value === null || a.value === undefined) continue;
        const parsed = v.safeParse(RESULT_SCHEMAS.message_end, a.value);
        if (!parsed.success) {
          d.report({ extensionPath: id, event: "message_end", error: `invalid message_end result: ${describeIssues(parsed.issues)}` });
          continue;
        }
        const next = parsed.output.message as AgentMessage | undefined;
        if (!next) continue;
        if (next.role !== message.role) {
          d.report({ extensionPath: id, event: "message_end", error: "message_end handlers must return a message with the same role" });
          continue;
        }
        current = next;
      }
      return current;
    },

    async sessionBeforeCompact(event) {
      const { signal, ...payload } = event;
      return cancelOrLast(await combined("session_before_compact", payload, signal)) as ResultOf<"session_before_compact"> | undefined;
    },

    async sessionBeforeTree(event) {
      const { signal, ...payload } = event;
      return cancelOrLast(await combined("session_before_tree", payload, signal)) as ResultOf<"session_before_tree"> | undefined;
    },

    async sessionBeforeSwitch(event) {
      return cancelOrLast(await combined("session_before_switch", { ...event }));
    },

    async sessionBeforeFork(event) {
      return cancelOrLast(await combined("session_before_fork", { ...event }));
    },

    async userBash(event) {
      const decided = (await combined("user_bash", { ...event })).decided as ResultOf<"user_bash"> | undefined;
      if (!decided?.result) return undefined;
      const { output, exitCode, cancelled, truncated, fullOutputPath } = decided.result;
      return { result: { output, exitCode, cancelled, truncated, ...(fullOutputPath ? { fullOutputPath } : {}) } };
    },
  };
  return { ...notifications, ...requests };
}

/** A cancel is answered as nothing but the cancel; otherwise the last answer stands. */
function cancelOrLast(r: { decided?: Json }): Json | undefined {
  return r.decided?.cancel ? { cancel: true } : r.decided;
}

/** Upstream handlers edit the arguments object in place; the agent holds on to that object. */
function replaceContents(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(target)) if (!(key in source)) delete target[key];
  Object.assign(target, source);
}
