/** Streaming from a local server that answers like the Anthropic Messages API. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildAnthropicRequest, streamAnthropicMessages } from "../../src/ai/providers/anthropic-messages.ts";
import type { AssistantMessageEvent, LlmContext, Model, StreamOptions } from "../../src/ai/types.ts";
import { FIXTURES } from "../helpers/tmp.ts";

// ── canned SSE ──────────────────────────────────────────────────────────────

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

function chunks(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function messageStart(id: string, usage: Record<string, number>): string {
  return sse("message_start", {
    type: "message_start",
    message: { id, type: "message", role: "assistant", content: [], model: "m", stop_reason: null, stop_sequence: null, usage },
  });
}

const blockStart = (index: number, block: Record<string, unknown>) => sse("content_block_start", { type: "content_block_start", index, content_block: block });
const blockDelta = (index: number, delta: Record<string, unknown>) => sse("content_block_delta", { type: "content_block_delta", index, delta });
const blockStop = (index: number) => sse("content_block_stop", { type: "content_block_stop", index });
const messageDelta = (stopReason: string, usage: Record<string, number>) =>
  sse("message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage });
const messageStop = sse("message_stop", { type: "message_stop" });
const ping = sse("ping", { type: "ping" });

interface Answer {
  id: string;
  thinking?: string;
  text?: string;
  toolCalls?: { id: string; name: string; arguments: unknown }[];
  stopReason: string;
  inputTokens: number;
  outputTokens: number;
}

/** An answer as Anthropic streams it: thinking (+ signature), text, tool uses; 8-character deltas. */
function answer(a: Answer): string[] {
  const out = [messageStart(a.id, { input_tokens: a.inputTokens, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }), ping];
  let index = 0;
  if (a.thinking !== undefined) {
    out.push(blockStart(index, { type: "thinking", thinking: "", signature: "" }));
    for (const piece of chunks(a.thinking)) out.push(blockDelta(index, { type: "thinking_delta", thinking: piece }));
    out.push(blockDelta(index, { type: "signature_delta", signature: `fakesig_${a.id}` }), blockStop(index++));
  }
  if (a.text !== undefined) {
    out.push(blockStart(index, { type: "text", text: "" }));
    for (const piece of chunks(a.text)) out.push(blockDelta(index, { type: "text_delta", text: piece }));
    out.push(blockStop(index++));
  }
  for (const call of a.toolCalls ?? []) {
    out.push(blockStart(index, { type: "tool_use", id: call.id, name: call.name, input: {} }));
    for (const piece of chunks(JSON.stringify(call.arguments))) out.push(blockDelta(index, { type: "input_json_delta", partial_json: piece }));
    out.push(blockStop(index++));
  }
  out.push(messageDelta(a.stopReason, { output_tokens: a.outputTokens }), messageStop);
  return out;
}

// ── the server ──────────────────────────────────────────────────────────────

type Reply = (req: Request) => Response | Promise<Response>;
const replies = new Map<string, Reply>();
const received: { scenario: string; headers: Record<string, string>; body: unknown }[] = [];
let server: ReturnType<typeof Bun.serve>;
let rawServer: { port: number; stop(closeActiveConnections?: boolean): void };
/** Resolved by the test once it has seen what the raw server sent before dropping the connection. */
let dropNow: Promise<void> = Promise.resolve();

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Answers that are never sent: released when the client leaves or the file's tests are done. */
const unanswered = signal();

