/**
 * pig's agent hooks, answered by the extensions: each hook walks the subscribers in load order,
 * feeds each one the previous one's output, and applies upstream Pi's rule for combining
 * answers. Answers are checked with valibot; one that does not fit is reported and skipped.
 */
import * as v from "valibot";
import type { AgentHooks, BeforeAgentStartHookResult, BoundaryDraft, BoundaryHookResult, BoundaryPreview, HookImage } from "../../agent/hooks.ts";
import { type AgentMessage, AgentMessageSchema } from "../../session/message-format.ts";
import type { ToolContent } from "../../tools/types.ts";
import { describeIssues } from "../connection.ts";
import { BeforeAgentStartResultSchema as BeforeAgentStartResult, BoundaryResultSchema, ContentSchema } from "../protocol.ts";
import type { OpenBoundaries } from "./boundaries.ts";
import type { EventDispatcher } from "./dispatch.ts";

const Images = v.optional(v.array(v.looseObject({ type: v.literal("image"), data: v.string(), mimeType: v.string() })));
const InputResult = v.variant("action", [
  v.looseObject({ action: v.literal("continue") }),
  v.looseObject({ action: v.literal("transform"), text: v.string(), images: Images }),
  v.looseObject({ action: v.literal("handled") }),
]);
const MessagesResult = v.looseObject({ messages: v.optional(v.array(AgentMessageSchema)) });
const MessageResult = v.looseObject({ message: v.optional(AgentMessageSchema) });
const ToolCallResult = v.looseObject({
  block: v.optional(v.boolean()),
  reason: v.optional(v.string()),
  input: v.optional(v.record(v.string(), v.unknown())),
});
const ToolResultResult = v.looseObject({
  content: v.optional(v.array(ContentSchema)),
  details: v.optional(v.unknown()),
  isError: v.optional(v.boolean()),
});
const CancelResult = v.looseObject({ cancel: v.optional(v.boolean()) });
const CompactResult = v.looseObject({
  cancel: v.optional(v.boolean()),
  compaction: v.optional(
    v.looseObject({ summary: v.string(), firstKeptEntryId: v.nullable(v.string()), tokensBefore: v.number(), details: v.optional(v.unknown()) }),
  ),
});
const TreeResult = v.looseObject({
  cancel: v.optional(v.boolean()),
  summary: v.optional(v.looseObject({ summary: v.string(), details: v.optional(v.unknown()) })),
  customInstructions: v.optional(v.string()),
  replaceInstructions: v.optional(v.boolean()),
  label: v.optional(v.string()),
});
const UserBashResult = v.looseObject({
  result: v.optional(
    v.looseObject({
      output: v.string(),
      exitCode: v.optional(v.number()),
      cancelled: v.boolean(),
      truncated: v.boolean(),
      fullOutputPath: v.optional(v.string()),
    }),
  ),
});

/** The reason a tool call gets when the run is aborted while its guards are asked. */
export const ABORTED_CALL = "Tool call aborted";

const HeadersResult = v.object({ headers: v.optional(v.record(v.string(), v.nullable(v.string()))) });

export function createHooks(d: EventDispatcher, boundaries: OpenBoundaries): AgentHooks {
  /** Each subscriber's checked, non-null answer, in order; `stop` ends the walk early. */
  async function* answers<T>(event: string, schema: v.GenericSchema<unknown, T>, payload: () => unknown, signal?: AbortSignal) {
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
      for await (const { id: ext, value } of answers(event, BoundaryResultSchema, () => ({ ...base, entries, continue: more, boundary: id }), signal)) {
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

  return {
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
      for await (const { value } of answers("input", InputResult, () => ({ ...event, text, images }), signal)) {
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
      for await (const { value } of answers("before_agent_start", BeforeAgentStartResult, () => ({ ...event, systemPrompt }), signal)) {
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
      let current: AgentMessage[] | undefined;
      for await (const { value } of answers("context", MessagesResult, () => ({ messages: current ?? messages }), signal)) {
        if (value.messages) current = value.messages as AgentMessage[];
      }
      return current;
    },

    async contextWithSystem(messages, signal) {
      let current: AgentMessage[] | undefined;
      for await (const { value } of answers("context_with_system", MessagesResult, () => ({ messages: current ?? messages }), signal)) {
        if (value.messages) current = value.messages as AgentMessage[];
      }
      return current;
    },

    async beforeProviderRequest(payload, signal) {
      let current: unknown;
      for await (const { value } of answers("before_provider_request", v.unknown(), () => ({ payload: current ?? payload }), signal)) {
        current = value;
      }
      return current;
    },

    async beforeProviderHeaders(headers, signal) {
      // Each extension sees the headers as the ones before it left them; the changes add up.
      const current: Record<string, string> = { ...headers };
      const changes: Record<string, string | null> = {};
      let changed = false;
      for await (const { value } of answers("before_provider_headers", HeadersResult, () => ({ headers: { ...current } }), signal)) {
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

    async afterProviderResponse(event) {
      d.notify("after_provider_response", event);
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
        const parsed = v.safeParse(ToolCallResult, a.value);
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
      let content = event.content;
      let details = event.details;
      let isError = event.isError;
      let changed = false;
      for await (const { value } of answers("tool_result", ToolResultResult, () => ({ ...event, content, details, isError }), signal)) {
        if (value.content) content = value.content as ToolContent[];
        if ("details" in value) details = value.details;
        if (value.isError !== undefined) isError = value.isError;
        changed = true;
      }
      return changed ? { content, details, isError } : undefined;
    },

    async messageEnd(message, signal) {
      let current: AgentMessage | undefined;
      for (const id of d.targets("message_end")) {
        if (signal?.aborted) break;
        const a = await d.ask(id, "message_end", { message: current ?? message }, signal);
        if (!a.ok || a.value === null || a.value === undefined) continue;
        const parsed = v.safeParse(MessageResult, a.value);
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
      let result: v.InferOutput<typeof CompactResult> | undefined;
      for await (const { value } of answers("session_before_compact", CompactResult, () => payload, signal)) {
        if (value.cancel) return { cancel: true };
        result = value;
      }
      return result;
    },

    async sessionBeforeTree(event) {
      const { signal, ...payload } = event;
      let result: v.InferOutput<typeof TreeResult> | undefined;
      for await (const { value } of answers("session_before_tree", TreeResult, () => payload, signal)) {
        if (value.cancel) return { cancel: true };
        result = value;
      }
      return result;
    },

    async sessionBeforeSwitch(event) {
      return cancelChain(answers("session_before_switch", CancelResult, () => event));
    },

    async sessionBeforeFork(event) {
      return cancelChain(answers("session_before_fork", CancelResult, () => event));
    },

    async userBash(event) {
      for await (const { value } of answers("user_bash", UserBashResult, () => event)) {
        if (value.result) {
          const { output, exitCode, cancelled, truncated, fullOutputPath } = value.result;
          return { result: { output, exitCode, cancelled, truncated, ...(fullOutputPath ? { fullOutputPath } : {}) } };
        }
      }
      return undefined;
    },
  };
}

async function cancelChain(results: AsyncGenerator<{ value: { cancel?: boolean } }>): Promise<{ cancel?: boolean } | undefined> {
  let last: { cancel?: boolean } | undefined;
  for await (const { value } of results) {
    if (value.cancel) return { cancel: true };
    last = value;
  }
  return last;
}

/** Upstream handlers edit the arguments object in place; the agent holds on to that object. */
function replaceContents(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(target)) if (!(key in source)) delete target[key];
  Object.assign(target, source);
}
