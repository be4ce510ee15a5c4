/** The wire form of events (JSON mode, RPC): delta-only message updates, everything else as it is. */
import { describe, expect, test } from "bun:test";
import type { PigEvent } from "../../src/agent/events.ts";
import { newAssistantMessage, type AssistantMessage, type Model } from "../../src/ai/types.ts";
import { toWireEvent } from "../../src/modes/wire-event.ts";

const MODEL = { id: "m", name: "m", api: "openai-completions", provider: "p", baseUrl: "http://x", reasoning: false, input: ["text"], contextWindow: 1000, maxTokens: 100, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } as Model;

function partial(): AssistantMessage {
  const message = newAssistantMessage(MODEL);
  message.content = [
    { type: "text", text: "Let me look." },
    { type: "toolCall", id: "call_1", name: "read", arguments: {} },
  ];
  message.usage.input = 120;
  message.usage.output = 7;
  message.usage.totalTokens = 127;
  return message;
}

describe("toWireEvent", () => {
  test("a text delta: only what changed, with the answer's usage so far", () => {
    const message = partial();
    const event: PigEvent = { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "look.", partial: message }, message };
    const wire = toWireEvent(event);
    expect(wire).toEqual({ type: "message_update", usage: message.usage, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "look." } });
    expect(Object.keys(wire)).toEqual(["type", "usage", "assistantMessageEvent"]);
    expect(JSON.stringify(wire)).not.toContain("Let me look.");
  });

  test("toolcall_start names the call it opens", () => {
    const message = partial();
    const wire = toWireEvent({ type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 1, partial: message }, message });
    expect(wire).toMatchObject({ assistantMessageEvent: { type: "toolcall_start", contentIndex: 1, id: "call_1", toolName: "read" } });
    expect(Object.keys((wire as { assistantMessageEvent: object }).assistantMessageEvent)).toEqual(["type", "contentIndex", "id", "toolName"]);
  });

  test("a toolcall_start whose block is not a call stays unnamed; ends keep their full content", () => {
    const message = partial();
    expect(toWireEvent({ type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 0, partial: message }, message })).toMatchObject({
      assistantMessageEvent: { type: "toolcall_start", contentIndex: 0 },
    });
    const end = toWireEvent({ type: "message_update", assistantMessageEvent: { type: "text_end", contentIndex: 0, content: "Let me look.", partial: message }, message });
    expect(end).toMatchObject({ assistantMessageEvent: { type: "text_end", contentIndex: 0, content: "Let me look." } });
  });

  test("every other event is passed through as it is", () => {
    const message = partial();
    const events: PigEvent[] = [
      { type: "message_end", message },
      { type: "agent_end", messages: [message], willRetry: false },
      { type: "agent_settled", aborted: false },
      { type: "summarization_retry_attempt_start", source: "compaction", reason: "manual" },
    ];
    for (const event of events) expect(toWireEvent(event) as unknown).toBe(event);
  });
});
