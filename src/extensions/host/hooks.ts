/**
 * pig's agent hooks, answered by the extensions: each hook walks the subscribers in load order,
 * feeds each one the previous one's output, and combines the answers by the event's rule in
 * the event table (upstream Pi's), through the chain the runner combines one extension's
 * handlers with (util/combine.ts). Answers are checked with valibot (event-results.ts); one that
 * does not fit is reported and skipped. Notifications are told and not waited for.
 */
import * as v from "valibot";
import type { AgentHooks, BeforeAgentStartHookResult, BoundaryDraft, BoundaryHookResult, BoundaryPreview, InputHookResult } from "../../agent/hooks.ts";
import type { SystemPromptOptions } from "../../resources/system-prompt-options.ts";
import type { AgentMessage } from "../../session/message-format.ts";
import type { ToolContent } from "../../tools/types.ts";
import { type Chain, startChain } from "../../util/combine.ts";
import { combinatorOf, extensionEvent, HOOKED_EVENTS, type HookedRequestEventName, type NotificationHookName } from "../../util/extension-events.ts";
import { describeIssues } from "../issue-text.ts";
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
   * The answers to `event` stepped through its chain (util/combine.ts, the event table's rule),
   * each extension shown the payload as the ones before it left it; `accept` may refuse an
   * answer that passed its schema (and reports why).
   */
  async function chained<E extends HookedRequestEventName>(event: E, payload: Json, signal?: AbortSignal, accept?: (answer: ResultOf<E>, id: string) => boolean): Promise<Chain> {
    const chain = startChain(combinatorOf(event), payload);
    for await (const { id, value } of answers(event, () => ({ ...chain.payload }), signal)) {
      if (accept && !accept(value, id)) continue;
      if (chain.step(value)) break;
    }
    return chain;
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
      const chain = startChain(combinatorOf(event), { ...base, entries: [], continue: false, boundary: id });
      let valid = true;
      for await (const { id: ext, value } of answers(event, () => ({ ...chain.payload }), signal)) {
        chain.step(value);
        if (value.entries === undefined) continue;
        try {
          preview(chain.payload.entries as BoundaryDraft[]);
          valid = true;
        } catch (error) {
          valid = false;
          d.report({ extensionPath: ext, event, error: `Invalid boundary entries: ${(error as Error).message}` });
        }
      }
      return valid ? { entries: chain.payload.entries as BoundaryDraft[], continue: chain.payload.continue === true } : { entries: [], continue: false };
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
      const r = (await chained("input", { ...event }, signal)).result() as InputHookResult | null;
      return r ?? { action: "continue" };
    },

    async beforeAgentStart(event, signal) {
      const r = (await chained("before_agent_start", { ...event }, signal)).result() as ResultOf<"before_agent_start"> | null;
      if (!r) return undefined;
      const messages = (r.messages ?? (r.message ? [r.message] : [])).map((m) => ({ role: "custom", ...m }) as NonNullable<BeforeAgentStartHookResult["messages"]>[number]);
      return {
        ...(messages.length ? { messages } : {}),
        ...(r.systemPrompt !== undefined ? { systemPrompt: r.systemPrompt } : {}),
        ...(r.systemPromptOptions ? { systemPromptOptions: r.systemPromptOptions as SystemPromptOptions } : {}),
      };
    },

    async context(messages, signal) {
      const r = (await chained("context", { messages }, signal)).result() as { messages: AgentMessage[] } | null;
      return r?.messages;
    },

    async contextWithSystem(messages, signal) {
      const r = (await chained("context_with_system", { messages }, signal)).result() as { messages: AgentMessage[] } | null;
      return r?.messages;
    },

    async beforeProviderRequest(payload, signal) {
      return (await chained("before_provider_request", { payload }, signal)).result() ?? undefined;
    },

    async beforeProviderHeaders(headers, signal) {
      const r = (await chained("before_provider_headers", { headers: { ...headers } }, signal)).result() as { headers: Record<string, string | null> } | null;
      return r?.headers;
    },

    async toolCall(event, signal) {
      // The agent's own event: an extension's edited `input` replaces the contents of the object it holds.
      const chain = startChain(combinatorOf("tool_call"), event as unknown as Json);
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
        if (chain.step(parsed.output)) return { block: true, reason: (chain.result() as ResultOf<"tool_call">).reason ?? "Tool execution was blocked" };
      }
      return undefined;
    },

    async toolResult(event, signal) {
      const chain = await chained("tool_result", { ...event }, signal);
      // Only the fields a handler changed: new content without new structured content drops the old one.
      const patch = chain.result() as Json | null;
      if (patch === null) return undefined;
      return {
        ...(patch.content !== undefined ? { content: patch.content as ToolContent[] } : {}),
        ...(patch.details !== undefined ? { details: patch.details } : {}),
        ...(patch.structuredContent !== undefined ? { structuredContent: patch.structuredContent } : {}),
        ...(patch.isError !== undefined ? { isError: patch.isError as boolean } : {}),
      };
    },

    async messageEnd(message, signal) {
      const sameRole = (answer: ResultOf<"message_end">, id: string): boolean => {
        if (!answer.message || answer.message.role === message.role) return true;
        d.report({ extensionPath: id, event: "message_end", error: "message_end handlers must return a message with the same role" });
        return false;
      };
      const r = (await chained("message_end", { message }, signal, sameRole)).result() as { message: AgentMessage } | null;
      return r?.message;
    },

    async sessionBeforeCompact(event) {
      const { signal, ...payload } = event;
      return cancelOrLast(await chained("session_before_compact", payload, signal)) as ResultOf<"session_before_compact"> | undefined;
    },

    async sessionBeforeTree(event) {
      const { signal, ...payload } = event;
      return cancelOrLast(await chained("session_before_tree", payload, signal)) as ResultOf<"session_before_tree"> | undefined;
    },

    async sessionBeforeSwitch(event) {
      return cancelOrLast(await chained("session_before_switch", { ...event }));
    },

    async sessionBeforeFork(event) {
      return cancelOrLast(await chained("session_before_fork", { ...event }));
    },

    async userBash(event) {
      const decided = (await chained("user_bash", { ...event })).result() as ResultOf<"user_bash"> | null;
      if (!decided?.result) return undefined;
      const { output, exitCode, cancelled, truncated, fullOutputPath } = decided.result;
      return { result: { output, exitCode, cancelled, truncated, ...(fullOutputPath ? { fullOutputPath } : {}) } };
    },
  };
  return { ...notifications, ...requests };
}

/** A cancel is answered as nothing but the cancel; otherwise the last answer stands. */
function cancelOrLast(chain: Chain): Json | undefined {
  const last = chain.result() as Json | null;
  return last?.cancel ? { cancel: true } : (last ?? undefined);
}
