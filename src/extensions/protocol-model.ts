/**
 * pig-ext/1 shapes of the model calls pig makes for an extension (`model.auth`, `model.stream`):
 * the extension names a model and sends a context and the options that are not secrets; pig
 * resolves the model in its own registry and streams with its own credentials, which never
 * cross the socket. Kept apart from protocol.ts, which re-exports them.
 */
import * as v from "valibot";

const Block = v.looseObject({ type: v.string() });
const Content = v.union([v.string(), v.array(Block)]);

/** The roles a model call takes; a system message carries the prompt and tools (Pi ≥ 0.87). */
export const ModelCallMessageSchema = v.variant("role", [
  v.looseObject({ role: v.literal("system"), content: Content }),
  v.looseObject({ role: v.literal("user"), content: Content }),
  v.looseObject({ role: v.literal("assistant"), content: v.array(Block) }),
  v.looseObject({ role: v.literal("toolResult"), toolCallId: v.string(), toolName: v.optional(v.string()), content: v.array(Block), isError: v.optional(v.boolean()) }),
]);
export type ModelCallMessage = v.InferOutput<typeof ModelCallMessageSchema>;

export const ModelCallToolSchema = v.looseObject({
  name: v.string(),
  description: v.optional(v.string()),
  parameters: v.optional(v.record(v.string(), v.unknown())),
});

export const ModelCallContextSchema = v.looseObject({
  systemPrompt: v.optional(v.string()),
  messages: v.array(ModelCallMessageSchema),
  tools: v.optional(v.array(ModelCallToolSchema)),
});
export type ModelCallContext = v.InferOutput<typeof ModelCallContextSchema>;

/** Every option here is safe to come from an extension: none is a credential or a place to send one. */
export const ModelCallOptionsSchema = v.looseObject({
  reasoning: v.optional(v.picklist(["off", "minimal", "low", "medium", "high", "xhigh", "max"])),
  maxTokens: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  temperature: v.optional(v.number()),
  sessionId: v.optional(v.string()),
  /** Extra request headers; pig leaves out any that would carry credentials. */
  headers: v.optional(v.record(v.string(), v.string())),
  thinkingBudgets: v.optional(v.record(v.string(), v.number())),
});
export type ModelCallOptions = v.InferOutput<typeof ModelCallOptionsSchema>;

const ModelNameSchema = v.looseObject({ provider: v.string(), id: v.string() });

export const ModelStreamParamsSchema = v.looseObject({
  model: ModelNameSchema,
  context: ModelCallContextSchema,
  options: v.optional(ModelCallOptionsSchema),
});
export type ModelStreamParams = v.InferOutput<typeof ModelStreamParamsSchema>;

/** `message` is the final assistant message; a failure is one with `stopReason` `error` or `aborted`. */
export const ModelStreamResultSchema = v.looseObject({
  message: v.looseObject({ role: v.literal("assistant"), content: v.array(Block), stopReason: v.string() }),
});

/** `model.list`: every model pig knows, without `headers` (a header a models.json gives may carry a key). */
export const ModelListResultSchema = v.looseObject({ models: v.array(v.looseObject({ provider: v.string(), id: v.string() })) });
export type ModelListResult = v.InferOutput<typeof ModelListResultSchema>;

export const ModelAuthParamsSchema = v.looseObject({ provider: v.string(), id: v.optional(v.string()) });
export type ModelAuthParams = v.InferOutput<typeof ModelAuthParamsSchema>;

export const ModelAuthResultSchema = v.variant("ok", [
  v.looseObject({ ok: v.literal(true), oauth: v.boolean() }),
  v.looseObject({ ok: v.literal(false), error: v.string() }),
]);
export type ModelAuthResult = v.InferOutput<typeof ModelAuthResultSchema>;

/** A provider's credentials in `state.credentials`: only the kind, never the key. */
export const CredentialKindSchema = v.picklist(["key", "oauth"]);
