/**
 * Every provider hands its request body to `onPayload` right before sending (a returned body is
 * sent instead) and tells `onResponse` of the HTTP response before reading it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { streamAnthropicMessages } from "../../src/ai/providers/anthropic-messages.ts";
import { streamOpenAICompletions } from "../../src/ai/providers/openai-completions.ts";
import { streamOpenAIResponses } from "../../src/ai/providers/openai-responses.ts";
import type { Api, LlmContext, StreamFunction } from "../../src/ai/types.ts";
import { startFakeLlm } from "../helpers/fake-llm/server.ts";
import { fakeModel } from "../helpers/fake-model.ts";

const llm = await startFakeLlm({ mode: "text" });
afterAll(() => llm.close());

const context: LlmContext = { systemPrompt: "sys", messages: [{ role: "user", content: "hi", timestamp: 1 }] };

const providers: [string, Api, StreamFunction, string][] = [
  ["openai-completions", "openai-completions", streamOpenAICompletions, `${llm.url}/v1`],
  ["openai-responses", "openai-responses", streamOpenAIResponses, `${llm.url}/v1`],
  ["anthropic-messages", "anthropic-messages", streamAnthropicMessages, llm.url],
];

describe.each(providers)("%s", (_name, api, stream, baseUrl) => {
  test("the payload hook's body is the one sent; the response hook hears the status and headers first", async () => {
    const order: string[] = [];
    let response: { status: number; headers: Record<string, string> } | undefined;
    const before = llm.requests.length;
    const events = stream(fakeModel(baseUrl, { api }), context, {
      apiKey: "k",
      onPayload: async (payload) => {
        order.push("payload");
        return { ...(payload as Record<string, unknown>), metadata: { marked: "by hook" } };
      },
      onResponse: (r) => {
        order.push("response");
        response = r;
      },
    });
    for await (const event of events) order.push(event.type === "start" || event.type === "done" || event.type === "error" ? event.type : "delta");
    const sent = llm.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect((sent[0]!.body as { metadata?: unknown }).metadata).toEqual({ marked: "by hook" });
    expect(order.slice(0, 3)).toEqual(["payload", "response", "start"]);
    expect(order.at(-1)).toBe("done");
    expect(response!.status).toBe(200);
    expect(response!.headers["content-type"]).toContain("text/event-stream");
  });
});

describe.each(providers)("%s: credentials in before_provider_headers", (_name, api, stream, baseUrl) => {
  const KEY = "sk-hooks-only-in-pig-42";
  const headers = { "api-key": "azure-style-secret-1", "x-goog-api-key": "google-style-secret-2", "x-service-token": "token-secret-3", "x-echo": `Bearer ${KEY}`, "x-plain": "plain" };

  test("the hook sees [redacted] for every credential; the marker given back keeps the real value, other edits apply", async () => {
    let seen: Record<string, string> = {};
    const before = llm.requests.length;
    const events = stream(fakeModel(baseUrl, { api }), context, {
      apiKey: KEY,
      headers,
      onHeaders: async (shown) => {
        seen = { ...shown };
        // An extension that hands every header back as it saw it, and adds one.
        return { ...shown, "x-added": "by hook", "x-plain": "changed" };
      },
    });
    for await (const _ of events);
    expect(JSON.stringify(seen)).not.toContain("secret");
    expect(JSON.stringify(seen)).not.toContain(KEY);
    for (const name of ["api-key", "x-goog-api-key", "x-service-token", "x-echo"]) expect([name, seen[name]]).toEqual([name, "[redacted]"]);
    if (api === "anthropic-messages") expect(seen["x-api-key"]).toBe("[redacted]");
    expect(seen["x-plain"]).toBe("plain");
    const sent = llm.requests.slice(before);
    expect(sent).toHaveLength(1);
    const got = sent[0]!.headers;
    expect([got["api-key"], got["x-goog-api-key"], got["x-service-token"], got["x-echo"]]).toEqual(["azure-style-secret-1", "google-style-secret-2", "token-secret-3", `Bearer ${KEY}`]);
    expect(api === "anthropic-messages" ? got["x-api-key"] : got.authorization).toBe(api === "anthropic-messages" ? KEY : `Bearer ${KEY}`);
    expect([got["x-added"], got["x-plain"]]).toEqual(["by hook", "changed"]);
  });

  test("a credential header the hook replaces or removes is sent as the hook left it", async () => {
    const before = llm.requests.length;
    const events = stream(fakeModel(baseUrl, { api }), context, {
      apiKey: KEY,
      headers,
      onHeaders: async () => ({ "api-key": "the-extension-own-key", "x-goog-api-key": null }),
    });
    for await (const _ of events);
    const got = llm.requests.slice(before)[0]!.headers;
    expect(got["api-key"]).toBe("the-extension-own-key");
    expect(got["x-goog-api-key"]).toBeUndefined();
  });
});
