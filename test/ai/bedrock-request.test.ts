/**
 * The Bedrock request builder and endpoint for what the recorded Pi conversations do not show:
 * adaptive thinking, non-Claude models, long cache retention, GovCloud, replayed reasoning
 * without a signature, merged tool results, empty content, regions and URLs.
 */
import { describe, expect, test } from "bun:test";
import { bedrockEndpoint } from "../../src/ai/providers/bedrock-endpoint.ts";
import { buildBedrockBody } from "../../src/ai/providers/bedrock-request.ts";
import type { LlmContext, LlmMessage, Model } from "../../src/ai/types.ts";

function model(id: string, extra: Partial<Model> = {}): Model {
  return {
    id,
    name: id,
    api: "bedrock-converse-stream",
    provider: "amazon-bedrock",
    baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com",
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 200000,
    maxTokens: 64000,
    ...extra,
  };
}

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function assistant(m: Model, content: Extract<LlmMessage, { role: "assistant" }>["content"]): LlmMessage {
  return { role: "assistant", content, api: m.api, provider: m.provider, model: m.id, usage, stopReason: "toolUse", timestamp: 1 };
}

const user = (text: string): LlmMessage => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });

describe("buildBedrockBody", () => {
  test("adaptive Claude (Sonnet 4.6): adaptive thinking with an effort, no budget, no beta", () => {
    const m = model("global.anthropic.claude-sonnet-4-6", { thinkingLevelMap: { max: "max" } });
    const body = buildBedrockBody(m, { systemPrompt: "sys", messages: [user("hi")] }, { apiKey: "k", reasoning: "medium", env: {} }, "us-east-1");
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: "adaptive", display: "summarized" }, output_config: { effort: "medium" } });
    expect(body.inferenceConfig).toEqual({ maxTokens: 64000 });
    const max = buildBedrockBody(m, { systemPrompt: "sys", messages: [user("hi")] }, { apiKey: "k", reasoning: "max", env: {} }, "us-east-1");
    expect(max.additionalModelRequestFields).toMatchObject({ output_config: { effort: "max" } });
  });

  test("budget thinking: a custom budget, long cache retention (1h points), temperature; GovCloud drops display", () => {
    const m = model("us-gov.anthropic.claude-sonnet-4-5-20250929-v1:0");
    const body = buildBedrockBody(
      m,
      { systemPrompt: "sys", messages: [user("hi")] },
      { apiKey: "k", reasoning: "low", thinkingBudgets: { low: 3000 }, temperature: 0.5, maxTokens: 4000, env: { PI_CACHE_RETENTION: "long" } },
      "us-gov-west-1",
    );
    expect(body.inferenceConfig).toEqual({ maxTokens: 7000, temperature: 0.5 });
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 3000 }, anthropic_beta: ["interleaved-thinking-2025-05-14"] });
    expect(body.system).toEqual([{ text: "sys" }, { cachePoint: { type: "default", ttl: "1h" } }]);
    expect(body.messages.at(-1)).toEqual({ role: "user", content: [{ text: "hi" }, { cachePoint: { type: "default", ttl: "1h" } }] });
  });

  test("a non-Claude model: no cache points, no thinking fields, reasoning replayed without a signature", () => {
    const m = model("amazon.nova-2-lite-v1:0");
    const context: LlmContext = {
      systemPrompt: "sys",
      messages: [user("hi"), assistant(m, [{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" }, { type: "text", text: "hello" }]), user("again")],
    };
    const body = buildBedrockBody(m, context, { apiKey: "k", reasoning: "high", env: {} }, "us-east-1");
    expect(body.system).toEqual([{ text: "sys" }]);
    expect(body.additionalModelRequestFields).toBeUndefined();
    expect(body.messages).toEqual([
      { role: "user", content: [{ text: "hi" }] },
      { role: "assistant", content: [{ reasoningContent: { reasoningText: { text: "hmm" } } }, { text: "hello" }] },
      { role: "user", content: [{ text: "again" }] },
    ]);
  });

  test("Claude reasoning without a signature goes back as text; results of one turn are one user message; empty content is <empty>", () => {
    const m = model("anthropic.claude-sonnet-4-5-20250929-v1:0");
    const context: LlmContext = {
      systemPrompt: "",
      messages: [
        user("   "),
        assistant(m, [
          { type: "thinking", thinking: "unsigned", thinkingSignature: "" },
          { type: "toolCall", id: "t1", name: "read", arguments: { path: "a", "": 1 } },
          { type: "toolCall", id: "t2", name: "bash", arguments: { command: "x" } },
        ]),
        { role: "toolResult", toolCallId: "t1", toolName: "read", content: [{ type: "text", text: "A" }], isError: false, timestamp: 1 },
        { role: "toolResult", toolCallId: "t2", toolName: "bash", content: [], isError: true, timestamp: 1 },
      ],
    };
    const body = buildBedrockBody(m, context, { apiKey: "k", cacheRetention: "none", env: {} }, "us-east-1");
    expect(body.system).toBeUndefined();
    expect(body.messages).toEqual([
      { role: "user", content: [{ text: "<empty>" }] },
      {
        role: "assistant",
        content: [{ text: "unsigned" }, { toolUse: { toolUseId: "t1", name: "read", input: { path: "a" } } }, { toolUse: { toolUseId: "t2", name: "bash", input: { command: "x" } } }],
      },
      {
        role: "user",
        content: [
          { toolResult: { toolUseId: "t1", content: [{ text: "A" }], status: "success" } },
          { toolResult: { toolUseId: "t2", content: [{ text: "<empty>" }], status: "error" } },
        ],
      },
    ]);
  });

  test("an image of a type Bedrock does not take is an error naming the type", () => {
    const m = model("anthropic.claude-sonnet-4-5-20250929-v1:0");
    const context: LlmContext = { systemPrompt: "", messages: [{ role: "user", content: [{ type: "image", mimeType: "image/bmp", data: "AAAA" }], timestamp: 1 }] };
    expect(() => buildBedrockBody(m, context, { apiKey: "k", env: {} }, "us-east-1")).toThrow("Bedrock takes jpeg, png, gif and webp images, not image/bmp");
  });
});

describe("bedrockEndpoint", () => {
  const standard = { id: "anthropic.claude-sonnet-4-5-20250929-v1:0", baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com" };

  test("a configured region moves a standard endpoint; the model id is percent-encoded in the path", () => {
    expect(bedrockEndpoint(standard, { AWS_REGION: "eu-west-3" })).toEqual({
      url: "https://bedrock-runtime.eu-west-3.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream",
      path: "/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream",
      host: "bedrock-runtime.eu-west-3.amazonaws.com",
      region: "eu-west-3",
    });
    expect(bedrockEndpoint(standard, { AWS_DEFAULT_REGION: "cn-north-1" }).host).toBe("bedrock-runtime.cn-north-1.amazonaws.com.cn");
  });

  test("without one, the standard URL and its region; a profile's region when a profile is chosen; us-east-1 at last", () => {
    expect(bedrockEndpoint({ ...standard, baseUrl: "https://bedrock-runtime.ap-south-1.amazonaws.com" }, {}).region).toBe("ap-south-1");
    expect(bedrockEndpoint(standard, { AWS_PROFILE: "work" }, "sa-east-1").host).toBe("bedrock-runtime.sa-east-1.amazonaws.com");
    expect(bedrockEndpoint({ ...standard, baseUrl: "" }, {}).host).toBe("bedrock-runtime.us-east-1.amazonaws.com");
  });

  test("a custom base URL (proxy, VPC endpoint) is kept; an inference-profile ARN names the region", () => {
    const arn = "arn:aws:bedrock:eu-central-1:123456789012:application-inference-profile/abc";
    const endpoint = bedrockEndpoint({ id: arn, baseUrl: "https://vpce-1.bedrock-runtime.example.internal/" }, { AWS_REGION: "us-west-2" });
    expect(endpoint.region).toBe("eu-central-1");
    expect(endpoint.url).toBe(`https://vpce-1.bedrock-runtime.example.internal/model/${encodeURIComponent(arn)}/converse-stream`);
  });
});
