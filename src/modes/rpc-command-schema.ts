/**
 * The RPC commands' request shapes, checked with valibot: what pig reads from stdin and what a
 * client (the SDK's `RpcClient`) may send. Knows nothing of the agent.
 */
import * as v from "valibot";
import { THINKING_LEVELS } from "../session/format.ts";

// Clients choose their ids: strings usually, numbers in some; any JSON value is echoed back as given.
const Id = { id: v.optional(v.unknown()) };
const Image = v.looseObject({ type: v.literal("image"), data: v.string(), mimeType: v.string() });
const Mode = v.picklist(["all", "one-at-a-time"]);

export const CommandSchema = v.variant("type", [
  v.object({ type: v.literal("prompt"), ...Id, message: v.string(), images: v.optional(v.array(Image)), streamingBehavior: v.optional(v.picklist(["steer", "followUp"])) }),
  v.object({ type: v.literal("steer"), ...Id, message: v.string(), images: v.optional(v.array(Image)) }),
  v.object({ type: v.literal("follow_up"), ...Id, message: v.string(), images: v.optional(v.array(Image)) }),
  v.object({ type: v.literal("abort"), ...Id }),
  v.object({ type: v.literal("clear_queue"), ...Id }),
  v.object({ type: v.literal("new_session"), ...Id, parentSession: v.optional(v.string()) }),
  v.object({ type: v.literal("get_state"), ...Id }),
  v.object({ type: v.literal("get_messages"), ...Id }),
  v.object({ type: v.literal("set_model"), ...Id, provider: v.string(), modelId: v.string() }),
  v.object({ type: v.literal("cycle_model"), ...Id }),
  v.object({ type: v.literal("get_available_models"), ...Id }),
  v.object({ type: v.literal("set_thinking_level"), ...Id, level: v.picklist(THINKING_LEVELS) }),
  v.object({ type: v.literal("cycle_thinking_level"), ...Id }),
  v.object({ type: v.literal("get_available_thinking_levels"), ...Id }),
  v.object({ type: v.literal("set_steering_mode"), ...Id, mode: Mode }),
  v.object({ type: v.literal("set_follow_up_mode"), ...Id, mode: Mode }),
  v.object({ type: v.literal("compact"), ...Id, customInstructions: v.optional(v.string()) }),
  v.object({ type: v.literal("set_auto_compaction"), ...Id, enabled: v.boolean() }),
  v.object({ type: v.literal("set_auto_retry"), ...Id, enabled: v.boolean() }),
  v.object({ type: v.literal("abort_retry"), ...Id }),
  v.object({ type: v.literal("abort_compaction"), ...Id }),
  v.object({ type: v.literal("bash"), ...Id, command: v.string(), excludeFromContext: v.optional(v.boolean()) }),
  v.object({ type: v.literal("abort_bash"), ...Id }),
  v.object({ type: v.literal("get_session_stats"), ...Id }),
  v.object({ type: v.literal("export_html"), ...Id, outputPath: v.optional(v.string()) }),
  // An empty path would name no file: the session would live in memory only, its prompts never saved.
  v.object({ type: v.literal("switch_session"), ...Id, sessionPath: v.pipe(v.string(), v.nonEmpty("must name a session file; it is empty")) }),
  v.object({ type: v.literal("fork"), ...Id, entryId: v.string() }),
  v.object({ type: v.literal("clone"), ...Id }),
  v.object({ type: v.literal("get_fork_messages"), ...Id }),
  v.object({ type: v.literal("get_entries"), ...Id, since: v.optional(v.string()) }),
  v.object({ type: v.literal("get_last_assistant_text"), ...Id }),
  v.object({ type: v.literal("set_session_name"), ...Id, name: v.string() }),
  v.object({ type: v.literal("get_commands"), ...Id }),
  v.object({ type: v.literal("get_extensions"), ...Id }),
  v.object({
    type: v.literal("navigate_tree"),
    ...Id,
    targetId: v.string(),
    summarize: v.optional(v.boolean()),
    customInstructions: v.optional(v.string()),
    replaceInstructions: v.optional(v.boolean()),
    label: v.optional(v.string()),
  }),
  v.object({ type: v.literal("set_label"), ...Id, entryId: v.string(), label: v.optional(v.string()) }),
  v.object({ type: v.literal("get_tree"), ...Id }),
  v.object({ type: v.literal("set_piglet"), ...Id, name: v.pipe(v.string(), v.nonEmpty("must name a Piglet")) }),
  v.object({ type: v.literal("get_piglets"), ...Id }),
]);

export type Command = v.InferOutput<typeof CommandSchema>;
export type CommandType = Command["type"];
export const COMMAND_TYPES: ReadonlySet<string> = new Set(CommandSchema.options.map((o) => o.entries.type.literal));
