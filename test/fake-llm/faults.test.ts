/** Timing and connection faults: chunkDelayMs, chunkIntervalMs, stallAfterChunks (+ abort), disconnectAfterChunks. */
import { afterEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { type FakeLlm, type FakeLlmOptions, type Script, startFakeLlm } from "../helpers/fake-llm/server.ts";
import { anthropicRequest, rawExchange, rawPost } from "./sse-client.ts";

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function start(script: Script, options: FakeLlmOptions = {}): Promise<{ llm: FakeLlm; client: OpenAI }> {
  llm = await startFakeLlm({ ...options, script });
  return { llm, client: new OpenAI({ baseURL: `${llm.url}/v1`, apiKey: "fake-key", maxRetries: 0 }) };
}

const request = {
  model: "fake-model",
  messages: [{ role: "user" as const, content: "p3: abort me" }],
  stream: true as const,
};

async function chatText(client: OpenAI): Promise<string> {
  let text = "";
  for await (const chunk of await client.chat.completions.create(request)) text += chunk.choices[0]?.delta.content ?? "";
  return text;
}

describe("timing", () => {
  test("chunkDelayMs spaces the chunks", async () => {
    const { client } = await start([{ text: "abcdefghijklmnop", chunkDelayMs: 40 }]);
    const started = performance.now();
    let count = 0;
    for await (const _chunk of await client.chat.completions.create(request)) count += 1;
    // role, 2 text chunks, finish, [DONE]: 5 frames, so 4 waits of 40 ms (a lower bound even under load).
    expect(count).toBe(4);
    expect(performance.now() - started).toBeGreaterThanOrEqual(155);
  });

  test("chunkIntervalMs sends frame i no earlier than i intervals after the first, and the whole text", async () => {
    const { client } = await start([{ text: "abcdefghijklmnop", chunkIntervalMs: 40 }]);
    const started = performance.now();
    let text = "";
    for await (const chunk of await client.chat.completions.create(request)) text += chunk.choices[0]?.delta.content ?? "";
    // role, 2 text chunks, finish, [DONE]: the last frame is due 4 intervals after the first.
    expect(text).toBe("abcdefghijklmnop");
    expect(performance.now() - started).toBeGreaterThanOrEqual(155);
  });
});

describe("stallAfterChunks", () => {
  test("sends N chunks, then nothing until the client aborts; the server keeps serving", async () => {
    const { client } = await start([
      { text: "This stream will be aborted because it stalls after a few chunks ...", chunkSize: 5, stallAfterChunks: 4 },
      { text: "All good now." },
    ]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(request, { signal: controller.signal });
    const seen: string[] = [];
    let sawFour!: () => void;
    const four = new Promise<void>((resolve) => (sawFour = resolve));
    const reading = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk.choices[0]?.delta.content ?? "");
        if (seen.length === 4) sawFour();
      }
      // The SDK ends the iteration quietly on an abort: tell that apart from a stream that ended.
      return controller.signal.aborted ? "aborted" : "ended by itself";
    })().catch((e: unknown) => e);
    // A stream that does not stall ends by itself and settles `reading` first.
    await Promise.race([four, reading]);
    controller.abort();
    expect(await reading).toBe("aborted");
    // The role chunk counts: 4 chunks = role + 3 text pieces (as in 04-errors-retry-abort).
    expect(seen).toEqual(["", "This ", "strea", "m wil"]);
    expect(await chatText(client)).toBe("All good now.");
  });

  test("close() ends a stalled stream instead of hanging", async () => {
    const { llm } = await start([{ text: "abc", stallAfterChunks: 1 }]);
    const response = await fetch(`${llm.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify(request) });
    const reader = response.body!.getReader();
    await reader.read();
    const ended = reader.read().then(
      (result) => (result.done ? "done" : "data"),
      () => "error",
    );
    // A stream left hanging never settles `ended`, and the test times out.
    const [outcome] = await Promise.all([ended, llm.close()]);
    expect(["done", "error"]).toContain(outcome);
  });
});

describe("disconnectAfterChunks", () => {
  // The drop is held (`holdDisconnects`) until the client has read the chunks the test expects:
  // a client that reads late must not lose them to the cut.
  const held = { holdDisconnects: true };

  test("the SDK gets the first N chunks, then a terminated-connection error", async () => {
    const { llm, client } = await start([{ text: "abcdefghijklmnop", disconnectAfterChunks: 2 }, { text: "next" }], held);
    const seen: string[] = [];
    const error = await (async () => {
      const stream = await client.chat.completions.create(request);
      for await (const chunk of stream) {
        seen.push(chunk.choices[0]?.delta.content ?? "");
        if (seen.length === 2) llm.dropOpenStreams();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["", "abcdefgh"]);
    expect(error).toBeInstanceOf(Error);
    // Bun's fetch says ECONNRESET; Node's undici (what Pi ran on) says "terminated".
    expect(String(error)).toMatch(/ECONNRESET|terminated|closed/i);
    expect(await chatText(client)).toBe("next");
  });

  test("on the wire: the chunks, then the socket closes without the final empty chunk", async () => {
    const { llm } = await start([{ text: "abcdefghijklmnop", disconnectAfterChunks: 2 }], held);
    const raw = await rawExchange(llm.url, rawPost("/v1/chat/completions", JSON.stringify(request)), {
      enough: (text) => text.includes('"content":"abcdefgh"'),
      then: () => llm.dropOpenStreams(),
    });
    expect(raw).toStartWith("HTTP/1.1 200 OK\r\n");
    expect(raw.toLowerCase()).toContain("transfer-encoding: chunked");
    expect(raw).toContain('"content":"abcdefgh"');
    expect(raw).not.toContain("ijklmnop");
    expect(raw).not.toEndWith("0\r\n\r\n");
  });

  test("works the same for the Anthropic and Responses paths", async () => {
    const { llm, client } = await start(
      [
        { text: "abcdefghijklmnop", disconnectAfterChunks: 3 },
        { text: "abcdefghijklmnop", disconnectAfterChunks: 3 },
      ],
      held,
    );
    const response = await anthropicRequest(llm.url, { model: "m", max_tokens: 5, messages: [], stream: true });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const frames = () => text.split("\n\n").length - 1;
    const readError = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        text += decoder.decode(value, { stream: true });
        if (frames() === 3) llm.dropOpenStreams();
      }
    })().catch((e: unknown) => e);
    expect(frames()).toBe(3);
    expect(readError).toBeInstanceOf(Error);
    const types: string[] = [];
    const error = await (async () => {
      const stream = await client.responses.create({ model: "m", input: "x", stream: true });
      for await (const event of stream) {
        types.push(event.type);
        if (types.length === 3) llm.dropOpenStreams();
      }
    })().catch((e: unknown) => e);
    expect(types).toEqual(["response.created", "response.in_progress", "response.output_item.added"]);
    expect(error).toBeInstanceOf(Error);
  });

  test("zero chunks: the connection drops before any response", async () => {
    const { llm, client } = await start([
      { text: "x", disconnectAfterChunks: 0 },
      { text: "x", disconnectAfterChunks: 0 },
    ]);
    expect(await rawExchange(llm.url, rawPost("/v1/chat/completions", JSON.stringify(request)))).toBe("");
    const error = await client.chat.completions.create(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
  });
});
