/**
 * Mistral's chat completions stream (`POST …/v1/chat/completions` of api.mistral.ai, which pig's
 * `mistral-conversations` API speaks): `data: {chunk}` frames, then `data: [DONE]`. Unlike
 * OpenAI's, thinking arrives as typed content chunks (`{type:"thinking", thinking:[{type:"text",
 * text}]}`), each tool call comes whole in one chunk with a 9-character id, and the usage rides on
 * the chunk with the finish reason. The fake server reaches it under the path prefix `/mistral`
 * (a models.json `baseUrl` of `<url>/mistral`), since its path is OpenAI's too.
 */
import { chunks, dataFrame, type IdMaker, type Plan } from "./common.ts";

/** A tool call id as Mistral makes them: 9 characters of [a-zA-Z0-9]. */
function mistralToolCallId(ids: IdMaker): string {
  return ids.next("").replace(/[^a-zA-Z0-9]/g, "").padStart(9, "0").slice(-9);
}

export function mistralFrames(plan: Plan, ids: IdMaker): string[] {
  const id = ids.next("cmpl-fake-");
  const created = Math.floor(Date.now() / 1000);
  const frames: string[] = [];
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, usage?: unknown) => {
    const payload: Record<string, unknown> = {
      id,
      object: "chat.completion.chunk",
      created,
      model: plan.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
    if (usage !== undefined) payload.usage = usage;
    frames.push(dataFrame(payload));
  };

  chunk({ role: "assistant", content: "" });
  for (const piece of chunks(plan.thinking, plan.chunkSize)) {
    chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: piece }] }] });
  }
  for (const piece of chunks(plan.text, plan.chunkSize)) chunk({ content: piece });
  plan.toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ id: call.id ?? mistralToolCallId(ids), function: { name: call.name, arguments: call.args }, index }] });
  });

  if (plan.midStreamError !== undefined) {
    frames.push(dataFrame({ object: "error", message: plan.midStreamError, type: "internal_error", param: null, code: "fake_mid_stream_error" }));
    return frames;
  }
  const { prompt, completion, cached } = plan.usage;
  chunk({ content: "" }, plan.finishReason, {
    prompt_tokens: prompt,
    total_tokens: prompt + completion,
    completion_tokens: completion,
    ...(cached > 0 ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  });
  frames.push("data: [DONE]\n\n");
  return frames;
}
