/** The output cap kept inside the room the window leaves (Pi 0.87's rule). */
import { describe, expect, test } from "bun:test";
import { estimateRequestTokens, fitOutputToWindow } from "../../src/ai/output-room.ts";
import type { LlmContext, LlmMessage } from "../../src/ai/types.ts";
import { fakeModel } from "../helpers/fake-model.ts";

const usage = (totalTokens: number) => ({ input: totalTokens, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });
const user = (text: string, timestamp: number): LlmMessage => ({ role: "user", content: [{ type: "text", text }], timestamp });
const answer = (tokens: number, timestamp: number): LlmMessage =>
  ({ role: "assistant", content: [{ type: "text", text: "a" }], api: "openai-completions", provider: "fake", model: "m", usage: usage(tokens), stopReason: "stop", timestamp }) as LlmMessage;

describe("fitOutputToWindow", () => {
  const model = fakeModel(undefined, { contextWindow: 32000, maxTokens: 16384 });

  test("without a usage to trust: the prompt, the tools and every message are estimated", () => {
    const context: LlmContext = { systemPrompt: "p".repeat(40000), messages: [user("q".repeat(400), 1)] };
    expect(estimateRequestTokens(context)).toBe(10000 + 100);
    expect(fitOutputToWindow(model, context, 20000)).toBe(32000 - 10100 - 4096);
    expect(fitOutputToWindow(model, context, 16384)).toBe(16384);
  });

  test("after an answer: its usage, what came after it, and a prompt change written since", () => {
    const messages = [user("q", 1), answer(1100, 2), user("n".repeat(40), 3)];
    const before: LlmContext = { systemPrompt: "p".repeat(40000), messages };
    expect(estimateRequestTokens(before)).toBe(1100 + 10);
    const patched: LlmContext = { ...before, promptTokensSinceAnswer: 15000 };
    expect(estimateRequestTokens(patched)).toBe(1100 + 10 + 15000);
    expect(fitOutputToWindow(model, patched, 16384)).toBe(32000 - 16110 - 4096);
  });

  test("a usage older than a message placed before it (a summary) is not trusted; at least 1 is asked for", () => {
    const context: LlmContext = { systemPrompt: "", messages: [user("s".repeat(400), 5), answer(30000, 2)] };
    expect(estimateRequestTokens(context)).toBe(100 + 1);
    expect(fitOutputToWindow(fakeModel(undefined, { contextWindow: 1000 }), { systemPrompt: "x".repeat(40000), messages: [] }, 500)).toBe(1);
  });
});
