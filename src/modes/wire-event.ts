/**
 * Events as `--mode json` and RPC write them, the way upstream Pi does since 0.84: a
 * `message_update` carries only what changed (`assistantMessageEvent` without the cumulative
 * `partial`) and the answer's usage so far, not the whole answer again, so the output grows with
 * the answer instead of with its square. A client rebuilds the answer from the deltas between
 * `message_start` and `message_end`; `message_end` has the final message. A `toolcall_start`
 * names the call it opens (`id`, `toolName`). Every other event is written as it is.
 */
import type { PigEvent } from "../agent/events.ts";
import type { AssistantMessageEvent, Usage } from "../ai/types.ts";

type Update = Extract<PigEvent, { type: "message_update" }>;

/** An `AssistantMessageEvent` without `partial`; `toolcall_start` gains the call's id and name. */
export type WireAssistantMessageEvent =
  | Exclude<DistributiveOmit<AssistantMessageEvent, "partial">, { type: "toolcall_start" }>
  | { type: "toolcall_start"; contentIndex: number; id?: string; toolName?: string };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type WireEvent =
  | Exclude<PigEvent, { type: "message_update" }>
  | { type: "message_update"; usage: Usage; assistantMessageEvent: WireAssistantMessageEvent };

function wireDelta(event: AssistantMessageEvent): WireAssistantMessageEvent {
  if (!("partial" in event)) return event;
  const { partial, ...delta } = event;
  if (delta.type !== "toolcall_start") return delta;
  const block = partial.content[delta.contentIndex];
  // A provider always opens the block before announcing it; without one the call stays unnamed.
  return block?.type === "toolCall" ? { ...delta, id: block.id, toolName: block.name } : delta;
}

/** The event as JSON mode and RPC write it. */
export function toWireEvent(event: PigEvent): WireEvent {
  if (event.type !== "message_update") return event;
  const update: Update = event;
  return { type: "message_update", usage: update.message.usage, assistantMessageEvent: wireDelta(update.assistantMessageEvent) };
}
