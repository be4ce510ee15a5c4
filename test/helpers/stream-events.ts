/** Reading what a stream function or an event reader yields, for the tests of the wire APIs. */
import type { SseEvent } from "../../src/ai/sse.ts";
import { newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type Model } from "../../src/ai/types.ts";

/** Every item of `stream`, in order (the stream runs to its end). */
export async function collectEvents<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

/** The message the stream ended with; a stream not ended by `done` or `error` fails the test. */
export function finalMessage(events: readonly AssistantMessageEvent[]): AssistantMessage {
  const end = events.at(-1);
  if (end?.type === "done") return end.message;
  if (end?.type === "error") return end.error;
  throw new Error(`stream ended with ${end?.type ?? "no event"}`);
}

/** The message an event reader fills, as the stream functions start it. */
export function pendingMessage(model: Model): AssistantMessage {
  return { ...newAssistantMessage(model), stopReason: "pending" };
}

/** Server-sent events with these data (an object is sent as its JSON), as the SSE reader yields them. */
export async function* sseData(chunks: readonly unknown[]): AsyncGenerator<SseEvent> {
  for (const chunk of chunks) yield { event: null, data: typeof chunk === "string" ? chunk : JSON.stringify(chunk), raw: [] };
}
