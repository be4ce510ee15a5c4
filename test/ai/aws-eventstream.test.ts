/**
 * The AWS event-stream framing: whole frames, frames split anywhere across chunks and several in
 * one chunk, every header type, and the faults — a bad prelude CRC, a bad message CRC, a length
 * out of range, a stream cut inside a frame — each a clear error. Then Bedrock's events read into
 * an assistant message: text, reasoning with its signature, tool use, stop reason, usage, and an
 * exception frame.
 */
import { describe, expect, test } from "bun:test";
import { crc32, decodeMessage, EventStreamError, iterateEventStream, type EventStreamMessage } from "../../src/ai/providers/aws-eventstream.ts";
import { bedrockMessageEvents } from "../../src/ai/providers/bedrock-stream.ts";
import type { AssistantMessageEvent, InvalidArguments, Model } from "../../src/ai/types.ts";
import { pendingMessage } from "../helpers/stream-events.ts";
import { encodeEventStreamMessage, exceptionFrame } from "../helpers/fake-llm/bedrock.ts";

const encoder = new TextEncoder();

function event(type: string, payload: unknown): Uint8Array {
  return encodeEventStreamMessage({ ":event-type": type, ":content-type": "application/json", ":message-type": "event" }, encoder.encode(JSON.stringify(payload)));
}

async function* chunked(bytes: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield bytes.slice(at, at + size);
    at += size;
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<EventStreamMessage[]> {
  const out: EventStreamMessage[] = [];
  for await (const message of iterateEventStream(source)) out.push(message);
  return out;
}

describe("framing", () => {
  test("CRC-32 is the IEEE one (check value of '123456789')", () => {
    expect(crc32(encoder.encode("123456789"))).toBe(0xcbf43926);
  });

  test("a frame decodes to its headers and payload", () => {
    const message = decodeMessage(event("messageStart", { role: "assistant" }));
    expect(message.headers).toEqual({ ":event-type": "messageStart", ":content-type": "application/json", ":message-type": "event" });
    expect(JSON.parse(new TextDecoder().decode(message.payload))).toEqual({ role: "assistant" });
  });

  test("every header type", () => {
    const headers = [
      [1, "t", 0],
      [1, "f", 1],
      [1, "b", 2, 0xff],
      [1, "s", 3, 0xff, 0xfe],
      [1, "i", 4, 0, 0, 1, 0],
      [1, "l", 5, 0, 0, 0, 0, 0, 0, 0, 7],
      [1, "y", 6, 0, 2, 0xca, 0xfe],
      [1, "z", 7, 0, 2, 0x68, 0x69],
      [1, "d", 8, 0, 0, 0, 0, 0, 0, 0x03, 0xe8],
      [1, "u", 9, ...Array.from({ length: 16 }, (_, i) => i)],
    ].flatMap(([length, name, ...rest]) => [length as number, (name as string).charCodeAt(0), ...(rest as number[])]);
    const total = 12 + headers.length + 4;
    const bytes = new Uint8Array(total);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, total);
    view.setUint32(4, headers.length);
    view.setUint32(8, crc32(bytes, 0, 8));
    bytes.set(headers, 12);
    view.setUint32(total - 4, crc32(bytes, 0, total - 4));
    const { headers: parsed, payload } = decodeMessage(bytes);
    expect(payload.length).toBe(0);
    expect(parsed).toEqual({
      t: true,
      f: false,
      b: -1,
      s: -2,
      i: 256,
      l: 7n,
      y: new Uint8Array([0xca, 0xfe]),
      z: "hi",
      d: new Date(1000),
      u: new Uint8Array(Array.from({ length: 16 }, (_, i) => i)),
    });
  });

  test("frames split across chunks anywhere, and several in one chunk, come out whole and in order", async () => {
    const frames = [event("messageStart", { role: "assistant" }), event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "héllo" } }), event("messageStop", { stopReason: "end_turn" })];
    const stream = concat(...frames);
    for (const sizes of [[1], [3, 7], [13], [stream.length], [5, stream.length]]) {
      const messages = await collect(chunked(stream, sizes));
      expect(messages.map((m) => m.headers[":event-type"])).toEqual(["messageStart", "contentBlockDelta", "messageStop"]);
      expect(new TextDecoder().decode(messages[1]!.payload)).toContain("héllo");
    }
  });

  test("a bad prelude CRC is an error, before its length is trusted", async () => {
    const frame = event("messageStart", { role: "assistant" });
    frame[9] = frame[9]! ^ 0xff;
    expect(() => decodeMessage(frame)).toThrow("event-stream prelude CRC mismatch");
    // The damaged frame is the first of a longer stream: no waiting for more bytes.
    await expect(collect(chunked(concat(frame, event("messageStop", { stopReason: "end_turn" })), [20]))).rejects.toThrow(EventStreamError);
  });

  test("a bad message CRC (a flipped payload byte) is an error", async () => {
    const frame = event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "abc" } });
    frame[frame.length - 10] = frame[frame.length - 10]! ^ 0x01;
    await expect(collect(chunked(frame, [frame.length]))).rejects.toThrow("event-stream message CRC mismatch");
  });

  test("a length beyond any real frame and a stream cut inside a frame are errors", async () => {
    const huge = new Uint8Array(12);
    new DataView(huge.buffer).setUint32(0, 0x7fffffff);
    new DataView(huge.buffer).setUint32(8, crc32(huge, 0, 8));
    await expect(collect(chunked(huge, [12]))).rejects.toThrow("event-stream message length 2147483647 is out of range");
    const frame = event("messageStart", { role: "assistant" });
    await expect(collect(chunked(frame.slice(0, frame.length - 3), [8]))).rejects.toThrow("event-stream ended inside a message");
  });
});

