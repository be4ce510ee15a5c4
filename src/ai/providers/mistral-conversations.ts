/**
 * Mistral (`mistral-conversations`): the request of mistral-request.ts, the answer read by
 * mistral-stream.ts. An HTTP error reads `Mistral API error (<status>): <the server's body>`, as
 * in Pi 0.87.1; an error the server sends mid-stream keeps its message; a stream that ends
 * without a finish reason failed. Never throws: every failure ends in an `error` event.
 */
import { arch, platform, release } from "node:os";
import { ResponseWatch } from "../response-watch.ts";
import type { SseEvent } from "../sse.ts";
import { doneEvent, newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type InvalidArguments, type LlmContext, type Model, type StreamFunction, type StreamOptions } from "../types.ts";
import { ABORTED_MESSAGE, failureEvent, postEventStream } from "./event-stream-post.ts";
import { closeQuietly, StreamAbort } from "./stream-failure.ts";
import { buildMistralRequest, mistralUserAgent } from "./mistral-request.ts";
import { mistralMessageEvents } from "./mistral-stream.ts";

/** Longest part of an error body kept in the message. */
const MAX_ERROR_BODY_CHARS = 4000;

export function mistralHttpErrorMessage(status: number, statusText: string, body: string): string {
  const trimmed = body.trim();
  if (!trimmed) return `Mistral API error (${status}): ${statusText || `Request failed with status ${status}`}`;
  const shown = trimmed.length > MAX_ERROR_BODY_CHARS ? `${trimmed.slice(0, MAX_ERROR_BODY_CHARS)}... [truncated ${trimmed.length - MAX_ERROR_BODY_CHARS} chars]` : trimmed;
  return `Mistral API error (${status}): ${shown}`;
}

async function* streamMistral(model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  const abort = new StreamAbort(options.signal);
  let events: AsyncGenerator<SseEvent> | undefined;
  try {
    if (abort.aborted) throw new Error(ABORTED_MESSAGE);
    if (!options.apiKey) throw new Error(`No API key for provider: ${model.provider}`);
    const request = buildMistralRequest(model, context, options, mistralUserAgent({ platform: platform(), release: release(), arch: arch() }));
    events = await postEventStream(request, options, watch, abort, mistralHttpErrorMessage);
    yield { type: "start", partial: output };
    const invalidArguments: InvalidArguments[] = [];
    yield* mistralMessageEvents(events, model, output, invalidArguments, () => watch.progress());
    if (abort.aborted) throw new Error(ABORTED_MESSAGE);
    if (output.stopReason === "pending") throw new Error("Mistral stream ended without a finish reason");
    if (output.stopReason === "error" || output.stopReason === "aborted") throw new Error(output.errorMessage || "An unknown error occurred");
    yield doneEvent(output.stopReason, output, invalidArguments);
  } catch (error) {
    yield failureEvent(output, error, abort, watch);
  } finally {
    await closeQuietly(events);
    abort.release();
  }
}

/** Streams one Mistral answer. Never throws; always ends with `done` or `error`. */
export const streamMistralConversations: StreamFunction = (model, context, options) => streamMistral(model, context, options);
