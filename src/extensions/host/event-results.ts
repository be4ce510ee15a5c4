/**
 * The answer each request an agent hook raises may carry, checked with valibot before it is
 * combined: one schema per such row of the event table (a row added there does not compile
 * until its answer has a schema here).
 */
import * as v from "valibot";
import type { HookedRequestEventName } from "../../util/extension-events.ts";
import { AgentMessageSchema } from "../../session/message-format.ts";
import { BeforeAgentStartResultSchema, BoundaryResultSchema, ContentSchema } from "../protocol.ts";

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
  structuredContent: v.optional(v.unknown()),
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
const HeadersResult = v.object({ headers: v.optional(v.record(v.string(), v.nullable(v.string()))) });

export const RESULT_SCHEMAS = {
  input: InputResult,
  before_agent_start: BeforeAgentStartResultSchema,
  context: MessagesResult,
  context_with_system: MessagesResult,
  before_provider_request: v.unknown(),
  before_provider_headers: HeadersResult,
  tool_call: ToolCallResult,
  tool_result: ToolResultResult,
  message_end: MessageResult,
  session_before_compact: CompactResult,
  session_before_tree: TreeResult,
  session_before_switch: CancelResult,
  session_before_fork: CancelResult,
  user_bash: UserBashResult,
  turn_end: BoundaryResultSchema,
  agent_before_settle: BoundaryResultSchema,
} as const satisfies Record<HookedRequestEventName, v.GenericSchema>;

export type ResultOf<E extends HookedRequestEventName> = v.InferOutput<(typeof RESULT_SCHEMAS)[E]>;
