/**
 * OpenAI Responses streaming (`POST …/responses`): `event:` + `data:` frames from
 * response.created to response.completed, one output item per reasoning / message / function
 * call, each with its added → delta… → done events, numbered by `sequence_number`.
 */
import { bodyNumber, bodyObject, chunks, eventFrame, type IdMaker, type Plan } from "./common.ts";

type Item = Record<string, unknown>;

export function responsesFrames(plan: Plan, body: unknown, ids: IdMaker): string[] {
  const responseId = ids.next("resp_fake_");
  const createdAt = Math.floor(Date.now() / 1000);
  const frames: string[] = [];
  let sequence = 0;
  const send = (type: string, payload: Record<string, unknown>) => {
    frames.push(eventFrame(type, { type, sequence_number: sequence++, ...payload }));
  };
  const reasoning = bodyObject(body, "reasoning");
  const response = (status: string, output: Item[], extra: Record<string, unknown> = {}) => ({
    id: responseId,
    object: "response",
    created_at: createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: bodyNumber(body, "max_output_tokens") ?? null,
    model: plan.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: typeof reasoning === "object" && reasoning !== null ? reasoning : { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: null,
    metadata: {},
    ...extra,
  });

  send("response.created", { response: response("in_progress", []) });
  send("response.in_progress", { response: response("in_progress", []) });

  const done: Item[] = [];
  if (plan.thinking !== "") {
    const outputIndex = done.length;
    const itemId = ids.next("rs_");
    const at = { item_id: itemId, output_index: outputIndex, summary_index: 0 };
    const added = { id: itemId, type: "reasoning", summary: [] };
    send("response.output_item.added", { output_index: outputIndex, item: added });
    send("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
    for (const delta of chunks(plan.thinking, plan.chunkSize)) {
      send("response.reasoning_summary_text.delta", { ...at, delta });
    }
    send("response.reasoning_summary_text.done", { ...at, text: plan.thinking });
    // No response.reasoning_summary_part.done: Pi turns that event into an extra "\n\n"
    // thinking delta, which the recorded 12-openai-responses events do not contain.
    // Key order matters: Pi stores this item, JSON-stringified, as the thinkingSignature.
    const item = { id: itemId, type: "reasoning", summary: [{ type: "summary_text", text: plan.thinking }] };
    send("response.output_item.done", { output_index: outputIndex, item });
    done.push(item);
  }
  if (plan.text !== "") {
    const outputIndex = done.length;
    const itemId = ids.next("msg_");
    const at = { item_id: itemId, output_index: outputIndex, content_index: 0 };
    const part = (text: string) => ({ type: "output_text", annotations: [], logprobs: [], text });
    send("response.output_item.added", {
      output_index: outputIndex,
      item: { id: itemId, type: "message", status: "in_progress", content: [], role: "assistant" },
    });
    send("response.content_part.added", { ...at, part: part("") });
    for (const delta of chunks(plan.text, plan.chunkSize)) {
      send("response.output_text.delta", { ...at, delta, logprobs: [] });
    }
    send("response.output_text.done", { ...at, text: plan.text, logprobs: [] });
    send("response.content_part.done", { ...at, part: part(plan.text) });
    const item = { id: itemId, type: "message", status: "completed", content: [part(plan.text)], role: "assistant" };
    send("response.output_item.done", { output_index: outputIndex, item });
    done.push(item);
  }
  for (const call of plan.toolCalls) {
    const outputIndex = done.length;
    const callId = call.id ?? ids.next("call_");
    const itemId = ids.next("fc_");
    const item = (status: string, args: string) => ({
      id: itemId,
      type: "function_call",
      status,
      arguments: args,
      call_id: callId,
      name: call.name,
    });
    send("response.output_item.added", { output_index: outputIndex, item: item("in_progress", "") });
    for (const delta of chunks(call.args, plan.chunkSize)) {
      send("response.function_call_arguments.delta", { item_id: itemId, output_index: outputIndex, delta });
    }
    send("response.function_call_arguments.done", { item_id: itemId, output_index: outputIndex, arguments: call.args });
    const final = item("completed", call.args);
    send("response.output_item.done", { output_index: outputIndex, item: final });
    done.push(final);
  }

  if (plan.midStreamError !== undefined) {
    send("response.failed", {
      response: response("failed", done, { error: { code: "server_error", message: plan.midStreamError } }),
    });
    return frames;
  }
  const { prompt, completion, cached } = plan.usage;
  const usage = {
    input_tokens: prompt,
    // cache_write_tokens: a required member of the SDK's (6.x) ResponseUsage type.
    input_tokens_details: { cached_tokens: cached, cache_write_tokens: 0 },
    output_tokens: completion,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: prompt + completion,
  };
  // `length` (and `content_filter`) end with status "incomplete", still in a response.completed
  // event rather than the real API's response.incomplete: the README puts the usage of every
  // response in response.completed, and Pi reads usage and status only from that event.
  const incomplete =
    plan.finishReason === "length"
      ? { reason: "max_output_tokens" }
      : plan.finishReason === "content_filter"
        ? { reason: "content_filter" }
        : null;
  send("response.completed", {
    response: response(incomplete ? "incomplete" : "completed", done, { incomplete_details: incomplete, usage }),
  });
  return frames;
}