function streamOf(parts: string[], opts: { stallAfter?: boolean; delayMs?: number } = {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const part of parts) {
        controller.enqueue(encoder.encode(part));
        if (opts.delayMs) await Bun.sleep(opts.delayMs);
      }
      if (!opts.stallAfter) controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

function jsonError(status: number, type: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ type: "error", error: { type, message } }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const match = /^\/s\/([^/]+)\/v1\/messages$/.exec(new URL(req.url).pathname);
      const reply = match ? replies.get(match[1]!) : undefined;
      if (!reply) return new Response("no such scenario", { status: 404 });
      received.push({ scenario: match![1]!, headers: Object.fromEntries(req.headers), body: await req.json() });
      return reply(req);
    },
  });
  // A raw HTTP server that starts a chunked stream and then drops the connection.
  rawServer = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket) {
        const part = blockStart(0, { type: "text", text: "" }) + blockDelta(0, { type: "text_delta", text: "Partial answ" });
        const first = messageStart("msg_drop", { input_tokens: 5, output_tokens: 1 }) + part;
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n`);
        socket.write(`${Buffer.byteLength(first).toString(16)}\r\n${first}\r\n`);
        void dropNow.then(() => socket.end());
      },
    },
  });
});

afterAll(() => {
  unanswered.resolve();
  server.stop(true);
  rawServer.stop(true);
});

// ── helpers ─────────────────────────────────────────────────────────────────

const cost = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

function model(scenario: string, extra: Partial<Model> = {}): Model {
  return {
    id: "fake-reasoner",
    name: "fake-reasoner",
    api: "anthropic-messages",
    provider: "fake",
    baseUrl: `http://127.0.0.1:${server.port}/s/${scenario}`,
    reasoning: true,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 16384,
    ...extra,
  };
}

const context: LlmContext = { systemPrompt: "sys", messages: [{ role: "user", content: "run a command", timestamp: 1 }] };

async function run(
  m: Model,
  options: Partial<StreamOptions> = {},
  ctx = context,
  onEvent?: (event: AssistantMessageEvent) => void,
): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of streamAnthropicMessages(m, ctx, { apiKey: "fake-key", ...options })) {
    // Partials are the live message: keep what each event showed.
    events.push(JSON.parse(JSON.stringify(event)));
    onEvent?.(event);
  }
  return events;
}

/** A request held without an answer until the client leaves. */
function holdUntilClientLeaves(req: Request): Promise<Response> {
  return new Promise((resolve) => {
    const leave = () => resolve(new Response("never read"));
    req.signal.addEventListener("abort", leave, { once: true });
    void unanswered.promise.then(leave);
  });
}

function final(events: AssistantMessageEvent[]) {
  const last = events.at(-1)!;
  expect(events.filter((e) => e.type === "done" || e.type === "error")).toHaveLength(1);
  return last.type === "done" ? last.message : last.type === "error" ? last.error : expect.unreachable();
}

/** The parts of an event that do not depend on timing. */
function shape(event: any): Record<string, unknown> {
  const { partial: _p, ...rest } = event;
  return rest;
}

// ── fixture 11 replayed ─────────────────────────────────────────────────────

