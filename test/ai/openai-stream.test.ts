/**
 * Streaming through both OpenAI providers against a local Bun.serve that returns canned SSE:
 * event order and final messages as Pi 0.73.1 produced them (replaying fixtures 02, 13 and 12),
 * thinking, chunked tool-call arguments, usage and cost, HTTP errors with retry-after, a
 * connection cut mid-stream, in-stream errors and aborts.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createServer, type Server as NetServer } from "node:net";
import { join } from "node:path";
import { buildCompletionsRequest, streamOpenAICompletions } from "../../src/ai/providers/openai-completions.ts";
import { buildResponsesRequest } from "../../src/ai/providers/openai-responses-request.ts";
import { streamOpenAIResponses } from "../../src/ai/providers/openai-responses.ts";
import type { AssistantMessageEvent, LlmContext, Model, StreamFunction, StreamOptions } from "../../src/ai/types.ts";
import { finalMessage as final } from "../helpers/stream-events.ts";
import { FIXTURES, FIXTURES_087 } from "../helpers/tmp.ts";
import { fakeModel } from "../helpers/fake-model.ts";

// ── a canned-response server ────────────────────────────────────────────────

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

type Reply = (request: Request) => Response | Promise<Response>;

const replies: Reply[] = [];
const seen: Seen[] = [];

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Answers that are never sent: released when the client leaves or the file's tests are done. */
const unanswered = signal();

/** A request held without an answer until the client leaves. */
function holdUntilClientLeaves(request: Request): Promise<Response> {
  return new Promise((resolve) => {
    const leave = () => resolve(new Response("never read"));
    request.signal.addEventListener("abort", leave, { once: true });
    void unanswered.promise.then(leave);
  });
}

const server = Bun.serve({
  port: 0,
  async fetch(request) {
    const text = await request.text();
    seen.push({
      path: new URL(request.url).pathname,
      headers: Object.fromEntries(request.headers.entries()),
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    });
    const reply = replies.shift();
    if (!reply) return new Response("no reply queued", { status: 599 });
    return reply(request);
  },
});
afterAll(() => {
  unanswered.resolve();
  server.stop(true);
});

beforeEach(() => {
  replies.length = 0;
  seen.length = 0;
});

const encoder = new TextEncoder();

/** An SSE answer: each item is a `data:` line (objects as JSON), or `{event, data}` for named events. */
function sse(items: (object | string)[], opts: { stallAfter?: number; delayMs?: number } = {}): Reply {
  return () => {
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (opts.stallAfter !== undefined && i >= opts.stallAfter) {
          await new Promise(() => {}); // never answers again; the client goes away
        }
        if (i >= items.length) {
          controller.close();
          return;
        }
        if (opts.delayMs) await Bun.sleep(opts.delayMs);
        const item = items[i++]!;
        let frame: string;
        if (typeof item === "string") frame = `data: ${item}\n\n`;
        else if ("event" in item && "data" in item) frame = `event: ${String(item.event)}\ndata: ${JSON.stringify(item.data)}\n\n`;
        else frame = `data: ${JSON.stringify(item)}\n\n`;
        controller.enqueue(encoder.encode(frame));
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  };
}

function httpError(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return () =>
    Response.json({ error: { message, type: status === 429 ? "rate_limit_error" : "server_error", code: null } }, { status, headers });
}

// ── models and helpers ──────────────────────────────────────────────────────

function model(overrides: Partial<Model> = {}): Model {
  return fakeModel(`http://127.0.0.1:${server.port}/v1`, overrides);
}

const USER_CONTEXT: LlmContext = {
  systemPrompt: "You are a test.",
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 }],
};

async function collect(
  fn: StreamFunction,
  m: Model,
  options: Partial<StreamOptions> = {},
  context: LlmContext = USER_CONTEXT,
  onEvent?: (event: AssistantMessageEvent) => void,
): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of fn(m, context, { apiKey: "test-key", ...options })) {
    // Snapshot: `partial` is the live message, as upstream.
    events.push(structuredClone(event));
    onEvent?.(event);
  }
  return events;
}


function chunk(delta: Record<string, unknown>, finish: string | null = null, id = "chatcmpl-test-1") {
  return { id, object: "chat.completion.chunk", created: 1, model: "fake-model", choices: [{ index: 0, delta, finish_reason: finish }] };
}

function usageChunk(prompt: number, completion: number, cached = 0, id = "chatcmpl-test-1") {
  return {
    id,
    object: "chat.completion.chunk",
    created: 1,
    model: "fake-model",
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached } },
  };
}

