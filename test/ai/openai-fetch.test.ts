/**
 * Chat Completions and Responses (OpenAI's and Azure's) over plain fetch send what the OpenAI SDK
 * sends (each check compares with the SDK itself, a dependency of the tests, rather than with a
 * copy of its output):
 * the URL, every header in order, the body; and follow its rules where no other test pins them
 * (`x-should-retry`, retried timeouts and their retry count, what `onStreamEvent` sees). A `-p`
 * run with an OpenAI model never loads the SDK.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import OpenAI, { AzureOpenAI } from "openai";
import { VERSION } from "openai/version";
import { openaiHeaders, openaiUrl, SDK_VERSION } from "../../src/ai/providers/openai-fetch.ts";
import { buildCompletionsRequest, streamOpenAICompletions } from "../../src/ai/providers/openai-completions.ts";
import { buildResponsesRequest } from "../../src/ai/providers/openai-responses-request.ts";
import { completionsBodyBytes } from "../../src/ai/providers/openai-completions-body.ts";
import type { AssistantMessageEvent, LlmContext, Model, StreamOptions } from "../../src/ai/types.ts";
import { pigUserAgent } from "../../src/ai/user-agent.ts";
import { fakeModel } from "../helpers/fake-model.ts";
import { staticImports } from "../helpers/module-graph.ts";
import { finalMessage } from "../helpers/stream-events.ts";

const CONTEXT: LlmContext = { systemPrompt: "sys", messages: [{ role: "user", content: "hello", timestamp: 1 }] };

/** The request the SDK makes for these client options, caught at its fetch. */
async function sdkRequest(
  init: ConstructorParameters<typeof OpenAI>[0],
  body: object,
  api: "chat" | "responses" = "chat",
  azureVersion?: string,
): Promise<{ url: string; headers: [string, string][]; body: string }> {
  let seen: { url: string; headers: [string, string][]; body: string } | undefined;
  type Init = NonNullable<ConstructorParameters<typeof OpenAI>[0]>;
  const make = (options: Init): OpenAI =>
    azureVersion
      ? new AzureOpenAI({ baseURL: options.baseURL, apiKey: options.apiKey as string, defaultHeaders: options.defaultHeaders, logLevel: options.logLevel, maxRetries: options.maxRetries, fetch: options.fetch, apiVersion: azureVersion })
      : new OpenAI(options);
  const client = make({
    ...init,
    logLevel: "off",
    maxRetries: 0,
    fetch: (async (url: string, request: RequestInit) => {
      seen = { url, headers: [...(request.headers as Headers).entries()], body: String(request.body) };
      return new Response("data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } });
    }) as typeof fetch,
  });
  const stream = api === "chat" ? await client.chat.completions.create(body as never) : await client.responses.create(body as never);
  for await (const _ of stream as unknown as AsyncIterable<unknown>) void _;
  return seen!;
}

describe("the SDK's wire, without the SDK", () => {
  test("the version in the headers is the installed SDK's (the other platform headers are compared below)", () => {
    expect(SDK_VERSION).toBe(VERSION);
    expect(openaiHeaders({}, "k", 0).get("x-stainless-package-version")).toBe(VERSION);
  });

  test("the URL is joined as the SDK joins it, query and slashes included", () => {
    for (const baseURL of ["http://127.0.0.1:9/v1", "http://127.0.0.1:9/v1/", "https://h.example/openai/v1?api-version=2&b=a b(c)!", "https://h.example"]) {
      const client = new OpenAI({ apiKey: "k", baseURL });
      expect(openaiUrl(baseURL, "/chat/completions")).toBe(client.buildURL("/chat/completions", undefined));
      expect(openaiUrl(baseURL, "/responses")).toBe(client.buildURL("/responses", undefined));
    }
    expect(openaiUrl("", "/chat/completions")).toBe("https://api.openai.com/v1/chat/completions");
  });

  const headerCases: { name: string; apiKey?: string; headers: Record<string, string | null>; env?: Record<string, string> }[] = [
    { name: "a key", apiKey: "sk-1", headers: { "x-model": "m" } },
    { name: "no key", headers: {} },
    { name: "a user agent of the caller's, a removed header, a caller's content type", apiKey: "k", headers: { "user-agent": "mine/1", "x-stainless-lang": null, "Content-Type": "text/plain" } },
    { name: "an Authorization header of the caller's", apiKey: "k", headers: { Authorization: "Bearer other" } },
    { name: "the SDK's variables", apiKey: "k", headers: { "x-b": "2" }, env: { OPENAI_ORG_ID: " org-1 ", OPENAI_PROJECT_ID: "proj", OPENAI_CUSTOM_HEADERS: "X-Custom: c\nx-b: env" } },
  ];
  for (const c of headerCases) {
    test(`headers and body as the SDK sends them: ${c.name}`, async () => {
      const saved = { ...process.env };
      Object.assign(process.env, c.env ?? {});
      try {
        const model = fakeModel("http://127.0.0.1:9/v1");
        const { body } = buildCompletionsRequest(model, CONTEXT, { apiKey: "" });
        const defaultHeaders: Record<string, string | null> = { "User-Agent": pigUserAgent(), ...c.headers };
        if (!c.apiKey) defaultHeaders.Authorization = null;
        const sdk = await sdkRequest({ apiKey: c.apiKey || "unused", baseURL: model.baseUrl, defaultHeaders: defaultHeaders as Record<string, string> }, body);
        expect([...openaiHeaders(c.headers, c.apiKey, 0).entries()]).toEqual(sdk.headers);
        expect(new TextDecoder().decode(completionsBodyBytes(body))).toBe(sdk.body);
      } finally {
        for (const name of Object.keys(c.env ?? {})) if (saved[name] === undefined) delete process.env[name];
        Object.assign(process.env, saved);
      }
    });
  }

  test("the Responses API's headers and body are the SDK's too", async () => {
    const model = { ...fakeModel("http://127.0.0.1:9/v1"), api: "openai-responses" as const };
    const { body, headers } = buildResponsesRequest(model, CONTEXT, { apiKey: "sk-2", sessionId: "s-1" });
    const sdk = await sdkRequest({ apiKey: "sk-2", baseURL: model.baseUrl, defaultHeaders: { "User-Agent": pigUserAgent(), ...headers } }, body, "responses");
    expect([...openaiHeaders(headers, "sk-2", 0).entries()]).toEqual(sdk.headers);
    expect(JSON.stringify(body)).toBe(sdk.body);
    expect(openaiUrl(model.baseUrl, "/responses")).toBe(sdk.url);
  });

  test("Azure's Responses API: the key in api-key, the version in the query, as the SDK's AzureOpenAI sends them", async () => {
    const model = { ...fakeModel("http://127.0.0.1:9/openai/v1"), api: "azure-openai-responses" as const };
    const { body, headers } = buildResponsesRequest(model, CONTEXT, { apiKey: "az-key" });
    const sdk = await sdkRequest({ apiKey: "az-key", baseURL: model.baseUrl, defaultHeaders: { "User-Agent": pigUserAgent(), ...headers } }, body, "responses", "2025-04-01-preview");
    const client = { name: "AzureOpenAI", apiVersion: "2025-04-01-preview" } as const;
    expect([...openaiHeaders(headers, "az-key", 0, process.env, client).entries()]).toEqual(sdk.headers);
    expect(openaiUrl(model.baseUrl, "/responses", client)).toBe(sdk.url);
    expect(openaiUrl(`${model.baseUrl}?x=1`, "/responses", client)).toBe(new AzureOpenAI({ apiKey: "k", baseURL: `${model.baseUrl}?x=1`, apiVersion: "2025-04-01-preview" }).buildURL("/responses", undefined));
  });

  test("a header name that is not an HTTP token is refused, as by the SDK", () => {
    expect(() => openaiHeaders({ "bad name": "x" }, "k", 0)).toThrow('Header name must be a valid HTTP token ["bad name"]');
  });

  test("a Chat Completions or Responses run, OpenAI's or Azure's, loads no module of the SDK", () => {
    for (const provider of ["openai-completions.ts", "openai-responses.ts", "azure-openai-responses.ts"]) {
      const graph = staticImports([join(import.meta.dir, "..", "..", "src", "ai", "providers", provider)]);
      expect(graph.files.size).toBeGreaterThan(10);
      expect([...graph.external].filter((name) => name === "openai")).toEqual([]);
    }
  });
});

// ── the SDK's rules against a server ────────────────────────────────────────

type Reply = (request: Request) => Response | Promise<Response>;
const replies: Reply[] = [];
const seen: { retryCount: string | null }[] = [];

const server = Bun.serve({
  port: 0,
  async fetch(request) {
    await request.text();
    seen.push({ retryCount: request.headers.get("x-stainless-retry-count") });
    const reply = replies.shift();
    return reply ? reply(request) : new Response("no reply queued", { status: 599 });
  },
});
afterAll(() => server.stop(true));
beforeEach(() => {
  replies.length = 0;
  seen.length = 0;
});

const answer: Reply = () =>
  new Response(`data: ${JSON.stringify({ id: "c1", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`, {
    headers: { "content-type": "text/event-stream" },
  });

function model(): Model {
  return fakeModel(`http://127.0.0.1:${server.port}/v1`);
}

async function run(options: Partial<StreamOptions>): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of streamOpenAICompletions(model(), CONTEXT, { apiKey: "k", ...options })) events.push(event);
  return events;
}

