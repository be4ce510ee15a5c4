/**
 * The Bedrock stream function in process, against the fake LLM server (which checks the SigV4
 * signature): caller headers are sent and signed, `x-amz-*` and `authorization` ones are not
 * taken from callers, the body hook's body is what is signed, a server quoting a credential back
 * gets it scrubbed, and an abort before the answer ends in `aborted`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { streamBedrockConverse } from "../../src/ai/providers/bedrock-converse.ts";
import type { BedrockStreamOptions } from "../../src/ai/providers/bedrock-request.ts";
import type { AssistantMessageEvent, Model } from "../../src/ai/types.ts";
import { collectEvents } from "../helpers/stream-events.ts";
import { startFakeLlm, type FakeLlm, type Script } from "../helpers/fake-llm/server.ts";

const KEYS = { accessKeyId: "AKIDUNIT0001", secretAccessKey: "unit-secret-7d3e9a01", sessionToken: "unit-session-token-55b2" };
const ENV = { AWS_ACCESS_KEY_ID: KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey, AWS_SESSION_TOKEN: KEYS.sessionToken, AWS_REGION: "us-west-2" };

const servers: FakeLlm[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function server(script: Script): Promise<FakeLlm> {
  const llm = await startFakeLlm({ script, bedrockAuth: { credentials: KEYS } });
  servers.push(llm);
  return llm;
}

function model(baseUrl: string): Model {
  return {
    id: "anthropic.claude-sonnet-4-5-20250929-v1:0",
    name: "Claude Sonnet 4.5",
    api: "bedrock-converse-stream",
    provider: "amazon-bedrock",
    baseUrl,
    reasoning: true,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 200000,
    maxTokens: 64000,
    headers: { "x-team": "blue", "X-Amz-Date": "20000101T000000Z" },
  };
}

async function run(m: Model, options: Partial<BedrockStreamOptions>): Promise<AssistantMessageEvent[]> {
  const context = { systemPrompt: "sys", messages: [{ role: "user" as const, content: "hi", timestamp: 1 }] };
  return collectEvents(streamBedrockConverse(m, context, { apiKey: "<authenticated>", env: ENV, ...options } as BedrockStreamOptions));
}

describe("streamBedrockConverse", () => {
  test("caller headers are signed; reserved ones are not taken from callers; the hooked body is the one signed", async () => {
    const llm = await server([{ text: "hello" }]);
    const events = await run(model(llm.url), {
      headers: { authorization: "Bearer stolen", "x-call": "1" },
      onPayload: async (body) => ({ ...(body as object), inferenceConfig: { maxTokens: 5 } }),
    });
    expect(events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "hello" }] } });
    const request = llm.requests[0]!;
    expect(request.headers["x-team"]).toBe("blue");
    expect(request.headers["x-call"]).toBe("1");
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDUNIT0001\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token;x-call;x-team, /);
    expect(request.headers["x-amz-date"]).not.toBe("20000101T000000Z");
    expect((request.body as { inferenceConfig: unknown }).inferenceConfig).toEqual({ maxTokens: 5 });
  });

  test("a server that quotes the session token back gets it scrubbed from the error", async () => {
    const llm = await server([{ error: { status: 403, message: `token ${KEYS.sessionToken} is expired` } }]);
    const events = await run(model(llm.url), {});
    const last = events.at(-1) as Extract<AssistantMessageEvent, { type: "error" }>;
    expect(last.error.errorMessage).toBe("AccessDeniedException: token [redacted] is expired");
  });

  test("an abort before the answer ends in aborted", async () => {
    const llm = await server([{ hang: true }]);
    const controller = new AbortController();
    llm.setBeforeAnswer(() => controller.abort());
    const events = await run(model(llm.url), { signal: controller.signal });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", reason: "aborted", error: { stopReason: "aborted", errorMessage: "Request was aborted" } });
  });
});