describe("fixture 11: the answers Pi streamed", () => {
  const script = JSON.parse(readFileSync(join(FIXTURES, "11-anthropic-messages.script.json"), "utf8"));
  const session = readFileSync(join(FIXTURES, "11-anthropic-messages.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const stored = session.filter((e) => e.type === "message" && e.message.role === "assistant").map((e) => e.message);
  const piEvents = readFileSync(join(FIXTURES, "wire", "11-anthropic-messages.events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  // Pi's assistant events per answer (between the assistant message_start and message_end).
  const perAnswer: any[][] = [];
  let current: any[] | undefined;
  for (const e of piEvents) {
    if (e.type === "message_start" && e.message.role === "assistant") current = [];
    else if (e.type === "message_update" && current) current.push(e.assistantMessageEvent);
    else if (e.type === "message_end" && current) {
      perAnswer.push(current);
      current = undefined;
    }
  }

  test.each([0, 1])("answer %d: same events and the same stored message", async (n) => {
    const want = stored[n];
    const entry = script.responses[n];
    const name = `fixture-${n}`;
    replies.set(name, () =>
      streamOf(
        answer({
          id: want.responseId,
          thinking: entry.thinking,
          text: entry.text,
          toolCalls: entry.toolCalls,
          stopReason: entry.toolCalls ? "tool_use" : "end_turn",
          inputTokens: want.usage.input,
          outputTokens: want.usage.output,
        }),
      ),
    );
    const events = await run(model(name), { reasoning: "high" });
    expect(events[0]!.type).toBe("start");
    expect(events.slice(1, -1).map(shape)).toEqual(perAnswer[n]!.map(shape));
    // Pi 0.73.1 stored no rawStopReason; pig, as Pi 0.87, keeps Anthropic's own word for the stop.
    const { rawStopReason, ...message } = final(events);
    expect(rawStopReason).toBe(entry.toolCalls ? "tool_use" : "end_turn");
    expect({ ...message, timestamp: 0 }).toEqual({ ...want, timestamp: 0 });
    expect(JSON.stringify({ ...message, timestamp: 0 })).toBe(JSON.stringify({ ...want, timestamp: 0 }));
  });

  test("partials carry upstream's streaming scratch fields until the block ends", async () => {
    const events = await run(model("fixture-0"), { reasoning: "high" });
    const toolStart = events.find((e) => e.type === "toolcall_start") as any;
    expect(toolStart.partial.content[2]).toEqual({ type: "toolCall", id: "toolu_fx_1", name: "bash", arguments: {}, partialJson: "", index: 2 });
    const deltas = events.filter((e) => e.type === "toolcall_delta") as any[];
    expect(deltas.map((d) => d.partial.content[2].arguments)).toEqual([
      {},
      { command: "echo" },
      { command: "echo anthrop" },
      { command: "echo anthropic-tool" },
      { command: "echo anthropic-tool" },
    ]);
    const thinkingEnd = events.find((e) => e.type === "thinking_end") as any;
    expect(thinkingEnd.partial.content[0]).toEqual({ type: "thinking", thinking: "Need to list files.", thinkingSignature: "fakesig_msg_fake_mx2xl0mb1" });
  });

  test("the request that reached the server is the one buildAnthropicRequest makes", () => {
    const sent = received.find((r) => r.scenario === "fixture-0")!;
    const built = buildAnthropicRequest(model("fixture-0"), context, { apiKey: "fake-key", reasoning: "high" });
    expect(JSON.stringify(sent.body)).toBe(JSON.stringify(built.body));
    for (const [name, value] of Object.entries(built.headers)) expect(sent.headers[name]).toBe(value);
  });
});

// ── answers ─────────────────────────────────────────────────────────────────

describe("answers", () => {
  test("usage: input, cache read/write, output; total and cost", async () => {
    replies.set("usage", () =>
      streamOf([
        messageStart("msg_u", { input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 2000, cache_creation_input_tokens: 300 }),
        blockStart(0, { type: "text", text: "" }),
        blockDelta(0, { type: "text_delta", text: "ok" }),
        blockStop(0),
        messageDelta("end_turn", { output_tokens: 50 }),
        messageStop,
      ]),
    );
    const message = final(await run(model("usage", { cost })));
    expect(message.usage.input).toBe(100);
    expect(message.usage.cacheRead).toBe(2000);
    expect(message.usage.cacheWrite).toBe(300);
    expect(message.usage.output).toBe(50);
    expect(message.usage.totalTokens).toBe(2450);
    expect(message.usage.cost.input).toBeCloseTo(0.0003, 10);
    expect(message.usage.cost.output).toBeCloseTo(0.00075, 10);
    expect(message.usage.cost.cacheRead).toBeCloseTo(0.0006, 10);
    expect(message.usage.cost.cacheWrite).toBeCloseTo(0.001125, 10);
    expect(message.usage.cost.total).toBeCloseTo(0.002775, 10);
    expect(message.stopReason).toBe("stop");
    expect(message.responseId).toBe("msg_u");
  });

  test("message_delta usage fields that are absent or null keep the message_start values", async () => {
    replies.set("usage-partial", () =>
      streamOf([
        messageStart("msg_p", { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 4 }),
        sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 7, input_tokens: null } }),
        messageStop,
      ]),
    );
    const message = final(await run(model("usage-partial")));
    expect(message.usage).toMatchObject({ input: 10, output: 7, cacheRead: 4, cacheWrite: 0, totalTokens: 21 });
    expect(message.content).toEqual([]);
  });

  test("redacted thinking, interleaved blocks and unknown events", async () => {
    replies.set("redacted", () =>
      streamOf([
        messageStart("msg_r", { input_tokens: 1, output_tokens: 1 }),
        blockStart(0, { type: "redacted_thinking", data: "OPAQUE" }),
        blockStop(0),
        blockStart(1, { type: "server_tool_use", id: "srv", name: "web_search", input: {} }),
        blockStop(1),
        sse("some_future_event", { type: "some_future_event" }),
        blockStart(2, { type: "text", text: "" }),
        blockDelta(2, { type: "citations_delta", citation: {} }),
        blockDelta(2, { type: "text_delta", text: "done" }),
        blockStop(2),
        messageDelta("end_turn", { output_tokens: 3 }),
        messageStop,
      ]),
    );
    const events = await run(model("redacted"));
    expect(events.map((e) => e.type)).toEqual(["start", "thinking_start", "thinking_end", "text_start", "text_delta", "text_end", "done"]);
    expect(events.find((e) => e.type === "text_delta")).toMatchObject({ contentIndex: 1 });
    expect(final(events).content).toEqual([
      { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "OPAQUE", redacted: true },
      { type: "text", text: "done" },
    ]);
  });

  test("tool use: chunked JSON, several calls, toolcall_end with the parsed arguments", async () => {
    const args = { path: "a \"quoted\" file.txt", limit: 20, nested: { list: [1, 2, 3], ok: true } };
    replies.set("tools", () =>
      streamOf(
        answer({
          id: "msg_t",
          toolCalls: [
            { id: "toolu_a", name: "read", arguments: args },
            { id: "toolu_b", name: "ls", arguments: {} },
          ],
          stopReason: "tool_use",
          inputTokens: 5,
          outputTokens: 9,
        }),
      ),
    );
    const events = await run(model("tools"));
    const ends = events.filter((e) => e.type === "toolcall_end") as Extract<AssistantMessageEvent, { type: "toolcall_end" }>[];
    expect(ends.map((e) => [e.contentIndex, e.toolCall])).toEqual([
      [0, { type: "toolCall", id: "toolu_a", name: "read", arguments: args }],
      [1, { type: "toolCall", id: "toolu_b", name: "ls", arguments: {} }],
    ]);
    const deltas = events.filter((e) => e.type === "toolcall_delta" && e.contentIndex === 0) as any[];
    expect(deltas.map((d) => d.delta).join("")).toBe(JSON.stringify(args));
    expect(deltas[2].partial.content[0].arguments).toEqual({ path: "a \"quoted\" fi" });
    const message = final(events);
    expect(message.stopReason).toBe("toolUse");
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "toolUse" });
  });

  test("stop reasons: max_tokens → length, refusal → error, an unknown one → error", async () => {
    const respond = (reason: string) => () =>
      streamOf([
        messageStart("msg_s", { input_tokens: 1, output_tokens: 1 }),
        blockStart(0, { type: "text", text: "" }),
        blockDelta(0, { type: "text_delta", text: "cut" }),
        blockStop(0),
        messageDelta(reason, { output_tokens: 2 }),
        messageStop,
      ]);
    replies.set("length", respond("max_tokens"));
    replies.set("refusal", respond("refusal"));
    replies.set("weird", respond("something_new"));
    replies.set("pause", respond("pause_turn"));
    expect(final(await run(model("length")))).toMatchObject({ stopReason: "length" });
    expect((await run(model("length"))).at(-1)).toMatchObject({ type: "done", reason: "length" });
    expect(final(await run(model("pause")))).toMatchObject({ stopReason: "stop" });
    expect(final(await run(model("refusal")))).toMatchObject({
      stopReason: "error",
      errorMessage: "An unknown error occurred",
      content: [{ type: "text", text: "cut" }],
    });
    expect(final(await run(model("weird")))).toMatchObject({ stopReason: "error", errorMessage: "Unhandled stop reason: something_new" });
  });

  test("CRLF line ends and events split across network writes", async () => {
    const parts = answer({ id: "msg_c", text: "Hello there, world", stopReason: "end_turn", inputTokens: 3, outputTokens: 4 })
      .join("")
      .replaceAll("\n", "\r\n");
    replies.set("crlf", () => streamOf(chunks(parts, 7), { delayMs: 1 }));
    const message = final(await run(model("crlf")));
    expect(message.content).toEqual([{ type: "text", text: "Hello there, world" }]);
    expect(message.stopReason).toBe("stop");
  });
});

