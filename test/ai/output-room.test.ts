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

describe("estimateRequestTokens over a growing context", () => {
  /** The whole walk, written plainly: the reference the kept walk must match. */
  const inFull = (messages: readonly LlmMessage[]): number => {
    const chars = (m: LlmMessage) => (m.content as { text?: string }[]).reduce((sum, b) => sum + (b.text?.length ?? 0), 0);
    let latest = Number.NEGATIVE_INFINITY;
    let trusted: { index: number; tokens: number } | undefined;
    messages.forEach((m, index) => {
      if (m.role === "assistant" && m.usage.totalTokens > 0 && m.timestamp >= latest) trusted = { index, tokens: m.usage.totalTokens };
      latest = Math.max(latest, m.timestamp);
    });
    if (!trusted) return messages.reduce((sum, m) => sum + Math.ceil(chars(m) / 4), 0);
    return trusted.tokens + messages.slice(trusted.index + 1).reduce((sum, m) => sum + Math.ceil(chars(m) / 4), 0);
  };

  test("each request's estimate is the whole walk's, as the context grows, drops its last message, or is replaced", () => {
    let seed = 11;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const messages: LlmMessage[] = [];
    const check = (list: readonly LlmMessage[]) => expect(estimateRequestTokens({ systemPrompt: "", messages: [...list] })).toBe(inFull(list));
    for (let i = 0; i < 300; i++) {
      // Timestamps mostly rise; now and then one is older (a summary placed before newer answers).
      const at = next() < 0.1 ? Math.floor(next() * i) : i + 1000;
      messages.push(next() < 0.4 ? answer(Math.floor(next() * 3) * 500, at) : user("x".repeat(Math.floor(next() * 400)), at));
      check(messages);
      if (i % 50 === 49) {
        check(messages.slice(0, -1)); // the failed answer dropped before a retry
        check([user("summary", 1), ...messages.slice(i - 20)]); // a compaction: the context rebuilt
        check(messages);
      }
    }
  });
});
