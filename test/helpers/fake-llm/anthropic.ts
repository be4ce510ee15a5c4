/**
 * Anthropic Messages streaming (`POST …/messages`): `event:` + `data:` frames —
 * message_start, ping, content_block_start/delta/stop per block, message_delta, message_stop.
 */
import { chunks, eventFrame, type IdMaker, type Plan } from "./common.ts";

/** README mapping of the script's chat-style finish reasons; anything else passes through. */
const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
};

export function anthropicFrames(plan: Plan, ids: IdMaker): string[] {
  const id = ids.next("msg_fake_");
  const { prompt, completion, cached } = plan.usage;
  // Anthropic's input_tokens excludes cache reads (unlike OpenAI's prompt_tokens), so a client
  // that adds them up gets the script's prompt_tokens back.
  const usageBase = {
    input_tokens: Math.max(0, prompt - cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
  const frames: string[] = [];
  const send = (type: string, payload: Record<string, unknown>) => frames.push(eventFrame(type, { type, ...payload }));

  send("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model: plan.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      // The real API reports a token or so of output up front; Pi's fixture shows output 1 here.
      usage: { ...usageBase, output_tokens: 1 },
    },
  });
  send("ping", {});

  let index = 0;
  if (plan.thinking !== "") {
    send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const piece of chunks(plan.thinking, plan.chunkSize)) {
      send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } });
    }
    // Pi stores this as the block's thinkingSignature (11: `fakesig_msg_fake_…`).
    send("content_block_delta", { index, delta: { type: "signature_delta", signature: `fakesig_${id}` } });
    send("content_block_stop", { index });
    index += 1;
  }
  if (plan.text !== "") {
    send("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const piece of chunks(plan.text, plan.chunkSize)) {
      send("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    }
    send("content_block_stop", { index });
    index += 1;
  }
  for (const call of plan.toolCalls) {
    send("content_block_start", {
      index,
      content_block: { type: "tool_use", id: call.id ?? ids.next("toolu_"), name: call.name, input: {} },
    });
    for (const piece of chunks(call.args, plan.chunkSize)) {
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    send("content_block_stop", { index });
    index += 1;
  }

  if (plan.midStreamError !== undefined) {
    send("error", { error: { type: "api_error", message: plan.midStreamError } });
    return frames;
  }
  send("message_delta", {
    delta: { stop_reason: STOP_REASONS[plan.finishReason] ?? plan.finishReason, stop_sequence: null },
    usage: { ...usageBase, output_tokens: completion },
  });
  send("message_stop", {});
  return frames;
}
