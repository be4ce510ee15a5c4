/**
 * Schemas of the messages a session stores (Pi's message types, as of Pi 0.87) and their content
 * blocks, and the types derived from them. Loose like every schema of the format: fields pig
 * does not know are kept.
 */
import * as v from "valibot";
import { THINKING_LEVELS, ThinkingLevelSchema, UsageSchema, type ThinkingLevel, type Usage } from "../ai/message-types.ts";

// Defined with the provider layer, which speaks them too; the session format is built on them.
export { THINKING_LEVELS, ThinkingLevelSchema, UsageSchema, type ThinkingLevel, type Usage };

// ── content blocks ──────────────────────────────────────────────────────────

export const TextContentSchema = v.looseObject({
  type: v.literal("text"),
  text: v.string(),
  textSignature: v.optional(v.string()),
});

/** Pi's own image block: base64 data plus its MIME type. */
export const PiImageContentSchema = v.looseObject({
  type: v.literal("image"),
  data: v.string(),
  mimeType: v.string(),
});

/** The spelling some other writers use: `media_type` with inline `data` or a `url`. */
export const AltImageContentSchema = v.pipe(
  v.looseObject({
    type: v.literal("image"),
    media_type: v.string(),
    data: v.optional(v.string()),
    url: v.optional(v.string()),
  }),
  v.check((block) => block.data !== undefined || block.url !== undefined, "an image needs data or url"),
);

export const ImageContentSchema = v.union([PiImageContentSchema, AltImageContentSchema]);

export const ThinkingContentSchema = v.looseObject({
  type: v.literal("thinking"),
  thinking: v.string(),
  thinkingSignature: v.optional(v.string()),
  redacted: v.optional(v.boolean()),
});

const ArgumentsSchema = v.record(v.string(), v.unknown());

export const ToolCallContentSchema = v.looseObject({
  type: v.literal("toolCall"),
  id: v.string(),
  name: v.string(),
  arguments: ArgumentsSchema,
  thoughtSignature: v.optional(v.string()),
});

/** Anthropic's spelling of a tool call, accepted on read as the equivalent of `toolCall`. */
export const ToolUseContentSchema = v.looseObject({
  type: v.literal("tool_use"),
  id: v.string(),
  name: v.string(),
  input: ArgumentsSchema,
});

const KNOWN_BLOCK_TYPES = new Set(["text", "image", "thinking", "toolCall", "tool_use"]);

/** A block of a type pig does not know: kept as written, ignored when building requests. */
export const UnknownContentSchema = v.looseObject({
  type: v.pipe(
    v.string(),
    v.check((t) => !KNOWN_BLOCK_TYPES.has(t), "known block type with invalid fields"),
  ),
});

/**
 * The schema for an object, chosen by the value of its `key`, as a union of the options would
 * choose, but without trying the others first: every failed option of a union (or of a
 * `variant`, for its discriminator) builds its issues, which made checking a long history's
 * messages several times slower. A known value with bad fields fails its own schema, as it
 * failed every option before; any other value goes to `fallback`.
 */
function chosenBy<const T extends Record<string, v.GenericSchema>, F extends v.GenericSchema>(key: string, byValue: T, fallback: F) {
  const known = new Map<string, v.GenericSchema>(Object.entries(byValue));
  return v.lazy((input: unknown) => {
    const value = typeof input === "object" && input !== null ? (input as Record<string, unknown>)[key] : undefined;
    return (typeof value === "string" ? known.get(value) : undefined) ?? fallback;
  }) as v.LazySchema<T[keyof T] | F>;
}

export const UserBlockSchema = chosenBy("type", { text: TextContentSchema, image: ImageContentSchema }, UnknownContentSchema);
const AssistantBlockSchema = chosenBy(
  "type",
  {
    text: TextContentSchema,
    thinking: ThinkingContentSchema,
    toolCall: ToolCallContentSchema,
    tool_use: ToolUseContentSchema,
    image: ImageContentSchema,
  },
  UnknownContentSchema,
);

