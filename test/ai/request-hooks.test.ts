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
