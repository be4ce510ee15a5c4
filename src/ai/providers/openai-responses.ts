/**
 * OpenAI Responses API (`POST {baseUrl}/responses`, streamed, `store: false`), sent over plain
 * fetch as the OpenAI SDK sends it (openai-fetch.ts, which Azure's Responses API uses too). The
 * request, and how Pi's stored blocks are replayed, are in openai-responses-request.ts; the
 * answer's events are read by openai-responses-events.ts.
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
import type { OpenAIRequest } from "./openai-shared.ts";
import { errorEvent } from "./openai-errors.ts";
import { openaiEvents, sendOpenAIRequest } from "./openai-fetch.ts";
import { closeQuietly, StreamAbort } from "./stream-failure.ts";
import { buildResponsesRequest } from "./openai-responses-request.ts";
import { responsesEvents } from "./openai-responses-events.ts";
import { priceServiceTier } from "./openai-service-tier.ts";

export { responsesUsage } from "./openai-responses-events.ts";

/**
 * What differs between servers that speak the Responses API: the request they take (body and
 * extra headers) and how it is sent (where, and how it authenticates). The answer's events are
 * read the same way for all of them.
 */
export interface ResponsesWire {
  /** Body and extra headers; may throw a clear error about the configuration (it ends the stream). */
  build(model: Model, context: LlmContext, options: StreamOptions): OpenAIRequest;
  /** Sends the request and returns the answer's events once its headers are in (errors as openai-errors.ts's). */
  send(model: Model, options: StreamOptions, headers: Record<string, string | null>, body: object, abort: StreamAbort, watch: ResponseWatch): Promise<AsyncGenerator<unknown>>;
}

/** OpenAI's own Responses API at `{baseUrl}/responses`, with a bearer key. */
const OPENAI_WIRE: ResponsesWire = {
  build: buildResponsesRequest,
  send: async (model, options, headers, body, abort, watch) =>
    openaiEvents(await sendOpenAIRequest("/responses", model, headers, JSON.stringify(body), options, abort, watch)),
};

async function* streamResponses(wire: ResponsesWire, model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  const abort = new StreamAbort(options.signal);
  let events: AsyncGenerator<unknown> | undefined;
  try {
    const { body, headers } = wire.build(model, context, options);
    const sentHeaders = await finalHeaders(headers, options);
    events = await wire.send(model, options, sentHeaders, await finalPayload(body, options), abort, watch);
    yield { type: "start", partial: output };

    const invalidArguments: InvalidArguments[] = [];
    const finished = yield* responsesEvents(observed(events, options.onStreamEvent), { model, output, watch, invalidArguments, adjustUsage: priceServiceTier(model) });

    if (options.signal?.aborted) throw new Error("Request was aborted");
    if (output.stopReason === "error") throw new Error(output.errorMessage || "Provider returned an error stop reason");
    if (!finished) throw new Error("terminated");
    yield doneEvent(output.stopReason as "stop" | "length" | "toolUse", output, invalidArguments);
  } catch (error) {
    yield errorEvent(output, error, options, watch);
  } finally {
    await closeQuietly(events);
    abort.release();
  }
}

/** Streams one answer of a Responses server described by `wire`. Never throws; always ends with `done` or `error`. */
export function responsesStream(wire: ResponsesWire): StreamFunction {
  return (model, context, options) => streamResponses(wire, model, context, options);
}

/** Streams one Responses API answer. Never throws; always ends with `done` or `error`. */
export const streamOpenAIResponses: StreamFunction = responsesStream(OPENAI_WIRE);
