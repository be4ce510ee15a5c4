/**
 * Mistral's request building and stream reading as pure functions: tool call ids mapped to the
 * 9 characters Mistral demands (the same ids Pi 0.87.1 derives), images and their placeholders,
 * tool results, reasoning fields, strict tool schemas, and the chunks of a stream — thinking
 * chunks, text, tool calls, usage, finish reasons and the errors a server sends mid-stream.
 */
import { describe, expect, test } from "bun:test";
import { buildMistralRequest, fallbackToolCallId, mistralToolCallIds, mistralUrl } from "../../src/ai/providers/mistral-request.ts";
import { mistralHttpErrorMessage } from "../../src/ai/providers/mistral-conversations.ts";
import { mistralMessageEvents } from "../../src/ai/providers/mistral-stream.ts";
import { collectEvents, pendingMessage, sseData } from "../helpers/stream-events.ts";
import { newAssistantMessage, type AssistantMessageEvent, type InvalidArguments, type LlmContext, type LlmMessage, type Model } from "../../src/ai/types.ts";

const MODEL: Model = {
  id: "magistral-medium-latest",
  name: "Magistral",
  api: "mistral-conversations",
  provider: "mistral",
  baseUrl: "https://api.mistral.ai/",
  reasoning: true,
  input: ["text"],
  cost: { input: 2, output: 5, cacheRead: 0.2, cacheWrite: 0 },
  contextWindow: 128000,
  maxTokens: 16384,
};

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function build(messages: LlmMessage[], model: Model = MODEL, extra: Partial<LlmContext> = {}, reasoning?: "off" | "high" | "low") {
  return buildMistralRequest(model, { systemPrompt: "sys", messages, ...extra }, { apiKey: "k", ...(reasoning ? { reasoning } : {}) }, "pig (test)");
}

describe("tool call ids", () => {
  test("an id of 9 letters and digits stays; others get Pi 0.87.1's hash (values computed with Pi's code)", () => {
    const map = mistralToolCallIds();
    expect(map("abcDEF123")).toBe("abcDEF123");
    expect(map("toolu_01ABCdef")).toBe("9o5szclp9");
    expect(map("call_abc|fc_123")).toBe("18g6kob34");
    expect(map("toolu_01ABCdef")).toBe("9o5szclp9");
    expect(fallbackToolCallId(0)).toBe("toolcall0");
  });

  test("two ids never share a mapped id", () => {
    const map = mistralToolCallIds();
    // Both lose their separators and become the same 9 characters.
    expect(map("abc-DEF-123")).toBe("abcDEF123");
    const second = map("abc_DEF_123");
    expect(second).not.toBe("abcDEF123");
    expect(second).toMatch(/^[a-zA-Z0-9]{9}$/);
  });

  test("another model's calls and their results carry the mapped id", () => {
    const other = { role: "assistant", content: [{ type: "toolCall", id: "toolu_01ABCdef", name: "read", arguments: { path: "a" } }], api: "anthropic-messages", provider: "anthropic", model: "claude", usage, stopReason: "toolUse", timestamp: 1 } as LlmMessage;
    const result = { role: "toolResult", toolCallId: "toolu_01ABCdef", toolName: "read", content: [{ type: "text", text: "  body\n" }], isError: true, timestamp: 2 } as LlmMessage;
    const { body } = build([{ role: "user", content: "go", timestamp: 0 }, other, result]);
    const messages = body.messages as Record<string, unknown>[];
    expect(messages[2]).toEqual({ role: "assistant", prefix: false, tool_calls: [{ id: "9o5szclp9", type: "function", function: { name: "read", arguments: '{"path":"a"}' }, index: 0 }] });
    expect(messages[3]).toEqual({ role: "tool", name: "read", content: [{ type: "text", text: "[tool error] body" }], tool_call_id: "9o5szclp9" });
  });
});

