/**
 * A model call pig makes for the extension (`model.stream`) as an upstream-style event stream:
 * pig's provider events as they arrive, then `done` or `error` with the final message. What goes
 * to pig is the model's provider and id, the context and the options that are not secrets; the
 * key is pig's and never comes here. An abort of the call's signal cancels the request, and pig
 * stops its stream.
 */
import * as v from "valibot";
import { ModelStreamResultSchema } from "../protocol-model.ts";
import { describeIssues } from "../issue-text.ts";
import { hostModels } from "../runner/host-models.ts";
import { AssistantMessageEventStream } from "./event-stream.ts";

type Json = Record<string, unknown>;
/** What pig needs to know of the model: it finds the rest in its own registry. */
type ModelName = { provider: string; id: string; api?: unknown };

const LEVELS = new Set(["off", "minimal", "low", "medium", "high", "xhigh", "max"]);

/** The options pig takes for a call it makes: the provider-neutral ones, none of them a secret. */
function wireOptions(options: Json | undefined): Json {
  const o = options ?? {};
  const headers = o.headers && typeof o.headers === "object" ? Object.fromEntries(Object.entries(o.headers as Json).filter(([, value]) => typeof value === "string")) : undefined;
  return {
    ...(typeof o.reasoning === "string" && LEVELS.has(o.reasoning) ? { reasoning: o.reasoning } : {}),
    ...(typeof o.maxTokens === "number" && Number.isInteger(o.maxTokens) && o.maxTokens > 0 ? { maxTokens: o.maxTokens } : {}),
    ...(typeof o.temperature === "number" ? { temperature: o.temperature } : {}),
    ...(typeof o.sessionId === "string" ? { sessionId: o.sessionId } : {}),
    ...(headers && Object.keys(headers).length > 0 ? { headers } : {}),
    ...(o.thinkingBudgets && typeof o.thinkingBudgets === "object" ? { thinkingBudgets: o.thinkingBudgets } : {}),
  };
}

/** The context as JSON: a tool is its name, description and parameters (its functions stay here). */
function wireContext(context: Json): Json {
  const tools = Array.isArray(context.tools)
    ? (context.tools as Json[]).map((t) => ({ name: t.name, description: t.description ?? "", ...(t.parameters ? { parameters: t.parameters } : {}) }))
    : undefined;
  return {
    ...(typeof context.systemPrompt === "string" ? { systemPrompt: context.systemPrompt } : {}),
    messages: Array.isArray(context.messages) ? context.messages : [],
    ...(tools ? { tools } : {}),
  };
}

function failed(model: ModelName, partial: Json | undefined, text: string, aborted: boolean): Json {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    timestamp: Date.now(),
    ...partial,
    stopReason: aborted ? "aborted" : "error",
    errorMessage: text,
  };
}

/** `model` answered by pig with pig's credentials; `unavailable` is the error when this process has no connection to pig. */
export function streamThroughHost(model: ModelName, context: Json, options: Json | undefined, unavailable: string): AssistantMessageEventStream {
  const out = new AssistantMessageEventStream();
  const signal = options?.signal instanceof AbortSignal ? options.signal : undefined;
  let partial: Json | undefined;
  const fail = (text: string, aborted: boolean) => {
    const error = failed(model, partial, text, aborted);
    out.push({ type: "error", reason: error.stopReason, error });
  };
  const calls = hostModels();
  if (!calls) {
    fail(unavailable, false);
    return out;
  }
  const onEvent = (raw: unknown) => {
    const event = raw as Json;
    if (!event || typeof event.type !== "string" || event.type === "done" || event.type === "error") return;
    if (event.partial && typeof event.partial === "object") partial = event.partial as Json;
    out.push(event);
  };
  calls.stream({ model: { provider: model.provider, id: model.id }, context: wireContext(context), options: wireOptions(options), ...(signal ? { signal } : {}), onEvent }).then(
    (raw) => {
      const parsed = v.safeParse(ModelStreamResultSchema, raw);
      if (!parsed.success) return fail(`pig's answer to model.stream is not an assistant message: ${describeIssues(parsed.issues)}`, false);
      const message = parsed.output.message as Json;
      const reason = message.stopReason;
      if (reason === "error" || reason === "aborted") out.push({ type: "error", reason, error: message });
      else out.push({ type: "done", reason: reason === "length" || reason === "toolUse" ? reason : "stop", message });
    },
    (error: unknown) => {
      if (signal?.aborted) fail("Request was aborted", true);
      else fail(error instanceof Error ? error.message : String(error), false);
    },
  );
  return out;
}
