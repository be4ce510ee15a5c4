/**
 * OpenAI Responses API (`POST {baseUrl}/responses`, streamed, `store: false`) through the OpenAI
 * SDK. The request, and how Pi's stored blocks are replayed, are in openai-responses-request.ts;
 * the answer's events are read by openai-responses-events.ts.
 */
import { ResponseWatch } from "../response-watch.ts";
import { finalHeaders, finalPayload } from "./request-hooks.ts";
import {
  doneEvent,
  newAssistantMessage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type InvalidArguments,
  type LlmContext,
  type Model,
  type StreamFunction,
  type StreamOptions,
} from "../types.ts";
import { createClient, errorEvent } from "./openai-shared.ts";
import { buildResponsesRequest } from "./openai-responses-request.ts";
import { responsesEvents } from "./openai-responses-events.ts";

export { responsesUsage } from "./openai-responses-events.ts";

async function* streamResponses(model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  try {
    const { body, headers } = buildResponsesRequest(model, context, options);
    const client = createClient(model, options, await finalHeaders(headers, options), watch);
    const stream = await client.responses.create((await finalPayload(body, options)) as never, { signal: options.signal });
    yield { type: "start", partial: output };

    const invalidArguments: InvalidArguments[] = [];
    const finished = yield* responsesEvents(stream as unknown as AsyncIterable<unknown>, { model, output, watch, invalidArguments });

    if (options.signal?.aborted) throw new Error("Request was aborted");
    if (output.stopReason === "error") throw new Error(output.errorMessage || "Provider returned an error stop reason");
    if (!finished) throw new Error("terminated");
    yield doneEvent(output.stopReason as "stop" | "length" | "toolUse", output, invalidArguments);
  } catch (error) {
    yield errorEvent(output, error, options, watch);
  }
}

/** Streams one Responses API answer. Never throws; always ends with `done` or `error`. */
export const streamOpenAIResponses: StreamFunction = (model, context, options) => streamResponses(model, context, options);
