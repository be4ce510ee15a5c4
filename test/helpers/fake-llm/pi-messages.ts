/**
 * Pi's own message protocol (`POST <baseUrl>/messages`, the `pi-messages` API of the Radius
 * gateway): the request is `{model, context, options}`, the answer an event stream of Pi's
 * assistant-message events without their `partial` message, ended by `done` or `error` carrying
 * the usage (cost included: the gateway prices the answer, at `PRICES` here). The fake server
 * reaches it under the path prefix `/pi-messages` (a models.json `baseUrl` of
 * `<url>/pi-messages/v1`), since Anthropic's path ends in `/messages` too.
 */
import { chunks, dataFrame, type IdMaker, type Plan } from "./common.ts";

/** Dollars per million tokens the fake gateway charges. */
export const PRICES = { input: 3, output: 15, cacheRead: 0.3 };

const STOP_REASONS: Record<string, string> = { stop: "stop", length: "length", tool_calls: "toolUse" };

function usageOf(plan: Plan): Record<string, unknown> {
  const { prompt, completion, cached } = plan.usage;
  const input = Math.max(0, prompt - cached);
  const cost = {
    input: (PRICES.input * input) / 1e6,
    output: (PRICES.output * completion) / 1e6,
    cacheRead: (PRICES.cacheRead * cached) / 1e6,
    cacheWrite: 0,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead;
  return { input, output: completion, cacheRead: cached, cacheWrite: 0, totalTokens: input + completion + cached, cost };
}

export function piMessagesFrames(plan: Plan, ids: IdMaker): string[] {
  const responseId = ids.next("resp_fake_");
  const frames: string[] = [];
  const send = (event: Record<string, unknown>) => frames.push(dataFrame(event));
  send({ type: "start" });
  let contentIndex = 0;
  if (plan.thinking !== "") {
    send({ type: "thinking_start", contentIndex });
    for (const delta of chunks(plan.thinking, plan.chunkSize)) send({ type: "thinking_delta", contentIndex, delta });
    send({ type: "thinking_end", contentIndex, content: plan.thinking, contentSignature: `fakesig_${responseId}` });
    contentIndex++;
  }
  if (plan.text !== "") {
    send({ type: "text_start", contentIndex });
    for (const delta of chunks(plan.text, plan.chunkSize)) send({ type: "text_delta", contentIndex, delta });
    send({ type: "text_end", contentIndex, content: plan.text });
    contentIndex++;
  }
  for (const call of plan.toolCalls) {
    const id = call.id ?? ids.next("call_");
    send({ type: "toolcall_start", contentIndex, id, toolName: call.name });
    for (const delta of chunks(call.args, plan.chunkSize)) send({ type: "toolcall_delta", contentIndex, delta });
    let args: unknown = {};
    try {
      args = JSON.parse(call.args);
    } catch {
      // A script's broken arguments stay broken on the wire: the client sees them in the deltas.
    }
    send({ type: "toolcall_end", contentIndex, toolCall: { type: "toolCall", id, name: call.name, arguments: args } });
    contentIndex++;
  }
  if (plan.midStreamError !== undefined) {
    send({ type: "error", reason: "error", usage: usageOf(plan), errorMessage: plan.midStreamError, responseId });
    return frames;
  }
  send({ type: "done", reason: STOP_REASONS[plan.finishReason] ?? plan.finishReason, usage: usageOf(plan), responseId });
  return frames;
}