function pieces(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

// ── replaying the fixtures' scripts ─────────────────────────────────────────

interface ScriptResponse {
  text?: string;
  thinking?: string;
  toolCalls?: { id: string; name: string; arguments: unknown }[];
}

/** Chat chunks as the fixtures' fake server streamed them (8-character pieces). */
function chatChunks(script: ScriptResponse, id: string, usage: { input: number; output: number }): (object | string)[] {
  const out: (object | string)[] = [chunk({ role: "assistant" }, null, id)];
  for (const piece of pieces(script.thinking ?? "")) out.push(chunk({ reasoning_content: piece }, null, id));
  for (const piece of pieces(script.text ?? "")) out.push(chunk({ content: piece }, null, id));
  (script.toolCalls ?? []).forEach((call, index) => {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }, null, id));
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    for (const piece of pieces(args)) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null, id));
  });
  out.push(chunk({}, script.toolCalls?.length ? "tool_calls" : "stop", id));
  out.push(usageChunk(usage.input, usage.output, 0, id));
  out.push("[DONE]");
  return out;
}

function readJsonl(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
}

/** Pi's assistant messages of a `--mode json` run: their `message_update` events and final message. */
function piTurns(eventsFile: string, dir = FIXTURES): { updates: Record<string, unknown>[]; message: Record<string, unknown> }[] {
  const turns: { updates: Record<string, unknown>[]; message: Record<string, unknown> }[] = [];
  let updates: Record<string, unknown>[] = [];
  for (const line of readJsonl(join(dir, "wire", eventsFile))) {
    if (line.type === "message_update") updates.push(line.assistantMessageEvent as Record<string, unknown>);
    if (line.type === "message_end" && (line.message as { role: string }).role === "assistant") {
      turns.push({ updates, message: line.message as Record<string, unknown> });
      updates = [];
    }
  }
  return turns;
}

/**
 * An event without its (live, timing-dependent) `partial` snapshot, nor the `id`/`toolName` Pi
 * 0.87's wire form adds to `toolcall_start` (pig adds them at the output edge: wire-event.ts).
 */
function shape(event: Record<string, unknown>): Record<string, unknown> {
  const { partial: _partial, ...rest } = event;
  if (rest.type === "toolcall_start") {
    const { id: _id, toolName: _name, ...bare } = rest;
    return bare;
  }
  return rest;
}

/** A finished answer as Pi 0.73.1 stored it: without the provider's own stop reason and the reasoning count 0.87 added. */
function asPi073Message(message: Record<string, unknown>): Record<string, unknown> {
  const { rawStopReason: _raw, ...rest } = message;
  const { reasoning: _reasoning, ...usage } = rest.usage as Record<string, unknown>;
  return { ...rest, usage };
}

function withoutTimestamp(message: object): Record<string, unknown> {
  const { timestamp: _t, ...rest } = message as Record<string, unknown>;
  return rest;
}

describe("openai-completions replays Pi's event streams", () => {
  for (const [version, fixture, scriptPath, images] of [
    ["0.87.1", "02-builtin-tools.events.jsonl", join(FIXTURES_087, "02-builtin-tools.script.json"), false],
    ["0.73.1", "02-builtin-tools.events.jsonl", join(FIXTURES, "wire", "02-builtin-tools.script.json"), false],
    ["0.73.1", "13-images.events.jsonl", join(FIXTURES, "wire", "13-images.script.json"), true],
  ] as const) {
    test(`Pi ${version} ${fixture}: same events and final messages, turn by turn`, async () => {
      const script = JSON.parse(readFileSync(scriptPath, "utf8")) as { responses: ScriptResponse[] };
      const turns = piTurns(fixture, version === "0.87.1" ? FIXTURES_087 : FIXTURES);
      const asPi = (m: Record<string, unknown>) => (version === "0.73.1" ? asPi073Message(m) : m);
      expect(turns.length).toBe(script.responses.length);
      for (let i = 0; i < turns.length; i++) {
        const pi = turns[i]!;
        const usage = pi.message.usage as { input: number; output: number };
        replies.push(sse(chatChunks(script.responses[i]!, pi.message.responseId as string, usage)));
        const events = await collect(streamOpenAICompletions, model({ input: images ? ["text", "image"] : ["text"] }));
        expect(events[0]!.type).toBe("start");
        expect(events[events.length - 1]!.type).toBe("done");
        const updates = events.slice(1, -1).map((e) => shape(e as never));
        expect(updates).toEqual(pi.updates.map(shape));
        const message = asPi(final(events) as unknown as Record<string, unknown>);
        expect(withoutTimestamp(message)).toEqual(withoutTimestamp(pi.message));
        expect(Object.keys(message)).toEqual(Object.keys(pi.message));
        expect(JSON.stringify(withoutTimestamp(message))).toBe(JSON.stringify(withoutTimestamp(pi.message)));
      }
    });
  }
});

