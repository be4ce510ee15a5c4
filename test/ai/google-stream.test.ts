/** Reading Gemini's event stream (google-stream.ts) through the whole stream function, against a loopback server. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { streamGoogleGenerativeAI } from "../../src/ai/providers/google-generative-ai.ts";
import { mapGoogleStopReason } from "../../src/ai/providers/google-stream.ts";
import type { AssistantMessageEvent, Model } from "../../src/ai/types.ts";
import { collectEvents, finalMessage as last } from "../helpers/stream-events.ts";

let reply: { status?: number; body: string; contentType?: string } = { body: "" };
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(reply.body, { status: reply.status ?? 200, headers: { "content-type": reply.contentType ?? "text/event-stream" } }),
  });
});
afterAll(() => server.stop(true));

function model(id = "gemini-2.5-flash"): Model {
  return {
    id,
    name: id,
    api: "google-generative-ai",
    provider: "google",
    baseUrl: `http://127.0.0.1:${server.port}/v1beta`,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 0 },
    contextWindow: 1000000,
    maxTokens: 1000,
  };
}

const sse = (...chunks: unknown[]) => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
const parts = (...list: unknown[]) => ({ candidates: [{ content: { parts: list, role: "model" } }] });

async function run(body: string, id?: string): Promise<AssistantMessageEvent[]> {
  reply = { body };
  return collectEvents(streamGoogleGenerativeAI(model(id), { systemPrompt: "", messages: [] }, { apiKey: "key-123456789" }));
}

describe("Gemini stream", () => {
  test("thought parts become one thinking block, text parts one text block, signatures kept", async () => {
    const events = await run(
      sse(
        { ...parts({ text: "Let me ", thought: true, thoughtSignature: "c2lnMQ==" }), responseId: "r1" },
        parts({ text: "think.", thought: true }),
        parts({ text: "Hello", thoughtSignature: "c2lnMg==" }, { text: " world" }),
        {
          candidates: [{ finishReason: "STOP" }],
          usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, thoughtsTokenCount: 30, cachedContentTokenCount: 40, totalTokenCount: 150 },
        },
      ),
    );
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "done",
    ]);
    const message = last(events);
    expect(message.content).toEqual([
      { type: "thinking", thinking: "Let me think.", thinkingSignature: "c2lnMQ==" },
      { type: "text", text: "Hello world", textSignature: "c2lnMg==" },
    ]);
    expect(message.stopReason).toBe("stop");
    expect(message.responseId).toBe("r1");
    expect(message.usage).toMatchObject({ input: 60, output: 50, cacheRead: 40, cacheWrite: 0, reasoning: 30, totalTokens: 150 });
    expect(message.usage.cost.total).toBeCloseTo((60 * 1 + 50 * 2 + 40 * 0.5) / 1e6, 12);
  });

  test("function calls become tool calls, ids made when Gemini gives none or repeats one", async () => {
    const events = await run(
      sse(
        parts({ text: "Reading." }),
        parts({ functionCall: { name: "read", args: { path: "a" } }, thoughtSignature: "c2ln" }),
        parts({ functionCall: { name: "read", args: { path: "b" }, id: "call_1" } }, { functionCall: { name: "ls", args: {}, id: "call_1" } }),
        { candidates: [{ finishReason: "STOP" }] },
      ),
    );
    const message = last(events);
    expect(message.stopReason).toBe("toolUse");
    const calls = message.content.filter((b) => b.type === "toolCall");
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([["read", { path: "a" }], ["read", { path: "b" }], ["ls", {}]]);
    expect(calls[0]!.id).toMatch(/^read_\d+_\d+$/);
    expect(calls[0]!.thoughtSignature).toBe("c2ln");
    expect(calls[1]!.id).toBe("call_1");
    expect(calls[2]!.id).toMatch(/^ls_\d+_\d+$/);
    expect(events.filter((e) => e.type === "toolcall_delta").map((e) => (e as { delta: string }).delta)).toEqual(['{"path":"a"}', '{"path":"b"}', "{}"]);
  });

  test("MAX_TOKENS is length; SAFETY ends in an error that says why", async () => {
    expect(last(await run(sse(parts({ text: "cut" }), { candidates: [{ finishReason: "MAX_TOKENS" }] }))).stopReason).toBe("length");
    const blocked = last(await run(sse(parts({ text: "I" }), { candidates: [{ finishReason: "SAFETY" }] })));
    expect(blocked.stopReason).toBe("error");
    expect(blocked.errorMessage).toBe("Provider stopped with: SAFETY (blocked by Google's safety filters)");
    expect(blocked.content).toEqual([{ type: "text", text: "I" }]);
  });

  test("a blocked prompt names the block reason", async () => {
    const message = last(await run(sse({ promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 5 } })));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe("Google blocked the prompt: PROHIBITED_CONTENT");
  });

  test("an error inside the stream, a stream without a finish reason, and a chunk that is not JSON", async () => {
    const inStream = last(await run(sse(parts({ text: "a" }), { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } })));
    expect(inStream.errorMessage).toBe("503 The model is overloaded. (UNAVAILABLE)");
    expect(last(await run(sse(parts({ text: "a" })))).errorMessage).toBe("Google stream ended without a finish reason");
    expect(last(await run("data: {not json\r\n\r\n")).errorMessage).toStartWith("Malformed event stream from google: ");
  });

  test("an HTTP error reads as status, Google's message and its status name", async () => {
    reply = { status: 400, contentType: "application/json", body: JSON.stringify({ error: { code: 400, message: "API key not valid.", status: "INVALID_ARGUMENT" } }) };
    const events: AssistantMessageEvent[] = [];
    for await (const event of streamGoogleGenerativeAI(model(), { systemPrompt: "", messages: [] }, { apiKey: "key-123456789" })) events.push(event);
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(last(events).errorMessage).toBe("400 API key not valid. (INVALID_ARGUMENT)");
  });

  test("an unknown finish reason fails the answer", () => {
    expect(() => mapGoogleStopReason("SOMETHING_NEW")).toThrow("Unhandled stop reason: SOMETHING_NEW");
    expect(mapGoogleStopReason("MALFORMED_FUNCTION_CALL")).toBe("error");
  });
});