describe("request", () => {
  test("the endpoint is <baseUrl>/v1/chat/completions", () => {
    expect(mistralUrl("https://api.mistral.ai/")).toBe("https://api.mistral.ai/v1/chat/completions");
  });

  test("a model without image input gets Pi's placeholder for images", () => {
    const { body } = build([{ role: "user", content: [{ type: "image", mimeType: "image/png", data: "AA" }, { type: "image", mimeType: "image/png", data: "BB" }, { type: "text", text: "what?" }], timestamp: 0 }]);
    expect((body.messages as unknown[])[1]).toEqual({ role: "user", content: [{ type: "text", text: "(image omitted: model does not support images)" }, { type: "text", text: "what?" }] });
  });

  test("a model with image input gets image_url strings, in the prompt and in tool results", () => {
    const vision = { ...MODEL, input: ["text", "image"] as ("text" | "image")[] };
    const call = { role: "assistant", content: [{ type: "toolCall", id: "abcDEF123", name: "read", arguments: {} }], api: vision.api, provider: vision.provider, model: vision.id, usage, stopReason: "toolUse", timestamp: 1 } as LlmMessage;
    const result = { role: "toolResult", toolCallId: "abcDEF123", toolName: "read", content: [{ type: "image", mimeType: "image/png", data: "CC" }], isError: false, timestamp: 2 } as LlmMessage;
    const { body } = build([{ role: "user", content: [{ type: "image", mimeType: "image/png", data: "AA" }], timestamp: 0 }, call, result], vision);
    const messages = body.messages as unknown[];
    expect(messages[1]).toEqual({ role: "user", content: [{ type: "image_url", image_url: "data:image/png;base64,AA" }] });
    expect(messages[3]).toEqual({ role: "tool", name: "read", content: [{ type: "text", text: "(see attached image)" }, { type: "image_url", image_url: "data:image/png;base64,CC" }], tool_call_id: "abcDEF123" });
  });

  test("reasoning: prompt_mode for Magistral, reasoning_effort for Mistral Small, nothing when off", () => {
    expect(build([], MODEL, {}, "high").body.prompt_mode).toBe("reasoning");
    expect(build([], MODEL, {}, "off").body.prompt_mode).toBeUndefined();
    const small = { ...MODEL, id: "mistral-small-latest", thinkingLevelMap: { low: "low" } };
    expect(build([], small, {}, "low").body).toMatchObject({ reasoning_effort: "low" });
    expect(build([], small, {}, "high").body).toMatchObject({ reasoning_effort: "high" });
    expect(build([], small, {}, "high").body.prompt_mode).toBeUndefined();
  });

  test("a tool asking for JSON-schema sampling is sent strict; one whose schema cannot be is sent as it is", () => {
    const parameters = { type: "object", required: ["path"], properties: { path: { type: "string" }, limit: { type: "number" } } };
    const tools = [
      { name: "read", description: "r", parameters, constrainedSampling: { type: "json_schema", strict: "prefer" } },
      { name: "union", description: "u", parameters: { type: "object", properties: { a: { oneOf: [{ type: "string" }] } } }, constrainedSampling: { type: "json_schema", strict: "prefer" } },
      { name: "plain", description: "p", parameters },
    ];
    const { body } = build([], MODEL, { tools });
    expect(body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "read",
          description: "r",
          parameters: { type: "object", required: ["path", "limit"], properties: { path: { type: "string" }, limit: { anyOf: [{ type: "number" }, { type: "null" }] } }, additionalProperties: false },
          strict: true,
        },
      },
      { type: "function", function: { name: "union", description: "u", parameters: tools[1]!.parameters, strict: false } },
      { type: "function", function: { name: "plain", description: "p", parameters, strict: false } },
    ]);
    const required = { ...tools[1]!, constrainedSampling: { type: "json_schema", strict: "require" } };
    expect(() => build([], MODEL, { tools: [required] })).toThrow('Tool "union" requires JSON-schema constrained sampling, but oneOf schemas are unsupported.');
  });

  test("the session pins the cache: prompt_cache_key and x-affinity, unless the configuration sets x-affinity", () => {
    const request = buildMistralRequest(MODEL, { systemPrompt: "", messages: [] }, { apiKey: "k", sessionId: "s1" }, "ua");
    expect(request.body.prompt_cache_key).toBe("s1");
    expect(request.headers["x-affinity"]).toBe("s1");
    const pinned = buildMistralRequest({ ...MODEL, headers: { "X-Affinity": "mine" } }, { systemPrompt: "", messages: [] }, { apiKey: "k", sessionId: "s1" }, "ua");
    expect(pinned.headers).toMatchObject({ "X-Affinity": "mine" });
    expect(pinned.headers["x-affinity"]).toBeUndefined();
  });

  test("an HTTP error names the status and keeps the server's body", () => {
    expect(mistralHttpErrorMessage(401, "Unauthorized", '{"message":"Unauthorized","request_id":"r1"}\n')).toBe('Mistral API error (401): {"message":"Unauthorized","request_id":"r1"}');
    expect(mistralHttpErrorMessage(503, "Service Unavailable", "")).toBe("Mistral API error (503): Service Unavailable");
  });
});

