/** The Gemini body (google-request.ts, google-convert.ts): thinking configuration and the conversions Pi makes. */
import { describe, expect, test } from "bun:test";
import { buildGoogleBody, googleThinkingBudget, usesThinkingLevel } from "../../src/ai/providers/google-request.ts";
import type { LlmMessage, Model } from "../../src/ai/types.ts";

function model(id: string, extra: Partial<Model> = {}): Model {
  return {
    id,
    name: id,
    api: "google-generative-ai",
    provider: "google",
    baseUrl: "",
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000000,
    maxTokens: 65536,
    ...extra,
  };
}

const GEMINI_3_LEVELS = { off: null, minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: null, max: null };
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

describe("thinking", () => {
  test("2.5 models get Pi's budgets, -1 elsewhere, the setting first", () => {
    expect(googleThinkingBudget(model("gemini-2.5-pro"), "high", "gemini")).toBe(32768);
    expect(googleThinkingBudget(model("gemini-2.5-flash-lite"), "minimal", "gemini")).toBe(512);
    expect(googleThinkingBudget(model("gemini-2.5-flash-lite"), "minimal", "vertex")).toBe(128);
    expect(googleThinkingBudget(model("gemini-2.0-flash"), "low", "gemini")).toBe(-1);
    expect(googleThinkingBudget(model("gemini-2.5-pro"), "low", "gemini", { low: 999 })).toBe(999);
  });

  test("Gemini 3 takes a level, off becomes the lowest level the model offers", () => {
    const flash = model("gemini-3-flash-preview", { thinkingLevelMap: GEMINI_3_LEVELS });
    const pro = model("gemini-3.1-pro-preview", { thinkingLevelMap: { ...GEMINI_3_LEVELS, minimal: null } });
    expect(usesThinkingLevel(flash) && usesThinkingLevel(pro) && !usesThinkingLevel(model("gemini-2.5-pro"))).toBe(true);
    const config = (m: Model, reasoning?: "off" | "medium") =>
      buildGoogleBody(m, { systemPrompt: "", messages: [] }, { apiKey: "", ...(reasoning ? { reasoning } : {}) }, "gemini").generationConfig?.thinkingConfig;
    expect(config(flash, "medium")).toEqual({ includeThoughts: true, thinkingLevel: "MEDIUM" });
    expect(config(flash, "off")).toEqual({ thinkingLevel: "MINIMAL" });
    expect(config(pro)).toEqual({ thinkingLevel: "LOW" });
    expect(config(model("gemini-2.5-flash"), "off")).toEqual({ thinkingBudget: 0 });
    expect(config(model("gemma-4-31b-it", { thinkingLevelMap: { off: null, minimal: "MINIMAL", low: null, medium: null, high: "HIGH" } }), "off")).toEqual({
      thinkingLevel: "MINIMAL",
    });
    expect(config(model("plain", { reasoning: false }), "medium")).toBeUndefined();
  });

  test("a level mapped to something Google does not know is an error naming the model", () => {
    const odd = model("gemini-3-flash-preview", { thinkingLevelMap: { medium: "turbo" } });
    expect(() => buildGoogleBody(odd, { systemPrompt: "", messages: [] }, { apiKey: "", reasoning: "medium" }, "gemini")).toThrow(
      "Unsupported Google thinking level mapping for google/gemini-3-flash-preview: medium -> turbo",
    );
  });

  test("temperature and the output cap go in generationConfig, the cap inside the window", () => {
    const small = model("gemini-2.5-flash", { reasoning: false, contextWindow: 10000 });
    const body = buildGoogleBody(small, { systemPrompt: "x".repeat(8000), messages: [] }, { apiKey: "", temperature: 0.2 }, "gemini");
    expect(body.generationConfig).toEqual({ temperature: 0.2, maxOutputTokens: 10000 - 2000 - 4096 });
  });
});