export type TextContent = v.InferOutput<typeof TextContentSchema>;
export type ImageContent = v.InferOutput<typeof ImageContentSchema>;
export type PiImageContent = v.InferOutput<typeof PiImageContentSchema>;
export type AltImageContent = v.InferOutput<typeof AltImageContentSchema>;
export type ThinkingContent = v.InferOutput<typeof ThinkingContentSchema>;
export type ToolCallContent = v.InferOutput<typeof ToolCallContentSchema>;
export type ToolUseContent = v.InferOutput<typeof ToolUseContentSchema>;
export type UnknownContent = v.InferOutput<typeof UnknownContentSchema>;
export type UserContentBlock = v.InferOutput<typeof UserBlockSchema>;
export type AssistantContentBlock = v.InferOutput<typeof AssistantBlockSchema>;

// ── messages ────────────────────────────────────────────────────────────────

/** `deferred` (Pi ≥ 0.87): the provider holds the answer for later; pig never asks for that, but reads it. */
export const STOP_REASONS = ["pending", "stop", "length", "toolUse", "error", "aborted", "deferred"] as const;


const DiagnosticSchema = v.looseObject({
  type: v.string(),
  timestamp: v.number(),
  error: v.optional(
    v.looseObject({
      name: v.optional(v.string()),
      message: v.string(),
      stack: v.optional(v.string()),
      code: v.optional(v.unknown()),
    }),
  ),
  details: v.optional(v.unknown()),
});

/** A tool as the model is told of it: what a system message's `toolsAdded` holds. */
export const ToolDeclarationSchema = v.looseObject({
  name: v.string(),
  description: v.string(),
  parameters: v.record(v.string(), v.unknown()),
  constrainedSampling: v.optional(v.object({ type: v.string(), strict: v.optional(v.string()) })),
});
export type ToolDeclaration = v.InferOutput<typeof ToolDeclarationSchema>;

/**
 * The prompt and tool loadout, carried in the transcript (Pi ≥ 0.87). The first one declares
 * everything; later ones patch `sections` by name (null removes one), add or remove tools, add
 * instructions in `content`, or (`replace`) start again from nothing.
 */
export const SystemMessageSchema = v.looseObject({
  role: v.literal("system"),
  content: v.union([v.string(), v.array(TextContentSchema)]),
  sections: v.optional(v.record(v.string(), v.nullable(v.string()))),
  toolsAdded: v.optional(v.array(ToolDeclarationSchema)),
  toolsRemoved: v.optional(v.array(v.looseObject({ name: v.string() }))),
  replace: v.optional(v.boolean()),
  timestamp: v.number(),
});

export const UserMessageSchema = v.looseObject({
  role: v.literal("user"),
  content: v.union([v.string(), v.array(UserBlockSchema)]),
  timestamp: v.number(),
});

export const AssistantMessageSchema = v.looseObject({
  role: v.literal("assistant"),
  content: v.array(AssistantBlockSchema),
  api: v.string(),
  provider: v.string(),
  model: v.string(),
  usage: UsageSchema,
  stopReason: v.picklist(STOP_REASONS),
  errorMessage: v.optional(v.string()),
  timestamp: v.number(),
  responseId: v.optional(v.string()),
  responseModel: v.optional(v.string()),
  /** The provider's own word for why it stopped (Pi ≥ 0.87). */
  rawStopReason: v.optional(v.string()),
  diagnostics: v.optional(v.array(DiagnosticSchema)),
  providerThinkingLevel: v.optional(v.string()),
  /** The level the answer was requested at (Pi 1.x; pig writes it for a virtual model's routed requests). */
  thinkingLevel: v.optional(v.string()),
});

/** A call a tool made to another tool (`ctx.executeTool`, Pi ≥ 1.x): kept for the record, never sent to the model. */
export const NestedToolCallRecordSchema = v.looseObject({
  id: v.string(),
  name: v.string(),
  /** Left out when over the size limits; `argumentsBytes` then gives their size. */
  arguments: v.optional(v.record(v.string(), v.unknown())),
  argumentsBytes: v.optional(v.number()),
  status: v.picklist(["ok", "error", "unfinished"]),
  durationMs: v.optional(v.number()),
  error: v.optional(v.string()),
});

