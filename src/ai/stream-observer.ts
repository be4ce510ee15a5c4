/**
 * Shows each event of a provider's stream to `StreamOptions.onStreamEvent` (upstream's
 * `provider_stream_event`) as it is read, before the provider module makes pig's events of it:
 * the earliest structured value pig has — an SSE event's JSON data, a Bedrock event as
 * `{<event type>: payload}`, an OpenAI SDK chunk. Nothing is wrapped when nobody watches.
 */
import type { SseEvent } from "./sse.ts";
import type { StreamOptions } from "./types.ts";

type See = StreamOptions["onStreamEvent"];

export function observed<T>(events: AsyncGenerator<T>, see: See, data?: (event: T) => unknown): AsyncGenerator<T>;
export function observed<T>(events: AsyncIterable<T>, see: See, data?: (event: T) => unknown): AsyncIterable<T>;
export function observed<T>(events: AsyncIterable<T>, see: See, data: (event: T) => unknown = (event) => event): AsyncIterable<T> {
  if (!see) return events;
  return (async function* () {
    for await (const event of events) {
      await see(data(event));
      yield event;
    }
  })();
}

/** An SSE event's data as JSON, or as the text it is when it is not JSON (`[DONE]`). */
export function sseData(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    return event.data;
  }
}