// ── chat: details ───────────────────────────────────────────────────────────

describe("openai-completions streaming", () => {
  test("text: start, deltas, end, done; usage without cached tokens in input, cost from $/Mtok", async () => {
    replies.push(
      sse([
        chunk({ role: "assistant", content: "" }),
        chunk({ content: "Hello" }),
        chunk({ content: ", world" }),
        chunk({}, "stop"),
        usageChunk(1000, 50, 200),
        "[DONE]",
      ]),
    );
    const priced = model({ cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } });
    const events = await collect(streamOpenAICompletions, priced);
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "done"]);
    const message = final(events);
    expect(message.content).toEqual([{ type: "text", text: "Hello, world" }]);
    expect(message.stopReason).toBe("stop");
    expect(message.responseId).toBe("chatcmpl-test-1");
    expect(message.usage.input).toBe(800);
    expect(message.usage.cacheRead).toBe(200);
    expect(message.usage.output).toBe(50);
    expect(message.usage.totalTokens).toBe(1050);
    expect(message.usage.cost.input).toBeCloseTo((800 * 3) / 1e6, 12);
    expect(message.usage.cost.output).toBeCloseTo((50 * 15) / 1e6, 12);
    expect(message.usage.cost.cacheRead).toBeCloseTo((200 * 0.3) / 1e6, 12);
    expect(message.usage.cost.total).toBeCloseTo((800 * 3 + 50 * 15 + 200 * 0.3) / 1e6, 12);
    expect(Object.keys(message)).toEqual(["role", "content", "api", "provider", "model", "usage", "stopReason", "timestamp", "responseId", "rawStopReason"]);
  });

  test("sends the built body with Authorization and the caller's headers", async () => {
    replies.push(sse([chunk({ content: "ok" }, "stop"), "[DONE]"]));
    const m = model({ headers: { "x-model-header": "m" } });
    const options = { apiKey: "secret-key", headers: { "x-extra": "1" }, sessionId: "sess-1" };
    await collect(streamOpenAICompletions, m, options);
    expect(seen.length).toBe(1);
    expect(seen[0]!.path).toBe("/v1/chat/completions");
    expect(seen[0]!.headers.authorization).toBe("Bearer secret-key");
    expect(seen[0]!.headers["x-extra"]).toBe("1");
    expect(seen[0]!.headers["x-model-header"]).toBe("m");
    expect(seen[0]!.headers["x-stainless-retry-count"]).toBe("0");
    expect(JSON.stringify(seen[0]!.body)).toBe(JSON.stringify(buildCompletionsRequest(m, USER_CONTEXT, { apiKey: "secret-key" }).body));
  });

  test("a keyless server gets no Authorization header", async () => {
    replies.push(sse([chunk({ content: "ok" }, "stop"), "[DONE]"]));
    const events = await collect(streamOpenAICompletions, model(), { apiKey: "" });
    expect(final(events).stopReason).toBe("stop");
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  test("thinking in any of the reasoning fields, then parallel tool calls with chunked, interleaved arguments", async () => {
    replies.push(
      sse([
        chunk({ reasoning: "Let me " }),
        chunk({ reasoning: "think." }),
        chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read", arguments: "" } }] }),
        chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "bash", arguments: '{"comm' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a.t' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: 'and":"ls -la"}' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'xt","limit":10}' } }] }),
        chunk({}, "tool_calls"),
        usageChunk(10, 5),
        "[DONE]",
      ]),
    );
    const partialArgs: unknown[] = [];
    const events = await collect(streamOpenAICompletions, model({ reasoning: true }), { reasoning: "high" }, USER_CONTEXT, (e) => {
      if (e.type === "toolcall_delta" && e.contentIndex === 1) partialArgs.push(structuredClone((e.partial.content[1] as { arguments: unknown }).arguments));
    });
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_delta",
      "thinking_end",
      "toolcall_end",
      "toolcall_end",
      "done",
    ]);
    expect(partialArgs).toEqual([{}, { path: "a.t" }, { path: "a.txt", limit: 10 }]);
    const message = final(events);
    expect(message.stopReason).toBe("toolUse");
    expect(message.content).toEqual([
      { type: "thinking", thinking: "Let me think.", thinkingSignature: "reasoning" },
      { type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt", limit: 10 } },
      { type: "toolCall", id: "call_b", name: "bash", arguments: { command: "ls -la" } },
    ]);
    const ends = events.filter((e) => e.type === "toolcall_end");
    expect(ends.map((e) => e.type === "toolcall_end" && e.toolCall.arguments)).toEqual([{ path: "a.txt", limit: 10 }, { command: "ls -la" }]);
  });

  test("a partial tool call carries parsed arguments while it streams", async () => {
    replies.push(
      sse([
        chunk({ tool_calls: [{ index: 0, id: "call_w", type: "function", function: { name: "write", arguments: '{"path":"x.txt","content":"hel' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'lo"}' } }] }),
        chunk({}, "tool_calls"),
        "[DONE]",
      ]),
    );
    const seenArgs: unknown[] = [];
    await collect(streamOpenAICompletions, model(), {}, USER_CONTEXT, (e) => {
      if (e.type === "toolcall_delta") {
        const block = e.partial.content[0] as unknown as Record<string, unknown>;
        seenArgs.push([structuredClone(block.arguments), block.partialArgs]);
      }
      if (e.type === "toolcall_end") {
        expect(Object.keys(e.toolCall)).toEqual(["type", "id", "name", "arguments"]);
      }
    });
    expect(seenArgs).toEqual([
      [{ path: "x.txt", content: "hel" }, '{"path":"x.txt","content":"hel'],
      [{ path: "x.txt", content: "hello" }, '{"path":"x.txt","content":"hello"}'],
    ]);
  });

  test("HTTP 429 with retry-after above maxRetryDelayMs: a clear error and the delay on the event", async () => {
    replies.push(httpError(429, "Rate limit reached (fake)", { "retry-after": "120" }));
    const events = await collect(streamOpenAICompletions, model(), { maxRetries: 3, maxRetryDelayMs: 60_000 });
    expect(events.map((e) => e.type)).toEqual(["error"]);
    const event = events[0] as AssistantMessageEvent & { retryAfterMs?: number };
    expect(event.type === "error" && event.reason).toBe("error");
    expect(event.retryAfterMs).toBe(120_000);
    const message = final(events);
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe(
      "429 Rate limit reached (fake). Server asked to retry after 120s, more than the configured maximum of 60s (retry.provider.maxRetryDelayMs)",
    );
    expect(message.content).toEqual([]);
    expect(seen.length).toBe(1); // the SDK did not retry
  });

  test("HTTP 429 without a cap: the SDK text as upstream, and the requested delay", async () => {
    replies.push(httpError(429, "Rate limit reached (fake)", { "retry-after-ms": "1500" }));
    const events = await collect(streamOpenAICompletions, model());
    const event = events[0] as AssistantMessageEvent & { retryAfterMs?: number };
    expect(final(events).errorMessage).toBe("429 Rate limit reached (fake)");
    expect(event.retryAfterMs).toBe(1500);
    expect(Object.keys(final(events))).toEqual(["role", "content", "api", "provider", "model", "usage", "stopReason", "timestamp", "errorMessage"]);
  });

  test("SDK retries (options.maxRetries) within maxRetryDelayMs", async () => {
    replies.push(httpError(429, "slow down", { "retry-after-ms": "10" }));
    replies.push(sse([chunk({ content: "second time" }, "stop"), "[DONE]"]));
    const events = await collect(streamOpenAICompletions, model(), { maxRetries: 1, maxRetryDelayMs: 60_000 });
    expect(final(events).content).toEqual([{ type: "text", text: "second time" }]);
    expect(seen.length).toBe(2);
  });

  test("HTTP 500", async () => {
    replies.push(httpError(500, "Internal fake failure"));
    const events = await collect(streamOpenAICompletions, model());
    expect(events.length).toBe(1);
    expect(final(events).errorMessage).toBe("500 Internal fake failure");
    expect((events[0] as { retryAfterMs?: number }).retryAfterMs).toBeUndefined();
  });

  test("an in-stream error keeps the text so far (fixture 04)", async () => {
    replies.push(
      sse([
        chunk({ content: "partial " }, null, "chatcmpl-fake-mx2xkb813"),
        chunk({ content: "then boom" }, null, "chatcmpl-fake-mx2xkb813"),
        { error: { message: "fake mid-stream failure", type: "server_error", code: "fake_mid_stream_error" } },
      ]),
    );
    const events = await collect(streamOpenAICompletions, model());
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    const message = final(events);
    expect(withoutTimestamp(message)).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "partial then boom" }],
      api: "openai-completions",
      provider: "fake",
      model: "fake-model",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "error",
      responseId: "chatcmpl-fake-mx2xkb813",
      errorMessage: "fake mid-stream failure",
    });
  });

  test("a stream with no event at all is an error, not an empty answer", async () => {
    replies.push(sse(["[DONE]"]));
    expect(final(await collect(streamOpenAICompletions, model()))).toMatchObject({ stopReason: "error", errorMessage: "Stream ended without any event from the server" });
  });

  test("an event that is not JSON is reported as a malformed stream", async () => {
    replies.push(sse(['{"choices":[{"delta":']));
    expect(final(await collect(streamOpenAICompletions, model())).errorMessage).toStartWith("Malformed event stream: JSON Parse error");
  });

  test("tool arguments cut off in a finished answer are reported on the done event", async () => {
    replies.push(
      sse([
        chunk({ tool_calls: [{ index: 0, id: "call_c", type: "function", function: { name: "write", arguments: '{"path":"a.txt",' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"content":"hal' } }] }),
        chunk({}, "tool_calls"),
        "[DONE]",
      ]),
    );
    const done = (await collect(streamOpenAICompletions, model())).at(-1) as Extract<AssistantMessageEvent, { type: "done" }>;
    expect(done.type).toBe("done");
    expect(done.invalidArguments).toEqual([{ contentIndex: 0, text: '{"path":"a.txt","content":"hal' }]);
    expect(done.message.content[0]).toMatchObject({ type: "toolCall", arguments: { path: "a.txt", content: "hal" } });
  });

  test("a content_filter finish is an error", async () => {
    replies.push(sse([chunk({ content: "abc" }), chunk({}, "content_filter"), "[DONE]"]));
    const message = final(await collect(streamOpenAICompletions, model()));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe("Provider finish_reason: content_filter");
  });

  test("abort mid-stream: stopReason aborted, 'Request was aborted', partial content kept", async () => {
    replies.push(sse([chunk({ content: "This " }), chunk({ content: "strea" }), chunk({ content: "m wil" })], { stallAfter: 3 }));
    const controller = new AbortController();
    let deltas = 0;
    const events = await collect(streamOpenAICompletions, model(), { signal: controller.signal }, USER_CONTEXT, (e) => {
      if (e.type === "text_delta" && ++deltas === 3) controller.abort();
    });
    const last = events[events.length - 1]!;
    expect(last.type === "error" && last.reason).toBe("aborted");
    const message = final(events);
    expect(message.stopReason).toBe("aborted");
    expect(message.errorMessage).toBe("Request was aborted");
    expect(message.content).toEqual([{ type: "text", text: "This stream wil" }]);
    expect(message.responseId).toBe("chatcmpl-test-1");
  });

  test("abort before the answer arrives", async () => {
    const arrived = signal();
    replies.push((request) => {
      arrived.resolve();
      return holdUntilClientLeaves(request);
    });
    const controller = new AbortController();
    void arrived.promise.then(() => controller.abort());
    const events = await collect(streamOpenAICompletions, model(), { signal: controller.signal });
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(final(events).stopReason).toBe("aborted");
    expect(final(events).errorMessage).toBe("Request was aborted");
  });

  test("an already aborted signal", async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await collect(streamOpenAICompletions, model(), { signal: controller.signal });
    expect(events.length).toBe(1);
    expect(final(events).stopReason).toBe("aborted");
  });

  test("a refused connection is an error event, not a throw", async () => {
    const events = await collect(streamOpenAICompletions, model({ baseUrl: "http://127.0.0.1:1/v1" }));
    expect(events.length).toBe(1);
    expect(final(events).stopReason).toBe("error");
    expect(final(events).errorMessage).toMatch(/^Connection error\. \(ECONNREFUSED\b/);
  });

  test("request timeout (options.timeoutMs)", async () => {
    replies.push(holdUntilClientLeaves);
    const events = await collect(streamOpenAICompletions, model(), { timeoutMs: 100 });
    expect(final(events).stopReason).toBe("error");
    expect(final(events).errorMessage).toBe("Request timed out.");
  });
});

// ── a connection cut mid-stream (raw TCP, Bun.serve cannot drop a socket) ───

describe("a stream the server cuts off", () => {
  let tcp: NetServer;
  let port = 0;
  let body = "";
  /** The server drops the connection once the client has shown the text it sent. */
  let seenText = signal();
  const onEvent = (event: AssistantMessageEvent) => {
    if (event.type === "text_delta") seenText.resolve();
  };

  async function listen(): Promise<void> {
    tcp = createServer((socket) => {
      socket.once("data", () => {
        socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n");
        socket.write(`${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n`);
        const seen = seenText;
        void seen.promise.then(() => socket.destroy());
      });
    });
    seenText = signal();
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", () => resolve()));
    port = (tcp.address() as { port: number }).port;
  }
  afterAll(() => tcp?.close());

  test("chat: stopReason error, 'terminated' (as upstream under Node), partial text kept", async () => {
    body = `data: ${JSON.stringify(chunk({ content: "half an ans" }))}\n\n`;
    await listen();
    const events = await collect(streamOpenAICompletions, model({ baseUrl: `http://127.0.0.1:${port}/v1` }), {}, USER_CONTEXT, onEvent);
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "error"]);
    const message = final(events);
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe("terminated");
    expect(message.content).toEqual([{ type: "text", text: "half an ans" }]);
    tcp.close();
  });

  test("responses: the same", async () => {
    body =
      `event: response.created\ndata: ${JSON.stringify({ type: "response.created", response: { id: "resp_cut", status: "in_progress" } })}\n\n` +
      `event: response.output_item.added\ndata: ${JSON.stringify({ type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", content: [] } })}\n\n` +
      `event: response.output_text.delta\ndata: ${JSON.stringify({ type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "half" })}\n\n`;
    await listen();
    const events = await collect(streamOpenAIResponses, model({ api: "openai-responses", baseUrl: `http://127.0.0.1:${port}/v1` }), {}, USER_CONTEXT, onEvent);
    const message = final(events);
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe("terminated");
    expect(message.content).toEqual([{ type: "text", text: "half" }]);
    expect(message.responseId).toBe("resp_cut");
    tcp.close();
  });
});

// ── responses ───────────────────────────────────────────────────────────────

interface ResponsesIds {
  response: string;
  reasoning?: string;
  message?: string;
  calls?: string[];
}

/** Responses events as the fixtures' fake server streamed them (8-character pieces). */
function responsesEvents(script: ScriptResponse, ids: ResponsesIds, usage: { input: number; output: number }): object[] {
  const out: object[] = [];
  const ev = (type: string, data: Record<string, unknown>) => out.push({ event: type, data: { type, ...data } });
  ev("response.created", { response: { id: ids.response, object: "response", status: "in_progress", model: "fake-reasoner", output: [] } });
  let index = 0;
  if (script.thinking) {
    const id = ids.reasoning!;
    ev("response.output_item.added", { output_index: index, item: { id, type: "reasoning", summary: [] } });
    ev("response.reasoning_summary_part.added", { item_id: id, output_index: index, summary_index: 0, part: { type: "summary_text", text: "" } });
    for (const piece of pieces(script.thinking)) {
      ev("response.reasoning_summary_text.delta", { item_id: id, output_index: index, summary_index: 0, delta: piece });
    }
    ev("response.reasoning_summary_text.done", { item_id: id, output_index: index, summary_index: 0, text: script.thinking });
    ev("response.reasoning_summary_part.done", { item_id: id, output_index: index, summary_index: 0, part: { type: "summary_text", text: script.thinking } });
    ev("response.output_item.done", { output_index: index, item: { id, type: "reasoning", summary: [{ type: "summary_text", text: script.thinking }] } });
    index++;
  }
  if (script.text) {
    const id = ids.message!;
    ev("response.output_item.added", { output_index: index, item: { id, type: "message", status: "in_progress", role: "assistant", content: [] } });
    ev("response.content_part.added", { item_id: id, output_index: index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
    for (const piece of pieces(script.text)) ev("response.output_text.delta", { item_id: id, output_index: index, content_index: 0, delta: piece });
    ev("response.output_text.done", { item_id: id, output_index: index, content_index: 0, text: script.text });
    ev("response.output_item.done", {
      output_index: index,
      item: { id, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: script.text, annotations: [] }] },
    });
    index++;
  }
  (script.toolCalls ?? []).forEach((call, i) => {
    const id = ids.calls![i]!;
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    ev("response.output_item.added", { output_index: index, item: { id, type: "function_call", status: "in_progress", call_id: call.id, name: call.name, arguments: "" } });
    for (const piece of pieces(args)) ev("response.function_call_arguments.delta", { item_id: id, output_index: index, delta: piece });
    ev("response.function_call_arguments.done", { item_id: id, output_index: index, arguments: args });
    ev("response.output_item.done", { output_index: index, item: { id, type: "function_call", status: "completed", call_id: call.id, name: call.name, arguments: args } });
    index++;
  });
  ev("response.completed", {
    response: {
      id: ids.response,
      object: "response",
      status: "completed",
      model: "fake-reasoner",
      usage: { input_tokens: usage.input, output_tokens: usage.output, total_tokens: usage.input + usage.output, input_tokens_details: { cached_tokens: 0 } },
    },
  });
  return out;
}

function responsesModel(overrides: Partial<Model> = {}): Model {
  return model({ id: "fake-reasoner", name: "fake-reasoner", api: "openai-responses", reasoning: true, ...overrides });
}

describe("openai-responses streaming", () => {
  test("12-openai-responses: same events and final messages as Pi, turn by turn", async () => {
    const script = JSON.parse(readFileSync(join(FIXTURES, "wire", "12-openai-responses.script.json"), "utf8")) as { responses: ScriptResponse[] };
    const turns = piTurns("12-openai-responses.events.jsonl");
    expect(turns.length).toBe(2);
    for (let i = 0; i < turns.length; i++) {
      const pi = turns[i]!;
      const content = pi.message.content as { type: string; thinkingSignature?: string; textSignature?: string; id?: string }[];
      const ids: ResponsesIds = {
        response: pi.message.responseId as string,
        reasoning: JSON.parse(content.find((b) => b.type === "thinking")!.thinkingSignature!).id,
        message: JSON.parse(content.find((b) => b.type === "text")!.textSignature!).id,
        calls: content.filter((b) => b.type === "toolCall").map((b) => b.id!.split("|")[1]!),
      };
      const usage = pi.message.usage as { input: number; output: number };
      replies.push(sse(responsesEvents(script.responses[i]!, ids, usage)));
      const events = await collect(streamOpenAIResponses, responsesModel(), { reasoning: "high", sessionId: "sess-12" });
      expect(events[0]!.type).toBe("start");
      expect(events[events.length - 1]!.type).toBe("done");
      expect(events.slice(1, -1).map((e) => shape(e as never))).toEqual(pi.updates.map(shape));
      const message = asPi073Message(final(events) as unknown as Record<string, unknown>);
      expect(JSON.stringify(withoutTimestamp(message))).toBe(JSON.stringify(withoutTimestamp(pi.message)));
      expect(seen[i]!.path).toBe("/v1/responses");
      expect(seen[i]!.headers.session_id).toBe("sess-12");
      expect(seen[i]!.headers["x-client-request-id"]).toBe("sess-12");
    }
  });

  test("multi-part summaries are joined with a blank line; cached input tokens; length", async () => {
    const ev = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, ...data } });
    replies.push(
      sse([
        ev("response.created", { response: { id: "resp_1", status: "in_progress" } }),
        ev("response.output_item.added", { output_index: 0, item: { id: "rs_1", type: "reasoning", summary: [] } }),
        ev("response.reasoning_summary_part.added", { output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } }),
        ev("response.reasoning_summary_text.delta", { output_index: 0, summary_index: 0, delta: "One." }),
        ev("response.reasoning_summary_part.added", { output_index: 0, summary_index: 1, part: { type: "summary_text", text: "" } }),
        ev("response.reasoning_summary_text.delta", { output_index: 0, summary_index: 1, delta: "Two." }),
        ev("response.output_item.done", {
          output_index: 0,
          item: { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "One." }, { type: "summary_text", text: "Two." }], encrypted_content: "enc" },
        }),
        ev("response.incomplete", {
          response: { id: "resp_1", status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, usage: { input_tokens: 100, output_tokens: 7, total_tokens: 107, input_tokens_details: { cached_tokens: 60 } } },
        }),
      ]),
    );
    const events = await collect(streamOpenAIResponses, responsesModel({ cost: { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 0 } }), { reasoning: "low" });
    expect(events.filter((e) => e.type === "thinking_delta").map((e) => e.type === "thinking_delta" && e.delta)).toEqual(["One.", "\n\n", "Two."]);
    const message = final(events);
    expect(message.stopReason).toBe("length");
    expect(message.content).toEqual([
      {
        type: "thinking",
        thinking: "One.\n\nTwo.",
        thinkingSignature: JSON.stringify({ id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "One." }, { type: "summary_text", text: "Two." }], encrypted_content: "enc" }),
      },
    ]);
    expect(message.usage).toMatchObject({ input: 40, output: 7, cacheRead: 60, cacheWrite: 0, totalTokens: 107 });
    expect(message.usage.cost.total).toBeCloseTo((40 * 1 + 7 * 2 + 60 * 0.5) / 1e6, 12);
  });

  test("the tier the response reports prices the usage, as Pi 0.87.1 does: flex half, priority double", async () => {
    const ev = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, ...data } });
    const usage = { input_tokens: 100, output_tokens: 10, total_tokens: 110, input_tokens_details: { cached_tokens: 0 } };
    const answer = (tier: string) =>
      sse([
        ev("response.created", { response: { id: "resp_t", status: "in_progress" } }),
        ev("response.output_item.added", { output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", content: [] } }),
        ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "ok" }),
        ev("response.completed", { response: { id: "resp_t", status: "completed", service_tier: tier, usage } }),
      ]);
    const priced = { cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } };
    const base = (100 * 1 + 10 * 2) / 1e6;
    for (const [tier, factor] of [["default", 1], ["flex", 0.5], ["priority", 2]] as const) {
      replies.push(answer(tier));
      const message = final(await collect(streamOpenAIResponses, responsesModel(priced)));
      expect([tier, message.stopReason]).toEqual([tier, "stop"]);
      expect(message.usage.cost.total).toBeCloseTo(base * factor, 12);
    }
  });

  test("response.failed keeps the partial content and reports code: message", async () => {
    const ev = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, ...data } });
    replies.push(
      sse([
        ev("response.created", { response: { id: "resp_f", status: "in_progress" } }),
        ev("response.output_item.added", { output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", content: [] } }),
        ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "partial" }),
        ev("response.failed", { response: { id: "resp_f", status: "failed", error: { code: "server_error", message: "fake mid-stream failure" } } }),
      ]),
    );
    const message = final(await collect(streamOpenAIResponses, responsesModel()));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe("server_error: fake mid-stream failure");
    expect(message.content).toEqual([{ type: "text", text: "partial" }]);
    expect(message.responseId).toBe("resp_f");
  });

  test("HTTP 429 with retry-after above the cap", async () => {
    replies.push(httpError(429, "Too many requests", { "retry-after": "90" }));
    const events = await collect(streamOpenAIResponses, responsesModel(), { maxRetryDelayMs: 30_000 });
    expect(events.length).toBe(1);
    expect((events[0] as { retryAfterMs?: number }).retryAfterMs).toBe(90_000);
    expect(final(events).errorMessage).toBe(
      "429 Too many requests. Server asked to retry after 90s, more than the configured maximum of 30s (retry.provider.maxRetryDelayMs)",
    );
  });

  test("abort mid-stream", async () => {
    const ev = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, ...data } });
    replies.push(
      sse(
        [
          ev("response.created", { response: { id: "resp_a", status: "in_progress" } }),
          ev("response.output_item.added", { output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", content: [] } }),
          ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "so far" }),
        ],
        { stallAfter: 3 },
      ),
    );
    const controller = new AbortController();
    const events = await collect(streamOpenAIResponses, responsesModel(), { signal: controller.signal }, USER_CONTEXT, (e) => {
      if (e.type === "text_delta") controller.abort();
    });
    const message = final(events);
    expect(message.stopReason).toBe("aborted");
    expect(message.errorMessage).toBe("Request was aborted");
    expect(message.content).toEqual([{ type: "text", text: "so far" }]);
  });

  test("sends the built body", async () => {
    replies.push(sse([{ event: "response.completed", data: { type: "response.completed", response: { id: "r", status: "completed" } } }]));
    const m = responsesModel();
    await collect(streamOpenAIResponses, m, { reasoning: "medium", sessionId: "s-1" });
    expect(JSON.stringify(seen[0]!.body)).toBe(JSON.stringify(buildResponsesRequest(m, USER_CONTEXT, { apiKey: "x", reasoning: "medium", sessionId: "s-1" }).body));
    expect(seen[0]!.body.reasoning).toEqual({ effort: "medium", summary: "auto" });
  });
});