// ── failures ────────────────────────────────────────────────────────────────

describe("failures", () => {
  test("429 with retry-after within the cap: upstream's message, the wait exposed, no start event", async () => {
    replies.set("429", () => jsonError(429, "rate_limit_error", "Rate limited", { "retry-after": "2" }));
    const events = await run(model("429"), { maxRetryDelayMs: 60000 });
    expect(events.map((e) => e.type)).toEqual(["error"]);
    const last = events[0] as Extract<AssistantMessageEvent, { type: "error" }>;
    expect(last.reason).toBe("error");
    expect(last.error.errorMessage).toBe('429 {"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}');
    expect(last.retryAfterMs).toBe(2000);
    expect(last.retryDelayTooLong).toBeUndefined();
    expect(last.error.content).toEqual([]);
    expect(last.error.stopReason).toBe("error");
  });

  test("retry.provider.maxRetries: the client itself tries a failed status again", async () => {
    let calls = 0;
    replies.set("flaky", () => {
      calls++;
      if (calls < 3) return jsonError(503, "overloaded_error", "Busy", { "retry-after": "0" });
      return streamOf(chunks(answer({ id: "msg_f", text: "third time", stopReason: "end_turn", inputTokens: 1, outputTokens: 2 }).join(""), 50));
    });
    const message = final(await run(model("flaky"), { maxRetries: 2 }));
    expect(message.content).toEqual([{ type: "text", text: "third time" }]);
    expect(calls).toBe(3);
    calls = 0;
    const failed = final(await run(model("flaky"), { maxRetries: 0 }));
    expect(failed.stopReason).toBe("error");
    expect(calls).toBe(1);
  });

  test("an abort ends the client's wait before a retry at once", async () => {
    // The client reads a failed answer's body up to its limit (16 KiB), then drops the rest and
    // waits: the body is larger and left open, so the server sees it dropped, and the abort
    // comes once the client is waiting the 30 s asked for.
    const waiting = signal();
    replies.set("slow-retry", () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const error = '{"type":"error","error":{"type":"overloaded_error","message":"Busy"}}';
          controller.enqueue(new TextEncoder().encode(error + " ".repeat(20 * 1024)));
        },
        cancel: () => waiting.resolve(),
      });
      return new Response(body, { status: 503, headers: { "content-type": "application/json", "retry-after": "30" } });
    });
    const controller = new AbortController();
    void waiting.promise.then(() => controller.abort());
    const started = Date.now();
    const failed = final(await run(model("slow-retry"), { maxRetries: 2, maxRetryDelayMs: 60_000, signal: controller.signal }));
    expect(failed.stopReason).toBe("aborted");
    // Far less than the 30 s the server asked for.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(received.filter((r) => r.scenario === "slow-retry")).toHaveLength(1);
  });

  test("429 asking for longer than maxRetryDelayMs says so", async () => {
    replies.set("429-long", () => jsonError(429, "rate_limit_error", "Slow down", { "retry-after": "120" }));
    const last = (await run(model("429-long"), { maxRetryDelayMs: 60000 })).at(-1) as Extract<AssistantMessageEvent, { type: "error" }>;
    expect(last.error.errorMessage).toBe(
      'Server requested 120s retry delay (max: 60s). 429 {"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}',
    );
    expect(last.retryAfterMs).toBe(120000);
    expect(last.retryDelayTooLong).toBe(true);
    // No cap (0): just the wait.
    const uncapped = (await run(model("429-long"), { maxRetryDelayMs: 0 })).at(-1) as any;
    expect(uncapped.error.errorMessage).toStartWith("429 ");
    expect(uncapped.retryAfterMs).toBe(120000);
    expect(uncapped.retryDelayTooLong).toBeUndefined();
  });

  test("retry-after-ms and HTTP-date forms", async () => {
    replies.set("retry-ms", () => jsonError(503, "api_error", "busy", { "retry-after-ms": "1500" }));
    expect(((await run(model("retry-ms"))).at(-1) as any).retryAfterMs).toBe(1500);
    replies.set("retry-date", () => jsonError(503, "api_error", "busy", { "retry-after": new Date(Date.now() + 30_000).toUTCString() }));
    const wait = ((await run(model("retry-date"))).at(-1) as any).retryAfterMs;
    expect(wait).toBeGreaterThan(25_000);
    expect(wait).toBeLessThanOrEqual(30_000);
  });

  test("529 overloaded, non-JSON and empty error bodies", async () => {
    replies.set("529", () => new Response('{"type":"error",  "error":{"type":"overloaded_error","message":"Overloaded"}}', { status: 529 }));
    replies.set("500-text", () => new Response("upstream boom", { status: 500 }));
    replies.set("500-empty", () => new Response(null, { status: 500 }));
    expect(final(await run(model("529"))).errorMessage).toBe('529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
    expect(final(await run(model("500-text"))).errorMessage).toBe("500 upstream boom");
    expect(final(await run(model("500-empty"))).errorMessage).toBe("500 status code (no body)");
  });

  test("an in-stream error event ends the answer with its data, keeping what arrived", async () => {
    replies.set("in-stream", () =>
      streamOf([
        messageStart("msg_e", { input_tokens: 8, output_tokens: 1 }),
        blockStart(0, { type: "text", text: "" }),
        blockDelta(0, { type: "text_delta", text: "Hello" }),
        sse("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
      ]),
    );
    const events = await run(model("in-stream"));
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "error"]);
    const message = final(events);
    expect(message).toMatchObject({
      stopReason: "error",
      errorMessage: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      content: [{ type: "text", text: "Hello" }],
      responseId: "msg_e",
      usage: { input: 8, output: 1 },
    });
    expect(message.content[0]).not.toHaveProperty("index");
  });

  test("a connection dropped mid-stream: error \"terminated\", partial content kept", async () => {
    const m = model("raw", { baseUrl: `http://127.0.0.1:${rawServer.port}` });
    // The server drops the connection once the client has shown the text it sent.
    const seen = signal();
    dropNow = seen.promise;
    const events = await run(m, {}, context, (event) => {
      if (event.type === "text_delta") seen.resolve();
    });
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "error"]);
    const message = final(events);
    expect(message).toMatchObject({ stopReason: "error", errorMessage: "terminated", content: [{ type: "text", text: "Partial answ" }] });
    expect(message.content[0]).toEqual({ type: "text", text: "Partial answ" });
  });

  test("a stream that ends before message_stop", async () => {
    replies.set("eof", () =>
      streamOf([messageStart("msg_x", { input_tokens: 1, output_tokens: 1 }), blockStart(0, { type: "text", text: "" }), blockDelta(0, { type: "text_delta", text: "Hi" })]),
    );
    expect(final(await run(model("eof")))).toMatchObject({
      stopReason: "error",
      errorMessage: "Anthropic stream ended without message_stop",
      content: [{ type: "text", text: "Hi" }],
    });
  });

  test("a stream without any message is an error, not an empty answer", async () => {
    replies.set("no-message", () => streamOf(["event: ping\ndata: {\"type\":\"ping\"}\n\n"]));
    expect(final(await run(model("no-message")))).toMatchObject({ stopReason: "error", errorMessage: "Anthropic stream ended without any message" });
  });

  test("tool arguments cut off in a finished answer are reported on the done event", async () => {
    replies.set("cut-args", () =>
      streamOf([
        messageStart("msg_c", { input_tokens: 1, output_tokens: 1 }),
        blockStart(0, { type: "tool_use", id: "toolu_c", name: "write", input: {} }),
        blockDelta(0, { type: "input_json_delta", partial_json: '{"path":"a.txt","content":"hal' }),
        'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}}\n\n',
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
      ]),
    );
    const done = (await run(model("cut-args"))).at(-1) as Extract<AssistantMessageEvent, { type: "done" }>;
    expect(done.type).toBe("done");
    expect(done.invalidArguments).toEqual([{ contentIndex: 0, text: '{"path":"a.txt","content":"hal' }]);
    // The message keeps what could be read, as upstream stores it.
    expect(done.message.content[0]).toMatchObject({ type: "toolCall", arguments: { path: "a.txt", content: "hal" } });
  });

  test("an unparsable event", async () => {
    replies.set("bad-json", () => streamOf([messageStart("msg_b", { input_tokens: 1, output_tokens: 1 }), "event: content_block_delta\ndata: {not json\n\n"]));
    expect(final(await run(model("bad-json"))).errorMessage).toStartWith("Could not parse Anthropic SSE event content_block_delta: ");
  });

  test("abort mid-stream: aborted, \"Request was aborted\", partial content without scratch fields", async () => {
    replies.set("stall", () =>
      streamOf(
        [
          messageStart("msg_a", { input_tokens: 1, output_tokens: 1 }),
          blockStart(0, { type: "text", text: "" }),
          blockDelta(0, { type: "text_delta", text: "So far" }),
          blockStart(1, { type: "tool_use", id: "toolu_z", name: "read", input: {} }),
          blockDelta(1, { type: "input_json_delta", partial_json: '{"pa' }),
        ],
        { stallAfter: true },
      ),
    );
    const controller = new AbortController();
    const events: AssistantMessageEvent[] = [];
    for await (const event of streamAnthropicMessages(model("stall"), context, { apiKey: "k", signal: controller.signal })) {
      events.push(event);
      if (event.type === "toolcall_delta") controller.abort();
    }
    const last = events.at(-1) as Extract<AssistantMessageEvent, { type: "error" }>;
    expect(last.type).toBe("error");
    expect(last.reason).toBe("aborted");
    expect(last.error.stopReason).toBe("aborted");
    expect(last.error.errorMessage).toBe("Request was aborted");
    expect(last.error.content).toEqual([
      { type: "text", text: "So far" },
      { type: "toolCall", id: "toolu_z", name: "read", arguments: {} },
    ]);
  });

  test("abort before the answer, and an already aborted signal", async () => {
    const arrived = signal();
    replies.set("slow-headers", (req) => {
      arrived.resolve();
      return holdUntilClientLeaves(req);
    });
    const controller = new AbortController();
    void arrived.promise.then(() => controller.abort());
    const events = await run(model("slow-headers"), { signal: controller.signal });
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(final(events)).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
    const before = await run(model("slow-headers"), { signal: AbortSignal.abort() });
    expect(final(before)).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
  });

  test("timeout before the answer; refused connection", async () => {
    expect(final(await run(model("slow-headers"), { timeoutMs: 100 }))).toMatchObject({ stopReason: "error", errorMessage: "Request timed out." });
    const refused = model("x", { baseUrl: "http://127.0.0.1:1" });
    // The network's reason follows the client's words, which the retry rules recognise.
    expect(final(await run(refused))).toMatchObject({ stopReason: "error", errorMessage: expect.stringMatching(/^Connection error\. \(ECONNREFUSED\b/) });
  });

  test("no API key", async () => {
    const events = await run(model("usage"), { apiKey: "" });
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(final(events).errorMessage).toBe("No API key for provider: fake");
  });

  test("stopping the iteration early does not hang and closes the request", async () => {
    replies.set("endless", () => streamOf([messageStart("msg_q", { input_tokens: 1, output_tokens: 1 }), blockStart(0, { type: "text", text: "" })], { stallAfter: true }));
    let n = 0;
    for await (const event of streamAnthropicMessages(model("endless"), context, { apiKey: "k" })) {
      n++;
      if (event.type === "text_start") break;
    }
    expect(n).toBe(2);
  });
});