describe("the SDK's rules", () => {
  test("x-should-retry: false stops a retry of a 500, true retries a 400; the retry count is sent", async () => {
    replies.push(() => Response.json({ error: { message: "no" } }, { status: 500, headers: { "x-should-retry": "false" } }));
    expect(finalMessage(await run({ maxRetries: 2 })).errorMessage).toBe("500 no");
    expect(seen.length).toBe(1);

    seen.length = 0;
    replies.push(() => Response.json({ error: { message: "again" } }, { status: 400, headers: { "x-should-retry": "true", "retry-after-ms": "1" } }), answer);
    expect(finalMessage(await run({ maxRetries: 1 })).stopReason).toBe("stop");
    expect(seen.map((s) => s.retryCount)).toEqual(["0", "1"]);
  });

  test("a signal aborted before the stream starts sends nothing: the answer is aborted", async () => {
    replies.push(answer);
    const events = await run({ signal: AbortSignal.abort() });
    expect(finalMessage(events).stopReason).toBe("aborted");
    expect(seen.length).toBe(0);
    replies.length = 0;
  });

  test("an error body that is JSON without `error`, or empty, reads as the SDK words it", async () => {
    replies.push(() => Response.json({ detail: "x" }, { status: 422 }));
    expect(finalMessage(await run({})).errorMessage).toBe("422 status code (no body)");
    replies.push(() => new Response("plain words", { status: 403 }));
    expect(finalMessage(await run({})).errorMessage).toBe("403 plain words");
  });

  test("a timed-out attempt is retried, with its count", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first answer comes only after the client gave up on it.
    replies.push(async (request) => {
      await new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve(), { once: true }));
      release();
      return new Response("late");
    }, answer);
    const events = await run({ maxRetries: 1, timeoutMs: 200 });
    await held;
    expect(finalMessage(events).stopReason).toBe("stop");
    expect(seen.map((s) => s.retryCount)).toEqual(["0", "1"]);
  });

  test("what follows [DONE] is read and dropped, as by the SDK: no chunk, no parse error", async () => {
    replies.push(
      () =>
        new Response(
          `data: ${JSON.stringify({ id: "c1", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\ndata: not json\n\ndata: {"choices":[{"delta":{"content":"late"}}]}\n\n`,
          { headers: { "content-type": "text/event-stream" } },
        ),
    );
    const message = finalMessage(await run({}));
    expect(message.stopReason).toBe("stop");
    expect(message.content).toEqual([{ type: "text", text: "ok" }]);
  });

  test("onStreamEvent sees each chunk as parsed JSON, and not [DONE]", async () => {
    replies.push(answer);
    const shown: unknown[] = [];
    await run({ onStreamEvent: (event) => void shown.push(event) });
    expect(shown).toEqual([{ id: "c1", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }]);
  });
});
