/**
 * OpenAI Responses API (`POST {baseUrl}/responses`, streamed, `store: false`) through the OpenAI
 * SDK. The request, and how Pi's stored blocks are replayed, are in openai-responses-request.ts;
 * the answer's events are read by openai-responses-events.ts.
 */
import { ResponseWatch } from "../response-watch.ts";
import { observed } from "../stream-observer.ts";
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
import type OpenAI from "openai";
import { createClient, errorEvent } from "./openai-sdk-client.ts";
import type { OpenAIRequest } from "./openai-shared.ts";
import { buildResponsesRequest } from "./openai-responses-request.ts";
import { responsesEvents } from "./openai-responses-events.ts";
import { priceServiceTier } from "./openai-service-tier.ts";

export { responsesUsage } from "./openai-responses-events.ts";

/**
 * What differs between servers that speak the Responses API: the request they take (body and
 * extra headers) and the client that sends it (where, and how it authenticates). The answer's
 * events are read the same way for all of them.
 */
export interface ResponsesWire {
  /** Body and extra headers; may throw a clear error about the configuration (it ends the stream). */
  build(model: Model, context: LlmContext, options: StreamOptions): OpenAIRequest;
  client(model: Model, options: StreamOptions, headers: Record<string, string | null>, watch: ResponseWatch): OpenAI;
}

/** OpenAI's own Responses API at `{baseUrl}/responses`, with a bearer key. */
const OPENAI_WIRE: ResponsesWire = { build: buildResponsesRequest, client: createClient };

async function* streamResponses(wire: ResponsesWire, model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  try {
    const { body, headers } = wire.build(model, context, options);
    const client = wire.client(model, options, await finalHeaders(headers, options), watch);
    const stream = await client.responses.create((await finalPayload(body, options)) as never, { signal: options.signal });
    yield { type: "start", partial: output };

    const invalidArguments: InvalidArguments[] = [];
    const finished = yield* responsesEvents(observed(stream as unknown as AsyncIterable<unknown>, options.onStreamEvent), { model, output, watch, invalidArguments, adjustUsage: priceServiceTier(model) });

    if (options.signal?.aborted) throw new Error("Request was aborted");
    if (output.stopReason === "error") throw new Error(output.errorMessage || "Provider returned an error stop reason");
    if (!finished) throw new Error("terminated");
    yield doneEvent(output.stopReason as "stop" | "length" | "toolUse", output, invalidArguments);
  } catch (error) {
    yield errorEvent(output, error, options, watch);
  }
}

/** Streams one answer of a Responses server described by `wire`. Never throws; always ends with `done` or `error`. */
export function responsesStream(wire: ResponsesWire): StreamFunction {
  return (model, context, options) => streamResponses(wire, model, context, options);
}

/** Streams one Responses API answer. Never throws; always ends with `done` or `error`. */
export const streamOpenAIResponses: StreamFunction = responsesStream(OPENAI_WIRE);
