/**
 * OpenAI Chat Completions streaming (`POST …/chat/completions`): `data: {chunk}` frames,
 * then `data: [DONE]`. Shaped like api.openai.com's chunks so the `openai` SDK (including its
 * accumulating `chat.completions.stream()` helper) takes them as real.
 */
import { bodyObject, chunks, dataFrame, type IdMaker, type Plan } from "./common.ts";

interface ChatDelta {
  role?: "assistant";
  content?: string | null;
  refusal?: null;
  reasoning_content?: string;
  reasoning?: string;
  reasoning_text?: string;
  tool_calls?: {
    index: number;
    id?: string;
    type?: "function";
    function: { name?: string; arguments: string };
  }[];
}

/** True when the request asked for the final usage-only chunk. */
function wantsUsage(body: unknown): boolean {
  const options = bodyObject(body, "stream_options");
  return (
    typeof options === "object" && options !== null && "include_usage" in options && options.include_usage === true
  );
}

export function chatFrames(plan: Plan, body: unknown, ids: IdMaker): string[] {
  const id = ids.next("chatcmpl-fake-");
  const created = Math.floor(Date.now() / 1000);
  const includeUsage = wantsUsage(body);
  const frames: string[] = [];

  const chunk = (delta: ChatDelta, finishReason: string | null = null) => {
    const payload: Record<string, unknown> = {
      id,
      object: "chat.completion.chunk",
      created,
      model: plan.model,
      system_fingerprint: "fp_fake",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    // Real API: with include_usage every chunk carries `usage: null` until the usage-only one.
    if (includeUsage) payload.usage = null;
    frames.push(dataFrame(payload));
  };

  // The role chunk counts as a chunk for stall/disconnect (04: stallAfterChunks 4 gave 3 text deltas).
  chunk({ role: "assistant", content: "", refusal: null });
  for (const piece of chunks(plan.thinking, plan.chunkSize)) chunk({ [plan.reasoningField]: piece });
  for (const piece of chunks(plan.text, plan.chunkSize)) chunk({ content: piece });
  plan.toolCalls.forEach((call, index) => {
    // First chunk: id + name with empty arguments (Pi records a "" toolcall_delta for it).
    chunk({
      tool_calls: [
        { index, id: call.id ?? ids.next("call_"), type: "function", function: { name: call.name, arguments: "" } },
      ],
    });
    for (const piece of chunks(call.args, plan.chunkSize)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });

  if (plan.midStreamError !== undefined) {
    // The SDK throws an APIError for any data payload with an `error` member; the stream then just ends.
    const error = { message: plan.midStreamError, type: "server_error", param: null, code: "fake_mid_stream_error" };
    frames.push(dataFrame({ error }));
    return frames;
  }

  chunk({}, plan.finishReason);
  if (includeUsage) {
    const { prompt, completion, cached } = plan.usage;
    frames.push(
      dataFrame({
        id,
        object: "chat.completion.chunk",
        created,
        model: plan.model,
        system_fingerprint: "fp_fake",
        choices: [],
        usage: {
          prompt_tokens: prompt,
          completion_tokens: completion,
          total_tokens: prompt + completion,
          // OpenAI counts cached tokens inside prompt_tokens and details them here.
          prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
          completion_tokens_details: {
            reasoning_tokens: 0,
            audio_tokens: 0,
            accepted_prediction_tokens: 0,
            rejected_prediction_tokens: 0,
          },
        },
      }),
    );
  }
  frames.push("data: [DONE]\n\n");
  return frames;
}
