/**
 * Pi's message protocol as pure functions: the options the request carries, the system message
 * when an extension set the prompt, the message rebuilt from the gateway's events, the usage it
 * priced, its errors, and the events that do not fit.
 */
import { describe, expect, test } from "bun:test";
import { buildPiMessagesRequest, piMessagesUrl } from "../../src/ai/providers/pi-messages-request.ts";
import { piMessagesHttpErrorMessage } from "../../src/ai/providers/pi-messages.ts";
import { parsePiMessagesEvent, PiMessagesAssembler } from "../../src/ai/providers/pi-messages-stream.ts";
import { newAssistantMessage, type Model } from "../../src/ai/types.ts";

const MODEL: Model = {
  id: "balanced",
  name: "Balanced",
  api: "pi-messages",
  provider: "radius",
  baseUrl: "https://radius.pi.dev/v1/",
  reasoning: true,
  input: ["text"],
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 0 },
  contextWindow: 1000000,
  maxTokens: 131072,
};

const USAGE = { input: 10, output: 5, cacheRead: 2, cacheWrite: 0, totalTokens: 17, cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, total: 3 } };

function event(data: unknown) {
  return parsePiMessagesEvent({ event: null, data: JSON.stringify(data), raw: [] }, "radius");
}

function assemble(events: unknown[]) {
  const output = { ...newAssistantMessage(MODEL), stopReason: "pending" as const };
  const assembler = new PiMessagesAssembler(output, "radius");
  const types: string[] = [];
  let end;
  for (const data of events) {
    const step = assembler.apply(event(data)!);
    if (step.event) types.push(step.event.type);
    if (step.end) end = step.end;
  }
  return { output, types, end, assembler };
}

describe("request", () => {
  test("POST <baseUrl>/messages with only the options that are set", () => {
    expect(piMessagesUrl(MODEL.baseUrl)).toBe("https://radius.pi.dev/v1/messages");
    const off = buildPiMessagesRequest(MODEL, { systemPrompt: "", messages: [] }, { apiKey: "k", reasoning: "off" }, {});
    expect(off.body).toEqual({ model: "balanced", context: { messages: [] }, options: {} });
    const all = buildPiMessagesRequest(MODEL, { systemPrompt: "", messages: [] }, { apiKey: "k", reasoning: "high", temperature: 0.2, maxTokens: 100, sessionId: "s" }, { PI_CACHE_RETENTION: "long" });
    expect(all.body.options).toEqual({ temperature: 0.2, maxTokens: 100, reasoning: "high", cacheRetention: "long", sessionId: "s" });
    expect(all.headers).toEqual({ authorization: "Bearer k", accept: "text/event-stream", "content-type": "application/json" });
  });

  test("a prompt set for this run (not the transcript's) is sent as one system message with the tools", () => {
    const tools = [{ name: "read", description: "r", parameters: { type: "object" } }];
    const request = buildPiMessagesRequest(MODEL, { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 7 }], tools }, { apiKey: "k" }, {});
    expect(request.body.context.messages[0]).toEqual({ role: "system", content: "Be brief.", timestamp: 7, toolsAdded: tools });
  });

  test("an HTTP error reads status, status text, the gateway's message and code; another body as it is", () => {
    expect(piMessagesHttpErrorMessage(429, "Too Many Requests", '{"error":{"message":"Slow down","code":"rate_limited"}}')).toBe("429 Too Many Requests: Slow down (rate_limited)");
    expect(piMessagesHttpErrorMessage(502, "Bad Gateway", "upstream died")).toBe("502 Bad Gateway: upstream died");
  });
});

describe("stream", () => {
  test("thinking, text and a tool call are rebuilt; done brings the gateway's usage and response id", () => {
    const { output, types, end } = assemble([
      { type: "start" },
      { type: "thinking_start", contentIndex: 0 },
      { type: "thinking_delta", contentIndex: 0, delta: "hm" },
      { type: "thinking_end", contentIndex: 0, content: "hm", contentSignature: "sig" },
      { type: "text_start", contentIndex: 1 },
      { type: "text_delta", contentIndex: 1, delta: "Reading." },
      { type: "text_end", contentIndex: 1, content: "Reading." },
      { type: "toolcall_start", contentIndex: 2, id: "call_1", toolName: "read" },
      { type: "toolcall_delta", contentIndex: 2, delta: '{"path":"a"}' },
      { type: "toolcall_end", contentIndex: 2, toolCall: { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" } } },
      { type: "done", reason: "toolUse", usage: USAGE, responseId: "resp_1", providerThinkingLevel: "high" },
    ]);
    expect(end).toEqual({ type: "done", reason: "toolUse" });
    expect(output.content).toEqual([
      { type: "thinking", thinking: "hm", thinkingSignature: "sig" },
      { type: "text", text: "Reading." },
      { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" } },
    ]);
    expect(output).toMatchObject({ stopReason: "toolUse", usage: USAGE, responseId: "resp_1", providerThinkingLevel: "high" });
    expect(types).toEqual(["thinking_start", "thinking_delta", "thinking_end", "text_start", "text_delta", "text_end", "toolcall_start", "toolcall_delta", "toolcall_end"]);
  });

  test("an error event ends the answer with the gateway's message; a rewrite is kept as a diagnostic", () => {
    const { output, end } = assemble([
      { type: "text_start", contentIndex: 0 },
      { type: "error", reason: "error", usage: USAGE, errorMessage: "upstream overloaded", rewrite: { policyId: "p", changed: true } },
    ]);
    expect(end).toEqual({ type: "error", reason: "error" });
    expect(output).toMatchObject({ stopReason: "error", errorMessage: "upstream overloaded" });
    expect(output.diagnostics).toEqual([{ type: "pi_messages_rewrite", timestamp: expect.any(Number), details: { policyId: "p", changed: true } }]);
  });

  test("events that do not fit are a malformed stream naming the provider", () => {
    expect(() => assemble([{ type: "text_delta", contentIndex: 0, delta: "x" }])).toThrow("Malformed event stream from radius: text_delta for content 0, which is not a started text block");
    expect(() => event({ type: "done", reason: "finished", usage: USAGE })).toThrow("Malformed event stream from radius: reason:");
    expect(() => parsePiMessagesEvent({ event: null, data: "nope", raw: [] }, "radius")).toThrow("Malformed event stream from radius: not JSON: nope");
    const { assembler } = assemble([{ type: "text_start", contentIndex: 1 }]);
    expect(() => assembler.checkWhole()).toThrow("content 0 was never started");
    expect(event({ type: "start" })).toEqual({ type: "start" });
    expect(parsePiMessagesEvent({ event: null, data: "[DONE]", raw: [] }, "radius")).toBeUndefined();
  });
});
