/**
 * Pi's own message protocol (`pi-messages`): the request of pi-messages-request.ts, the answer
 * rebuilt by pi-messages-stream.ts. An HTTP error reads `<status> <statusText>: <the server's
 * message> (<its code>)`, as in Pi 0.87.1; an `error` event keeps the gateway's message; a stream
 * that ends without `done` or `error` failed. Never throws: every failure ends in an `error` event.
 */
import { ResponseWatch } from "../response-watch.ts";
import type { SseEvent } from "../sse.ts";
import { doneEvent, newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type LlmContext, type Model, type StreamFunction, type StreamOptions } from "../types.ts";
import { ABORTED_MESSAGE, failureEvent, postEventStream } from "./event-stream-post.ts";
import { closeQuietly, StreamAbort } from "./stream-failure.ts";
import { buildPiMessagesRequest } from "./pi-messages-request.ts";
import { parsePiMessagesEvent, PiMessagesAssembler, type PiMessagesEnd } from "./pi-messages-stream.ts";

/** The gateway's error body: `{error: {message, code}}`; any other body is shown as it is. */
function errorFields(body: string): { message?: string; code?: string } {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = typeof parsed === "object" && parsed !== null ? (parsed as { error?: unknown }).error : undefined;
    if (typeof error !== "object" || error === null || Array.isArray(error)) return {};
    const { message, code } = error as { message?: unknown; code?: unknown };
    return { ...(typeof message === "string" ? { message } : {}), ...(typeof code === "string" ? { code } : {}) };
  } catch {
    return {};
  }
}

export function piMessagesHttpErrorMessage(status: number, statusText: string, body: string): string {
  const { message, code } = errorFields(body);
  return `${status} ${statusText}: ${message ?? body}${code ? ` (${code})` : ""}`;
}

async function* streamMessages(model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  const abort = new StreamAbort(options.signal);
  let events: AsyncGenerator<SseEvent> | undefined;
  try {
    if (abort.aborted) throw new Error(ABORTED_MESSAGE);
    if (!options.apiKey) throw new Error(`No API key provided for provider "${model.provider}"`);
    events = await postEventStream(buildPiMessagesRequest(model, context, options), options, watch, abort, piMessagesHttpErrorMessage);
    yield { type: "start", partial: output };
    const assembler = new PiMessagesAssembler(output, model.provider);
    let end: PiMessagesEnd | undefined;
    for await (const raw of events) {
      const event = parsePiMessagesEvent(raw, model.provider);
      if (!event) continue;
      watch.progress();
      const step = assembler.apply(event);
      if (step.event) yield step.event;
      if (step.end) {
        end = step.end;
        break;
      }
    }
    if (abort.aborted) throw new Error(ABORTED_MESSAGE);
    if (!end) throw new Error(`${model.provider} stream ended without a terminal event`);
    if (end.type === "error") {
      yield { type: "error", reason: end.reason, error: output };
      return;
    }
    assembler.checkWhole();
    yield doneEvent(end.reason, output, []);
  } catch (error) {
    yield failureEvent(output, error, abort, watch);
  } finally {
    await closeQuietly(events);
    abort.release();
  }
}

/** Streams one answer over Pi's message protocol. Never throws; always ends with `done` or `error`. */
export const streamPiMessages: StreamFunction = (model, context, options) => streamMessages(model, context, options);
