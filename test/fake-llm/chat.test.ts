/** Chat Completions through the official `openai` SDK, as Pi's openai-completions provider uses it. */
import { afterEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { type FakeLlm, type Script, startFakeLlm } from "../helpers/fake-llm/server.ts";

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function start(script: Script): Promise<{ llm: FakeLlm; client: OpenAI }> {
  llm = await startFakeLlm({ script });
  return { llm, client: new OpenAI({ baseURL: `${llm.url}/v1`, apiKey: "fake-key", maxRetries: 0 }) };
}

const request = {
  model: "fake-model",
  messages: [{ role: "user" as const, content: "hello" }],
  stream: true as const,
  stream_options: { include_usage: true },
};

async function collect(client: OpenAI, body: OpenAI.Chat.ChatCompletionCreateParamsStreaming = request) {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of await client.chat.completions.create(body)) chunks.push(chunk);
  return chunks;
}

/** The delta field values in stream order, e.g. every `content` piece. */
function deltas(chunks: ChatCompletionChunk[], key: string): unknown[] {
  return chunks.flatMap((c) => c.choices.map((choice) => (choice.delta as Record<string, unknown>)[key])).filter(
    (value) => value !== undefined && value !== "",
  );
}

describe("chat completions stream", () => {
  test("text in chunkSize pieces after a role chunk, then finish and a usage-only chunk", async () => {
    const { client } = await start([{ text: "Hello! I am the fake model. How can I help?" }]);
    const chunks = await collect(client);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "", refusal: null });
    expect(deltas(chunks, "content")).toEqual(["Hello! I", " am the ", "fake mod", "el. How ", "can I he", "lp?"]);
    expect(chunks.every((c) => /^chatcmpl-fake-[0-9a-z]+$/.test(c.id) && c.id === chunks[0]?.id)).toBe(true);
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "fake-model")).toBe(true);
    const finish = chunks.at(-2);
    expect(finish?.choices[0]?.finish_reason).toBe("stop");
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    // 43 characters of text → ceil(43 / 4); prompt = ceil(raw body length / 4).
    const bodyLength = JSON.stringify(request).length;
    expect(last?.usage).toMatchObject({
      prompt_tokens: Math.ceil(bodyLength / 4),
      completion_tokens: 11,
      total_tokens: Math.ceil(bodyLength / 4) + 11,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    // Every other chunk says usage: null, like the real API with include_usage.
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  test("without include_usage there is no usage chunk and no usage key", async () => {
    const { client } = await start([{ text: "hi" }]);
    const chunks = await collect(client, { model: "m", messages: [{ role: "user", content: "x" }], stream: true });
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.some((c) => "usage" in c)).toBe(false);
  });

  test("thinking goes first, in reasoning_content or the field named by reasoningField", async () => {
    const { client } = await start([
      { thinking: "Let me think.", text: "42" },
      { thinking: "Hmm", text: "ok", reasoningField: "reasoning" },
      { thinking: "Hmm", reasoningField: "reasoning_text" },
    ]);
    const first = await collect(client);
    expect(deltas(first, "reasoning_content")).toEqual(["Let me t", "hink."]);
    expect(deltas(first, "content")).toEqual(["42"]);
    const firstThinking = first.findIndex((c) => c.choices[0]?.delta && "reasoning_content" in c.choices[0].delta);
    const firstText = first.findIndex((c) => c.choices[0]?.delta.content === "42");
    expect(firstThinking).toBeLessThan(firstText);
    expect(first.at(-1)?.usage?.completion_tokens).toBe(Math.ceil(15 / 4));
    expect(deltas(await collect(client), "reasoning")).toEqual(["Hmm"]);
    expect(deltas(await collect(client), "reasoning_text")).toEqual(["Hmm"]);
  });

  test("tool calls: id + name first with empty arguments, then argument pieces; ids made when missing", async () => {
    const { client } = await start([
      {
        text: "Listing.",
        toolCalls: [
          { id: "call_find_1", name: "find", arguments: { pattern: "*.js" } },
          { name: "bash", arguments: '{"command": "ls' },
        ],
      },
    ]);
    const chunks = await collect(client);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toEqual({ index: 0, id: "call_find_1", type: "function", function: { name: "find", arguments: "" } });
    expect(calls.filter((c) => c.index === 0).map((c) => c.function?.arguments).join("")).toBe('{"pattern":"*.js"}');
    expect(calls.filter((c) => c.index === 0 && c.function?.arguments !== "").every((c) => c.id === undefined)).toBe(true);
    const second = calls.filter((c) => c.index === 1);
    expect(second[0]?.id).toMatch(/^call_[0-9a-z]+$/);
    // A raw string is sent as is, even when it is not valid JSON.
    expect(second.map((c) => c.function?.arguments).join("")).toBe('{"command": "ls');
    expect(second.slice(1).map((c) => c.function?.arguments)).toEqual(['{"comman', 'd": "ls']);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("tool_calls");
    // "Listing." + "find" + '{"pattern":"*.js"}' + "bash" + '{"command": "ls' = 8 + 4 + 18 + 4 + 15 → 13 tokens
    expect(chunks.at(-1)?.usage?.completion_tokens).toBe(13);
  });

  test("the SDK's accumulating stream helper assembles the same message", async () => {
    const { client } = await start([
      { text: "Let me look.", toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] },
    ]);
    const completion = await client.chat.completions.stream(request).finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe("Let me look.");
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"notes.txt"}' } },
    ]);
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
  });

  test("chunkSize splits by UTF-16 code units, so an emoji can be cut; joined it is whole again", async () => {
    const { client } = await start({ responses: [{ text: "ab😀cd", chunkSize: 3 }, { text: "xyzw" }], chunkSize: 2 });
    const pieces = deltas(await collect(client), "content") as string[];
    expect(pieces).toEqual(["ab\ud83d", "\ude00cd"]);
    expect(pieces.join("")).toBe("ab😀cd");
    expect(deltas(await collect(client), "content")).toEqual(["xy", "zw"]);
  });

  test("finishReason and usage overrides; cached tokens inside prompt_tokens", async () => {
    const { client } = await start([
      { text: "cut", finishReason: "length", usage: { prompt_tokens: 17000, completion_tokens: 20, cached_tokens: 300 } },
    ]);
    const chunks = await collect(client);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("length");
    expect(chunks.at(-1)?.usage).toMatchObject({
      prompt_tokens: 17000,
      completion_tokens: 20,
      total_tokens: 17020,
      prompt_tokens_details: { cached_tokens: 300 },
    });
  });

  test("midStreamError: the content arrives, then the SDK throws the in-stream error", async () => {
    const { client } = await start([{ text: "partial then boom", midStreamError: "fake mid-stream failure" }]);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of await client.chat.completions.create(request)) {
        const content = chunk.choices[0]?.delta.content;
        if (content) seen.push(content);
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["partial ", "then boo", "m"]);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toBe("fake mid-stream failure");
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toEqual({
      message: "fake mid-stream failure",
      type: "server_error",
      param: null,
      code: "fake_mid_stream_error",
    });
  });

  test("fallback text 'ok' once the responses are used up; model list", async () => {
    const { llm, client } = await start([{ text: "one" }]);
    expect(deltas(await collect(client), "content")).toEqual(["one"]);
    expect(deltas(await collect(client), "content")).toEqual(["ok"]);
    expect(llm.requests.map((r) => r.served)).toEqual([
      { source: "script[0]", kind: "text" },
      { source: "fallback", kind: "text" },
    ]);
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["fake-model"]);
  });
});