describe("contents", () => {
  const call = { type: "toolCall" as const, id: "call|1", name: "read", arguments: { path: "a.png" }, thoughtSignature: "c2ln" };
  const image = { type: "image" as const, mimeType: "image/png", data: "AAAA" };
  const history = (from: Partial<{ provider: string; model: string; api: string }>): LlmMessage[] => [
    { role: "user", content: "look", timestamp: 1 },
    {
      role: "assistant",
      content: [{ type: "thinking", thinking: "hmm", thinkingSignature: "dGhpbms=" }, call],
      api: "google-generative-ai",
      provider: "google",
      model: "gemini-3-flash-preview",
      usage,
      stopReason: "toolUse",
      timestamp: 2,
      ...from,
    },
    { role: "toolResult", toolCallId: "call|1", toolName: "read", content: [image], isError: false, timestamp: 3 },
  ];

  test("Gemini 3: the same model's thought and signatures go back, ids and images inside functionResponse", () => {
    const body = buildGoogleBody(model("gemini-3-flash-preview"), { systemPrompt: "", messages: history({}) }, { apiKey: "" }, "gemini");
    expect(body.contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [
          { text: "hmm", thought: true, thoughtSignature: "dGhpbms=" },
          { functionCall: { args: { path: "a.png" }, id: "call|1", name: "read" }, thoughtSignature: "c2ln" },
        ],
      },
      {
        role: "user",
        parts: [{ functionResponse: { name: "read", response: { output: "(see attached image)" }, parts: [{ inlineData: { data: "AAAA", mimeType: "image/png" } }], id: "call|1" } }],
      },
    ]);
  });

  test("another model's turn: thinking as text, no signatures, ids made acceptable", () => {
    const body = buildGoogleBody(model("gemini-3-flash-preview"), { systemPrompt: "", messages: history({ provider: "anthropic", model: "claude" }) }, { apiKey: "" }, "vertex");
    expect(body.contents[1]).toEqual({ role: "model", parts: [{ text: "hmm" }, { functionCall: { name: "read", args: { path: "a.png" }, id: "call_1" } }] });
    expect(body.contents[2]!.parts[0]!.functionResponse!.id).toBe("call_1");
  });

  test("Gemini 2.5: no ids, a tool's image in a user turn of its own; errors as `error`", () => {
    const messages = history({ model: "gemini-2.5-flash" });
    messages.push({ role: "toolResult", toolCallId: "x", toolName: "bash", content: [{ type: "text", text: "boom" }], isError: true, timestamp: 4 });
    const body = buildGoogleBody(model("gemini-2.5-flash"), { systemPrompt: "", messages }, { apiKey: "" }, "gemini");
    expect(body.contents.slice(2)).toEqual([
      { role: "user", parts: [{ functionResponse: { name: "read", response: { output: "(see attached image)" } } }] },
      { role: "user", parts: [{ text: "Tool result image:" }, { inlineData: { data: "AAAA", mimeType: "image/png" } }] },
      { role: "user", parts: [{ functionResponse: { name: "bash", response: { error: "boom" } } }] },
    ]);
  });

  test("consecutive results share one user turn; a text-only model gets a placeholder for images", () => {
    const messages: LlmMessage[] = [
      { role: "user", content: [{ type: "text", text: "see" }, image], timestamp: 1 },
      { role: "assistant", content: [{ ...call, id: "a" }, { ...call, id: "b" }], api: "google-generative-ai", provider: "google", model: "m", usage, stopReason: "toolUse", timestamp: 2 },
      { role: "toolResult", toolCallId: "a", toolName: "read", content: [{ type: "text", text: "1" }], isError: false, timestamp: 3 },
      { role: "toolResult", toolCallId: "b", toolName: "read", content: [{ type: "text", text: "2" }], isError: false, timestamp: 4 },
    ];
    const body = buildGoogleBody(model("m", { input: ["text"] }), { systemPrompt: "sys", messages }, { apiKey: "" }, "gemini");
    expect(body.systemInstruction).toEqual({ parts: [{ text: "sys" }], role: "user" });
    expect(body.contents[0]).toEqual({ parts: [{ text: "see" }, { text: "(image omitted: model does not support images)" }], role: "user" });
    expect(body.contents[2]!.parts.map((p) => p.functionResponse?.response)).toEqual([{ output: "1" }, { output: "2" }]);
  });

  test("a signature that is not base64 is not sent back", () => {
    const messages = history({ model: "gemini-3-flash-preview" });
    (messages[1] as { content: { thinkingSignature?: string }[] }).content[0]!.thinkingSignature = "not base64!";
    const body = buildGoogleBody(model("gemini-3-flash-preview"), { systemPrompt: "", messages }, { apiKey: "" }, "gemini");
    expect(body.contents[1]!.parts[0]).toEqual({ text: "hmm", thought: true });
  });
});