const MODEL: Model = {
  id: "anthropic.claude-sonnet-4-5-20250929-v1:0",
  name: "Claude",
  api: "bedrock-converse-stream",
  provider: "amazon-bedrock",
  baseUrl: "",
  reasoning: true,
  input: ["text"],
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  contextWindow: 200000,
  maxTokens: 64000,
};

async function read(frames: Uint8Array[]) {
  const output = pendingMessage(MODEL);
  const invalid: InvalidArguments[] = [];
  const events: AssistantMessageEvent[] = [];
  let error: unknown;
  try {
    for await (const e of bedrockMessageEvents(iterateEventStream(chunked(concat(...frames), [11])), MODEL, output, invalid, () => {})) events.push(e);
  } catch (caught) {
    error = caught;
  }
  return { output, events: events.map((e) => e.type), invalid, error };
}

describe("Bedrock events", () => {
  test("reasoning with its signature, text, tool use, stop reason and usage with cost", async () => {
    const { output, events, invalid, error } = await read([
      event("messageStart", { role: "assistant", p: "abc" }),
      event("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { text: "Let me " } } }),
      event("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { text: "think." } } }),
      event("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { signature: "sig-1" } } }),
      event("contentBlockStop", { contentBlockIndex: 0 }),
      event("contentBlockDelta", { contentBlockIndex: 1, delta: { text: "Reading." } }),
      event("contentBlockStop", { contentBlockIndex: 1 }),
      event("contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "tooluse_1", name: "read" } } }),
      event("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '{"path":' } } }),
      event("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '"a.txt"}' } } }),
      event("contentBlockStop", { contentBlockIndex: 2 }),
      event("messageStop", { stopReason: "tool_use" }),
      event("metadata", { usage: { inputTokens: 100, outputTokens: 20, totalTokens: 1120, cacheReadInputTokens: 1000, cacheWriteInputTokens: 0 }, metrics: { latencyMs: 5 } }),
    ]);
    expect(error).toBeUndefined();
    expect(invalid).toEqual([]);
    expect(events).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_end",
    ]);
    expect(output.content).toEqual([
      { type: "thinking", thinking: "Let me think.", thinkingSignature: "sig-1" },
      { type: "text", text: "Reading." },
      { type: "toolCall", id: "tooluse_1", name: "read", arguments: { path: "a.txt" } },
    ]);
    expect(output.stopReason).toBe("toolUse");
    expect(output.usage).toMatchObject({ input: 100, output: 20, cacheRead: 1000, cacheWrite: 0, totalTokens: 1120 });
    expect(output.usage.cost.total).toBeCloseTo((100 * 3 + 20 * 15 + 1000 * 0.3) / 1e6, 12);
  });

  test("stop reasons map as Pi maps them; an unknown one is an error naming it", async () => {
    for (const [reason, expected] of [["end_turn", "stop"], ["stop_sequence", "stop"], ["max_tokens", "length"], ["model_context_window_exceeded", "length"], ["guardrail_intervened", "error"]] as const) {
      const { output } = await read([event("messageStart", { role: "assistant" }), event("messageStop", { stopReason: reason })]);
      expect(output.stopReason).toBe(expected);
      if (expected === "error") expect(output.errorMessage).toBe("Provider stopped with: guardrail_intervened");
    }
  });

  test("an exception frame ends the answer with its kind in Pi's words and its message", async () => {
    const { error, events } = await read([
      event("messageStart", { role: "assistant" }),
      event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "par" } }),
      exceptionFrame("throttlingException", "Too many tokens, please wait before trying again."),
    ]);
    expect(events).toEqual(["start", "text_start", "text_delta"]);
    expect((error as Error).message).toBe("Throttling error: Too many tokens, please wait before trying again.");
  });

  test("a malformed event names the event and the field", async () => {
    const { error } = await read([event("messageStart", { role: "assistant" }), event("contentBlockDelta", { contentBlockIndex: "zero", delta: {} })]);
    expect((error as Error).message).toStartWith("Bedrock sent a malformed contentBlockDelta event: contentBlockIndex:");
  });

  test("encrypted reasoning is kept whole as base64 and shown as a placeholder", async () => {
    const { output } = await read([
      event("messageStart", { role: "assistant" }),
      event("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: Buffer.from([1, 2, 3]).toString("base64") } } }),
      event("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: Buffer.from([4, 5]).toString("base64") } } }),
      event("contentBlockStop", { contentBlockIndex: 0 }),
      event("messageStop", { stopReason: "end_turn" }),
    ]);
    expect(output.content).toEqual([{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: Buffer.from([1, 2, 3, 4, 5]).toString("base64"), redacted: true }]);
  });
});
