import { describe, expect, test } from "bun:test";
import { calculateContextTokens, contextUsage, estimateContextTokens, estimateTokens } from "../../src/compaction/index.ts";
import type { AgentMessage } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { assistantMsg, chain, compaction, m, sized, toolCall, userMsg } from "./helpers.ts";

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0, totalTokens = 0) => ({
  input,
  output,
  cacheRead,
  cacheWrite,
  totalTokens,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

describe("estimateTokens", () => {
  test("counts a quarter token per character, rounded up", () => {
    expect(estimateTokens(userMsg("abcde"))).toBe(2);
    expect(estimateTokens({ role: "user", content: "abcd", timestamp: 1 })).toBe(1);
  });

  test("counts 4800 characters per image in user messages, tool results and custom messages", () => {
    const image = { type: "image", data: "AAAA", mimeType: "image/png" };
    expect(estimateTokens({ role: "user", content: [{ type: "text", text: "abcd" }, image], timestamp: 1 } as AgentMessage)).toBe(1201);
    expect(
      estimateTokens({ role: "toolResult", toolCallId: "c", toolName: "read", content: [{ type: "text", text: "abcd" }, image], isError: false, timestamp: 1 } as AgentMessage),
    ).toBe(1201);
    expect(estimateTokens({ role: "custom", customType: "x", content: [image], display: true, timestamp: 1 } as AgentMessage)).toBe(1200);
    expect(estimateTokens({ role: "custom", customType: "x", content: "abcdefgh", display: true, timestamp: 1 } as AgentMessage)).toBe(2);
  });

  test("counts assistant text, thinking and each tool call's name plus JSON arguments", () => {
    const message = assistantMsg([
      { type: "text", text: "abcd" },
      { type: "thinking", thinking: "efgh" },
      toolCall("read", { path: "a" }),
    ]);
    // 4 + 4 + "read".length + '{"path":"a"}'.length = 8 + 4 + 12
    expect(estimateTokens(message)).toBe(Math.ceil(24 / 4));
  });

  test("counts bash command plus output, and the summary of summary messages", () => {
    expect(estimateTokens({ role: "bashExecution", command: "ls", output: "a\nb", cancelled: false, truncated: false, timestamp: 1 } as AgentMessage)).toBe(2);
    expect(estimateTokens({ role: "compactionSummary", summary: "x".repeat(9), tokensBefore: 1, timestamp: 1 } as AgentMessage)).toBe(3);
    expect(estimateTokens({ role: "branchSummary", summary: "x".repeat(8), fromId: "a", timestamp: 1 } as AgentMessage)).toBe(2);
  });

  test("counts nothing for unknown roles and survives malformed content", () => {
    expect(estimateTokens({ role: "mystery", text: "abc" } as AgentMessage)).toBe(0);
    expect(estimateTokens({ role: "assistant", content: "not an array" } as unknown as AgentMessage)).toBe(0);
  });
});

describe("calculateContextTokens", () => {
  test("uses the total when the provider reported one, else the sum of the parts", () => {
    expect(calculateContextTokens(usage(10, 5, 3, 2, 99))).toBe(99);
    expect(calculateContextTokens(usage(10, 5, 3, 2, 0))).toBe(20);
  });
});

describe("estimateContextTokens", () => {
  test("takes the last trusted usage and estimates only the messages after it", () => {
    const messages = [userMsg(sized(10)), assistantMsg("ok", { totalTokens: 500 }), userMsg(sized(7))];
    expect(estimateContextTokens(messages)).toEqual({ tokens: 507, usageTokens: 500, trailingTokens: 7, lastUsageIndex: 1 });
  });

  test("skips aborted and failed answers when looking for a usage", () => {
    const messages = [assistantMsg("a", { totalTokens: 100 }), assistantMsg("", { totalTokens: 900, stopReason: "error" }), assistantMsg("", { totalTokens: 800, stopReason: "aborted" })];
    expect(estimateContextTokens(messages)).toEqual({ tokens: 100, usageTokens: 100, trailingTokens: 0, lastUsageIndex: 0 });
  });

  test("estimates everything when no answer reported a usage", () => {
    const messages = [userMsg(sized(3)), userMsg(sized(4))];
    expect(estimateContextTokens(messages)).toEqual({ tokens: 7, usageTokens: 0, trailingTokens: 7, lastUsageIndex: null });
  });
});

describe("contextUsage", () => {
  const model = { contextWindow: 1000 };

  test("is undefined without a model or a context window", () => {
    expect(contextUsage({ messages: [], branch: [], model: undefined })).toBeUndefined();
    expect(contextUsage({ messages: [], branch: [], model: { contextWindow: 0 } })).toBeUndefined();
  });

  test("reports tokens and percent of the window from the agent messages", () => {
    const messages = [userMsg("hi"), assistantMsg("ok", { totalTokens: 250 })];
    const branch = chain(m(messages[0]!), m(messages[1]!));
    expect(contextUsage({ messages, branch, model })).toEqual({ tokens: 250, contextWindow: 1000, percent: 25 });
  });

  test("is unknown after a compaction until an answer after it reports a usage", () => {
    const before = assistantMsg("old", { totalTokens: 900 });
    const branch = chain(m(userMsg("a")), m(before), compaction("S", "e1"), m(userMsg("b")));
    expect(contextUsage({ messages: [], branch, model })).toEqual({ tokens: null, contextWindow: 1000, percent: null });

    const failed = chain(m(userMsg("a")), compaction("S", "e1"), m(userMsg("b")), m(assistantMsg("", { totalTokens: 50, stopReason: "error" })));
    expect(contextUsage({ messages: [], branch: failed, model })?.tokens).toBeNull();

    const zero = chain(m(userMsg("a")), compaction("S", "e1"), m(assistantMsg("x", { totalTokens: 0 })));
    expect(contextUsage({ messages: [], branch: zero, model })?.tokens).toBeNull();

    const answered = [userMsg("b"), assistantMsg("new", { totalTokens: 100 })];
    const after = chain(m(userMsg("a")), compaction("S", "e1"), m(answered[0]!), m(answered[1]!));
    expect(contextUsage({ messages: answered, branch: after, model })).toEqual({ tokens: 100, contextWindow: 1000, percent: 10 });
  });

  test("works on store records, parsing them through the store", () => {
    const store = SessionStore.create({ cwd: "/tmp" });
    store.appendMessage(userMsg("a"));
    store.appendCompaction("S", store.leafId!, 10);
    store.appendMessage(userMsg("b"));
    store.appendMessage(assistantMsg("c", { totalTokens: 40 }));
    const usage = contextUsage({ messages: store.buildContext().messages, branch: store.branchRecords(), entryOf: store.materialise, model });
    expect(usage).toEqual({ tokens: 40, contextWindow: 1000, percent: 4 });
  });
});

describe("the context estimate of a growing conversation", () => {
  test("equals the sum measured from scratch at every length, with and without a usage to start from", () => {
    const messages: AgentMessage[] = [];
    let checked = 0;
    for (let i = 0; i < 120; i++) {
      messages.push(i % 3 === 0 ? userMsg(`prompt ${"x".repeat(i)}`) : assistantMsg(`answer ${"y".repeat(i * 2)}`));
      const fromScratch = messages.reduce((sum, message) => sum + estimateTokens(message), 0);
      expect(estimateContextTokens(messages).tokens).toBe(fromScratch);
      checked++;
    }
    // An answer that reports usage: the estimate is that usage plus the messages after it.
    const reported = { ...assistantMsg("reported"), usage: usage(1000, 10) } as AgentMessage;
    messages.push(reported);
    for (let i = 0; i < 30; i++) {
      messages.push(userMsg(`after ${"z".repeat(i)}`));
      const after = messages.slice(messages.indexOf(reported) + 1).reduce((sum, message) => sum + estimateTokens(message), 0);
      expect(estimateContextTokens(messages).tokens).toBe(1010 + after);
      checked++;
    }
    expect(checked).toBe(150);
  });
});
