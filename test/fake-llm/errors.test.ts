/** `error` responses: HTTP status, provider-shaped JSON bodies, default types, extra headers. */
import { afterEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { type FakeLlm, type Script, startFakeLlm } from "../helpers/fake-llm/server.ts";
import { anthropicRequest } from "./sse-client.ts";

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function start(script: Script): Promise<FakeLlm> {
  llm = await startFakeLlm({ script });
  return llm;
}

const chatBody = { model: "fake-model", messages: [{ role: "user", content: "hi" }], stream: true };

function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

describe("error responses", () => {
  test("OpenAI shape with default type by status, for chat and responses paths", async () => {
    const server = await start([
      { error: { status: 429, message: "Rate limit reached (fake)" } },
      { error: { status: 500, message: "Internal fake failure" } },
      { error: { status: 400, message: "bad" } },
      {
        error: {
          status: 400,
          message: "This model's maximum context length is 20000 tokens.",
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      },
    ]);
    const bodies: unknown[] = [];
    const statuses: number[] = [];
    for (const path of ["/v1/chat/completions", "/v1/responses", "/v1/chat/completions", "/v1/chat/completions"]) {
      const response = await postJson(`${server.url}${path}`, chatBody);
      statuses.push(response.status);
      expect(response.headers.get("content-type")).toStartWith("application/json");
      bodies.push(await response.json());
    }
    expect(statuses).toEqual([429, 500, 400, 400]);
    expect(bodies).toEqual([
      { error: { message: "Rate limit reached (fake)", type: "rate_limit_error", param: null, code: "rate_limit_exceeded" } },
      { error: { message: "Internal fake failure", type: "server_error", param: null, code: null } },
      { error: { message: "bad", type: "invalid_request_error", param: null, code: null } },
      {
        error: {
          message: "This model's maximum context length is 20000 tokens.",
          type: "invalid_request_error",
          param: null,
          code: "context_length_exceeded",
        },
      },
    ]);
    expect(server.requests.map((r) => r.served.kind)).toEqual(["error:429", "error:500", "error:400", "error:400"]);
  });

  test("Anthropic shape: rate_limit_error, api_error, overloaded_error for 529, invalid_request_error", async () => {
    const server = await start([
      { error: { status: 429, message: "slow down" } },
      { error: { status: 500, message: "boom" } },
      { error: { status: 529, message: "Overloaded" } },
      { error: { status: 413, message: "too big" } },
      { error: { status: 401, message: "who?", type: "authentication_error" } },
    ]);
    const bodies: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await anthropicRequest(server.url, { model: "m", max_tokens: 10, messages: [], stream: true });
      expect(response.headers.get("request-id")).toMatch(/^req_fake_/);
      bodies.push({ status: response.status, body: await response.json() });
    }
    expect(bodies).toEqual([
      { status: 429, body: { type: "error", error: { type: "rate_limit_error", message: "slow down" } } },
      { status: 500, body: { type: "error", error: { type: "api_error", message: "boom" } } },
      { status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
      { status: 413, body: { type: "error", error: { type: "invalid_request_error", message: "too big" } } },
      { status: 401, body: { type: "error", error: { type: "authentication_error", message: "who?" } } },
    ]);
  });

  test("the SDK reports status and message and sees the script headers; retry-after drives its retry", async () => {
    const server = await start([
      { error: { status: 429, message: "Rate limit reached (fake)", headers: { "retry-after": "7", "x-extra": "yes" } } },
      { error: { status: 503, message: "busy", headers: { "retry-after": "0" } } },
      { text: "Recovered after retry." },
    ]);
    const noRetry = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "k", maxRetries: 0 });
    const error = await noRetry.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "p1" }], stream: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(apiError.status).toBe(429);
    expect(apiError.message).toBe("429 Rate limit reached (fake)");
    expect(apiError.headers.get("retry-after")).toBe("7");
    expect(apiError.headers.get("x-extra")).toBe("yes");

    // With retries on, the SDK waits retry-after (0 s here) and the next script entry answers.
    const retrying = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "k", maxRetries: 1 });
    let text = "";
    const stream = await retrying.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "p2" }],
      stream: true,
    });
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("Recovered after retry.");
    expect(server.requests.map((r) => [r.served.source, r.headers["x-stainless-retry-count"]])).toEqual([
      ["script[0]", "0"],
      ["script[1]", "0"],
      ["script[2]", "1"],
    ]);
  });

  test("repeat serves the same error n times; delayMs delays the error too", async () => {
    const server = await start([
      { error: { status: 500, message: "Internal fake failure" }, repeat: 3 },
      { text: "fine", delayMs: 150 },
    ]);
    for (let i = 0; i < 3; i++) expect((await postJson(`${server.url}/v1/chat/completions`, chatBody)).status).toBe(500);
    const started = performance.now();
    const response = await postJson(`${server.url}/v1/chat/completions`, chatBody);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.status).toBe(200);
    await response.text();
    expect(server.requests.map((r) => r.served.source)).toEqual(["script[0]", "script[0]", "script[0]", "script[1]"]);
  });

  test("unknown paths get a 404 and are not logged", async () => {
    const server = await start([]);
    const response = await fetch(`${server.url}/v1/embeddings`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    expect(server.requests).toEqual([]);
  });
});
