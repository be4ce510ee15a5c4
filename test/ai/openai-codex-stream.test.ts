/**
 * Streaming from the ChatGPT Codex endpoint against the fake server on loopback: the events and
 * final message of an answer, usage priced by service tier, the Codex-only events
 * (`response.done`, `error`, `response.failed`), a broken stream, HTTP errors with the server's
 * wait, a refused request, and an abort mid-stream.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { streamOpenAICodexResponses } from "../../src/ai/providers/openai-codex-responses.ts";
import type { AssistantMessageEvent, Model, StreamOptions } from "../../src/ai/types.ts";
import { fakeCodexToken } from "../helpers/fake-jwt.ts";
import { startFakeLlm, type FakeLlm, type Script } from "../helpers/fake-llm/server.ts";
import { collectEvents, finalMessage as last } from "../helpers/stream-events.ts";

const servers: FakeLlm[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(script: Script): Promise<FakeLlm> {
  const llm = await startFakeLlm({ script });
  servers.push(llm);
  return llm;
}

function model(llm: FakeLlm, id = "gpt-5.5"): Model {
  return {
    id,
    name: id,
    api: "openai-codex-responses",
    provider: "openai-codex",
    baseUrl: `${llm.url}/backend-api`,
    reasoning: true,
    input: ["text"],
    cost: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0 },
    contextWindow: 272000,
    maxTokens: 128000,
  };
}

const CONTEXT = { systemPrompt: "Be brief.", messages: [{ role: "user" as const, content: "hi", timestamp: 0 }] };

function collect(llm: FakeLlm, options: Partial<StreamOptions> = {}, id?: string): Promise<AssistantMessageEvent[]> {
  return collectEvents(streamOpenAICodexResponses(model(llm, id), CONTEXT, { apiKey: fakeCodexToken(), reasoning: "high", ...options }));
}

/** A raw event stream: each payload as a `data:` line. */
function sse(...events: object[]): Script {
  return [{ raw: { contentType: "text/event-stream", body: events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") } }];
}

const ITEM = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Hi.", annotations: [] }] };
const USAGE = { input_tokens: 100, output_tokens: 10, total_tokens: 110, input_tokens_details: { cached_tokens: 40 } };

describe("a Codex answer", () => {
  test("thinking and text stream as events; the message keeps signatures, usage and cost", async () => {
    const llm = await server([{ thinking: "Greet back.", text: "Hello there.", usage: { prompt_tokens: 100, completion_tokens: 10, cached_tokens: 40 } }]);
    const events = await collect(llm, { sessionId: "session-1" });
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
    expect(message).toMatchObject({
      api: "openai-codex-responses",
      stopReason: "stop",
      content: [{ type: "thinking", thinking: "Greet back." }, { type: "text", text: "Hello there." }],
      usage: { input: 60, output: 10, cacheRead: 40, totalTokens: 110 },
    });
    expect(message.usage.cost.total).toBeCloseTo((60 * 5 + 10 * 30 + 40 * 0.5) / 1e6, 12);
    const [request] = llm.requests;
    expect(request!.headers["content-encoding"]).toBe("zstd");
    expect(request!.headers["session-id"]).toBe("session-1");
    expect(request!.body).toMatchObject({ instructions: "Be brief.", prompt_cache_key: "session-1" });
  });

  test("response.done ends the answer as response.completed does; a priority tier costs double", async () => {
    const llm = await server(
      sse(
        { type: "response.created", response: { id: "resp_1", status: "in_progress" } },
        { type: "response.output_item.added", output_index: 0, item: { ...ITEM, status: "in_progress", content: [] } },
        { type: "response.output_text.delta", output_index: 0, delta: "Hi." },
        { type: "response.output_item.done", output_index: 0, item: ITEM },
        { type: "response.done", response: { id: "resp_1", status: "completed", service_tier: "priority", usage: USAGE } },
        { type: "response.output_text.delta", output_index: 0, delta: " (after the end: ignored)" },
      ),
    );
    const message = last(await collect(llm, {}, "gpt-5.4"));
    expect(message).toMatchObject({ stopReason: "stop", responseId: "resp_1", content: [{ type: "text", text: "Hi." }] });
    expect(message.usage.cost.total).toBeCloseTo((2 * (60 * 5 + 10 * 30 + 40 * 0.5)) / 1e6, 12);
  });

  test("an unknown status counts as none: the answer stops normally", async () => {
    const llm = await server(sse({ type: "response.completed", response: { status: "mysterious", usage: USAGE } }));
    expect(last(await collect(llm))).toMatchObject({ stopReason: "stop" });
  });
});

describe("failures end in one error event with a complete message", () => {
  test.each([
    ["an error event", { type: "error", code: "context_length_exceeded", message: "Your input exceeds the context window" }, "Codex error: Your input exceeds the context window"],
    ["an error event with only a nested code", { type: "error", error: { code: "server_is_overloaded" } }, "Codex error: server_is_overloaded"],
    ["response.failed", { type: "response.failed", response: { error: { code: "server_error", message: "The model crashed" } } }, "The model crashed"],
    ["response.failed without details", { type: "response.failed", response: {} }, "Codex response failed"],
  ])("%s", async (_, event, message) => {
    const llm = await server(sse({ type: "response.created", response: { id: "r" } }, event));
    const events = await collect(llm);
    expect(events.at(-1)).toMatchObject({ type: "error", reason: "error", error: { stopReason: "error", errorMessage: message } });
    expect(events.filter((e) => e.type === "error" || e.type === "done")).toHaveLength(1);
  });

  test("a stream that is not JSON, and one that ends before its response does", async () => {
    const bad = await server([{ raw: { contentType: "text/event-stream", body: "data: {not json\n\n" } }]);
    expect(last(await collect(bad)).errorMessage).toStartWith("Invalid Codex SSE JSON:");
    const cut = await server(sse({ type: "response.created", response: { id: "r" } }));
    expect(last(await collect(cut)).errorMessage).toBe("Codex stream ended without a stop reason");
  });

  test("a connection cut mid-stream reads terminated, which the retry rules know", async () => {
    const llm = await server([{ text: "a long answer that never ends", chunkSize: 4, disconnectAfterChunks: 5 }]);
    const events = await collect(llm);
    expect(events.at(-1)).toMatchObject({ type: "error", reason: "error", error: { errorMessage: "terminated", content: [{ type: "text", text: "a lo" }] } });
  });

  test("an HTTP error keeps the server's requested wait for the retry loop", async () => {
    const llm = await server([{ error: { status: 503, message: "Overloaded, try later", headers: { "retry-after": "7" } } }]);
    const events = await collect(llm);
    expect(events.at(-1)).toMatchObject({ type: "error", retryAfterMs: 7000, error: { errorMessage: "503 Overloaded, try later" } });
  });

  test("a wait longer than allowed says so", async () => {
    const llm = await server([{ error: { status: 429, message: "Slow down", code: "rate_limit_exceeded", headers: { "retry-after": "120" } } }]);
    const events = await collect(llm, { maxRetryDelayMs: 5000 });
    expect(events.at(-1)).toMatchObject({ type: "error", retryDelayTooLong: true });
    expect(last(events).errorMessage).toStartWith("Server requested 120s retry delay (max: 5s). You have hit your ChatGPT usage limit");
  });

  test("a refused sign-in: the server's 401 and how to sign in again; the token is never in the message", async () => {
    const llm = await server([{ text: "never" }]);
    const token = fakeCodexToken("acct_other");
    const events: AssistantMessageEvent[] = [];
    // A header hook naming another account makes the fake backend refuse the request, as the real one refuses a stale sign-in.
    const onHeaders = async () => ({ "chatgpt-account-id": "acct_wrong" });
    for await (const e of streamOpenAICodexResponses(model(llm), CONTEXT, { apiKey: token, onHeaders })) events.push(e);
    const message = last(events);
    expect(message.errorMessage).toBe("401 chatgpt-account-id does not match the token. Your ChatGPT sign-in was refused: run /login openai-codex to sign in again");
    expect(message.errorMessage).not.toContain(token);
  });

  test("no credential at all names the provider and /login", async () => {
    const llm = await server([{ text: "never" }]);
    const events: AssistantMessageEvent[] = [];
    for await (const e of streamOpenAICodexResponses(model(llm), CONTEXT, { apiKey: "" })) events.push(e);
    expect(last(events).errorMessage).toBe("No ChatGPT sign-in for openai-codex: run /login openai-codex");
    expect(llm.requests).toHaveLength(0);
  });

  test("an abort mid-stream ends the answer as aborted with what arrived", async () => {
    const llm = await server([{ text: "streaming slowly forever", chunkSize: 4, stallAfterChunks: 5 }]);
    const controller = new AbortController();
    const events: AssistantMessageEvent[] = [];
    for await (const event of streamOpenAICodexResponses(model(llm), CONTEXT, { apiKey: fakeCodexToken(), signal: controller.signal })) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    expect(events.at(-1)).toMatchObject({
      type: "error",
      reason: "aborted",
      error: { stopReason: "aborted", errorMessage: "Request was aborted", content: [{ type: "text", text: "stre" }] },
    });
  });
});