export const NestedToolCallsSchema = v.looseObject({
  calls: v.array(NestedToolCallRecordSchema),
  /** False when calls were dropped, arguments left out, or calls had not finished. */
  complete: v.boolean(),
});
export type NestedToolCalls = v.InferOutput<typeof NestedToolCallsSchema>;
export type NestedToolCallRecord = v.InferOutput<typeof NestedToolCallRecordSchema>;

export const ToolResultMessageSchema = v.looseObject({
  role: v.literal("toolResult"),
  toolCallId: v.string(),
  toolName: v.string(),
  content: v.array(UserBlockSchema),
  details: v.optional(v.unknown()),
  isError: v.boolean(),
  timestamp: v.number(),
  /** Milliseconds the tool's execution took (Pi ≥ 1.x); absent when it did not run. */
  durationMs: v.optional(v.number()),
  nestedCalls: v.optional(NestedToolCallsSchema),
});

export const BashExecutionMessageSchema = v.looseObject({
  role: v.literal("bashExecution"),
  command: v.string(),
  output: v.string(),
  exitCode: v.optional(v.nullable(v.number())),
  cancelled: v.boolean(),
  truncated: v.boolean(),
  fullOutputPath: v.optional(v.string()),
  timestamp: v.number(),
  excludeFromContext: v.optional(v.boolean()),
});

export const CustomMessageSchema = v.looseObject({
  role: v.literal("custom"),
  customType: v.string(),
  content: v.union([v.string(), v.array(UserBlockSchema)]),
  display: v.boolean(),
  details: v.optional(v.unknown()),
  timestamp: v.number(),
});

export const BranchSummaryMessageSchema = v.looseObject({
  role: v.literal("branchSummary"),
  summary: v.string(),
  fromId: v.string(),
  timestamp: v.number(),
});

export const CompactionSummaryMessageSchema = v.looseObject({
  role: v.literal("compactionSummary"),
  summary: v.string(),
  tokensBefore: v.number(),
  timestamp: v.number(),
});

export const KNOWN_ROLES = [
  "system",
  "user",
  "assistant",
  "toolResult",
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
] as const;
const KNOWN_ROLE_SET: ReadonlySet<string> = new Set(KNOWN_ROLES);

/** A message whose role pig does not know. It stays in the session; requests leave it out. */
export const UnknownRoleMessageSchema = v.looseObject({
  role: v.pipe(
    v.string(),
    v.check((r) => !KNOWN_ROLE_SET.has(r), "known role with invalid fields"),
  ),
});

export const AgentMessageSchema = chosenBy(
  "role",
  {
    system: SystemMessageSchema,
    user: UserMessageSchema,
    assistant: AssistantMessageSchema,
    toolResult: ToolResultMessageSchema,
    bashExecution: BashExecutionMessageSchema,
    custom: CustomMessageSchema,
    branchSummary: BranchSummaryMessageSchema,
    compactionSummary: CompactionSummaryMessageSchema,
  },
  UnknownRoleMessageSchema,
);

export type SystemMessage = v.InferOutput<typeof SystemMessageSchema>;
export type UserMessage = v.InferOutput<typeof UserMessageSchema>;
export type AssistantMessage = v.InferOutput<typeof AssistantMessageSchema>;
export type ToolResultMessage = v.InferOutput<typeof ToolResultMessageSchema>;
export type BashExecutionMessage = v.InferOutput<typeof BashExecutionMessageSchema>;
export type CustomMessage = v.InferOutput<typeof CustomMessageSchema>;
export type BranchSummaryMessage = v.InferOutput<typeof BranchSummaryMessageSchema>;
export type CompactionSummaryMessage = v.InferOutput<typeof CompactionSummaryMessageSchema>;
export type UnknownRoleMessage = v.InferOutput<typeof UnknownRoleMessageSchema>;
export type KnownAgentMessage =
  | SystemMessage
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;
export type AgentMessage = KnownAgentMessage | UnknownRoleMessage;