async function read(chunks: unknown[]): Promise<{ events: AssistantMessageEvent[]; output: ReturnType<typeof newAssistantMessage>; invalid: InvalidArguments[] }> {
  const output = pendingMessage(MODEL);
  const invalid: InvalidArguments[] = [];
  const events = await collectEvents(mistralMessageEvents(sseData(chunks), MODEL, output, invalid, () => {}));
  return { events, output, invalid };
}

const chunk = (delta: unknown, finish: string | null = null, extra: Record<string, unknown> = {}) => ({ id: "cmpl-1", choices: [{ index: 0, delta, finish_reason: finish }], ...extra });

describe("stream", () => {
  test("thinking chunks, text and a tool call become blocks in order, with usage and the finish reason", async () => {
    const { events, output, invalid } = await read([
      chunk({ role: "assistant", content: "" }),
      chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "hmm " }] }] }),
      chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "ok" }] }] }),
      chunk({ content: [{ type: "text", text: "Let me " }] }),
      chunk({ content: "look." }),
      chunk({ tool_calls: [{ id: "abcDEF123", function: { name: "read", arguments: '{"path":' }, index: 0 }] }),
      chunk({ tool_calls: [{ id: "null", function: { name: "read", arguments: '"a"}' }, index: 0 }] }),
      chunk({ content: "" }, "tool_calls", { usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_tokens_details: { cached_tokens: 40 } } }),
      "[DONE]",
    ]);
    expect(output.content).toEqual([
      { type: "thinking", thinking: "hmm ok" },
      { type: "text", text: "Let me look." },
      { type: "toolCall", id: "abcDEF123", name: "read", arguments: { path: "a" } },
    ]);
    expect(invalid).toEqual([]);
    expect(output).toMatchObject({ stopReason: "toolUse", rawStopReason: "tool_calls", responseId: "cmpl-1" });
    expect(output.usage).toMatchObject({ input: 60, output: 10, cacheRead: 40, cacheWrite: 0, totalTokens: 110 });
    expect(output.usage.cost.total).toBeCloseTo((2 * 60 + 5 * 10 + 0.2 * 40) / 1e6, 12);
    expect(events.map((e) => e.type)).toEqual([
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_end",
    ]);
  });

  test("finish reasons: model_length is length, an unknown one is an error naming it", async () => {
    expect((await read([chunk({ content: "a" }, "model_length")])).output.stopReason).toBe("length");
    const { output } = await read([chunk({ content: "a" }, "content_filter")]);
    expect(output).toMatchObject({ stopReason: "error", errorMessage: "Provider stopped with: content_filter" });
  });

  test("arguments that never become whole JSON are reported as invalid", async () => {
    const { invalid, output } = await read([chunk({ tool_calls: [{ id: "abcDEF123", function: { name: "read", arguments: '{"path":"a' }, index: 0 }] }, "tool_calls")]);
    expect(invalid).toEqual([{ contentIndex: 0, text: '{"path":"a' }]);
    expect(output.content[0]).toMatchObject({ type: "toolCall", id: "abcDEF123" });
  });

  test("an error the server sends in the stream is thrown with its message; a foreign event is named malformed", async () => {
    await expect(read([chunk({ content: "a" }), { object: "error", message: "Service overloaded", type: "internal_error", code: "3505" }])).rejects.toThrow(
      "Mistral stream error (internal_error, 3505): Service overloaded",
    );
    await expect(read([{ choices: "nope" }])).rejects.toThrow("Malformed event stream from Mistral");
    await expect(read(["{not json"])).rejects.toThrow("Malformed event stream from Mistral: not JSON: {not json");
  });
});
