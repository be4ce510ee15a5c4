/**
 * Streamed blocks grow in time and memory proportional to their length: tool-call arguments are
 * not parsed again whole for every piece, and a text left unread while it streams is not kept as
 * one string per piece.
 */
import { describe, expect, test } from "bun:test";
import { parsePartialJson } from "../../src/ai/partial-json.ts";
import { anthropicMessageEvents } from "../../src/ai/providers/anthropic-stream.ts";
import type { SseEvent } from "../../src/ai/sse.ts";
import { StreamingArguments, TextAppender } from "../../src/ai/streamed-text.ts";
import { newAssistantMessage, type AssistantMessage, type InvalidArguments, type Model } from "../../src/ai/types.ts";

const model: Model = {
  id: "m",
  name: "m",
  api: "anthropic-messages",
  provider: "fake",
  baseUrl: "http://127.0.0.1:9",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 200_000,
  maxTokens: 8192,
};

const event = (type: string, payload: Record<string, unknown>): SseEvent => ({ event: type, data: JSON.stringify({ type, ...payload }), raw: [] });

/** An Anthropic answer with one block whose content arrives as `pieces` deltas. */
function* oneBlockAnswer(block: Record<string, unknown>, delta: (piece: string) => Record<string, unknown>, pieces: Iterable<string>): Generator<SseEvent> {
  yield event("message_start", { message: { id: "msg_1", usage: { input_tokens: 1, output_tokens: 1 } } });
  yield event("content_block_start", { index: 0, content_block: block });
  for (const piece of pieces) yield event("content_block_delta", { index: 0, delta: delta(piece) });
  yield event("content_block_stop", { index: 0 });
  yield event("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } });
  yield event("message_stop", {});
}

async function* lazily(events: Iterable<SseEvent>): AsyncGenerator<SseEvent> {
  yield* events;
}

function* slices(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** Runs the events through the Anthropic reader, counting the events it yields. */
async function read(events: Iterable<SseEvent>): Promise<{ output: AssistantMessage; invalid: InvalidArguments[]; yielded: number }> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const invalid: InvalidArguments[] = [];
  let yielded = 0;
  for await (const _ of anthropicMessageEvents(lazily(events), model, { systemPrompt: "", messages: [] }, output, false, undefined, invalid)) yielded++;
  return { output, invalid, yielded };
}

describe("tool-call arguments", () => {
  test("a 10 MB argument in 100-byte pieces is parsed a bounded number of times over, and ends exact", () => {
    const content = "x".repeat(10 * 1024 * 1024);
    const json = JSON.stringify({ path: "big.txt", content });
    let parsedChars = 0;
    let parses = 0;
    let shown: Record<string, unknown> = {};
    const live = new StreamingArguments((text) => {
      parses++;
      parsedChars += text.length;
      return parsePartialJson(text);
    });
    const block = {};
    const texts = new TextAppender();
    let text = "";
    for (const piece of slices(json, 100)) {
      text = texts.append(block, text, piece);
      shown = live.update(block, text) ?? shown;
    }
    expect(text).toBe(json);
    // Whole re-parses on every piece would be ~110,000 parses and ~5.8e11 characters.
    expect(parsedChars).toBeLessThan(10 * json.length);
    expect(parses).toBeLessThan(200);
    // What is shown is never more than an eighth behind.
    expect(shown.path).toBe("big.txt");
    expect((shown.content as string).length).toBeGreaterThan((content.length * 7) / 8);
  });

  test("a short argument updates with every piece", () => {
    const live = new StreamingArguments(parsePartialJson);
    const block = {};
    const seen: unknown[] = [];
    let text = "";
    for (const piece of ['{"pa', 'th": "a', "b", 'c"}']) {
      text += piece;
      seen.push(live.update(block, text));
    }
    expect(seen).toEqual([{}, { path: "a" }, { path: "ab" }, { path: "abc" }]);
  });

  test("the Anthropic reader assembles a 10 MB argument sent in 100-byte pieces whole, without hanging", async () => {
    const content = "y".repeat(10 * 1024 * 1024);
    const json = JSON.stringify({ path: "big.txt", content });
    const started = performance.now();
    const { output, invalid } = await read(
      oneBlockAnswer({ type: "tool_use", id: "toolu_1", name: "write", input: {} }, (piece) => ({ type: "input_json_delta", partial_json: piece }), slices(json, 100)),
    );
    // Parsing the whole text again for every piece took over a minute here.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(invalid).toEqual([]);
    expect(output.content).toHaveLength(1);
    const call = output.content[0]!;
    expect(call.type === "toolCall" && call.arguments).toEqual({ path: "big.txt", content });
    expect(Object.keys(call)).not.toContain("partialJson");
  }, 60_000);
});

describe("memory of a streamed text", () => {
  test("5 MB of thinking in 4-character pieces takes about its own size, not a string per piece", async () => {
    const size = 5 * 1024 * 1024;
    // Each piece is a separate string, as each delta of a real stream is parsed from its own event.
    const pieces = function* () {
      for (let i = 0; i < size / 4; i++) yield `t${i % 10}k `;
    };
    Bun.gc(true);
    const before = process.memoryUsage().heapUsed;
    const { output, yielded } = await read(oneBlockAnswer({ type: "thinking", thinking: "", signature: "" }, (thinking) => ({ type: "thinking_delta", thinking }), pieces()));
    Bun.gc(true);
    const grown = process.memoryUsage().heapUsed - before;
    const block = output.content[0]!;
    const thinking = block.type === "thinking" ? block.thinking : "";
    expect(thinking.length).toBe(size);
    expect(thinking.slice(0, 12)).toBe("t0k t1k t2k ");
    expect(yielded).toBe(size / 4 + 2);
    // A string and a rope node per piece held ~12 times the text; one flat copy is 1×.
    expect(grown).toBeLessThan(3 * size);
  });
});
