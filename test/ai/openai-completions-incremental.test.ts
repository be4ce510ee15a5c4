/**
 * A long run's chat-completions requests are built from elements and JSON kept from the requests
 * before (openai-completions-messages.ts, openai-completions-body.ts): every request of a growing
 * conversation must equal the one built from scratch, byte for byte, also after the model
 * changes, when a message was converted for another model, and with a payload hook.
 */
import { describe, expect, test } from "bun:test";
import { buildCompletionsRequest, convertCompletionsMessages } from "../../src/ai/providers/openai-completions.ts";
import { completionsBodyBytes, lendCompletionsBody } from "../../src/ai/providers/openai-completions-body.ts";
import { resolveCompat } from "../../src/ai/providers/openai-shared.ts";
import type { LlmAssistantMessage, LlmContext, Model } from "../../src/ai/types.ts";
import { emptyUsage } from "../../src/ai/types.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import type { AgentMessage } from "../../src/session/format.ts";

function model(overrides: Partial<Model> = {}): Model {
  return {
    id: "fake-model",
    name: "fake-model",
    api: "openai-completions",
    provider: "fake",
    baseUrl: "http://127.0.0.1:1/v1",
    reasoning: false,
    input: ["text"],
    contextWindow: 1_000_000,
    maxTokens: 16384,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ...overrides,
  } as Model;
}

/** Turn i of a tool loop: the answer calling `read`, and its result (with text a JSON writer must escape). */
function turn(i: number, from: Model): AgentMessage[] {
  const id = `call_${i}`;
  const answer: LlmAssistantMessage = {
    role: "assistant",
    content: [
      ...(i % 3 === 0 ? [{ type: "thinking" as const, thinking: `thinking ${i}`, thinkingSignature: "reasoning_content" }] : []),
      ...(i % 2 === 0 ? [{ type: "text" as const, text: `reading file ${i} "quoted" \\ é` }] : []),
      { type: "toolCall", id, name: "read", arguments: { path: `src/file-${i}.ts` } },
    ],
    api: from.api,
    provider: from.provider,
    model: from.id,
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 1_000 + i,
  };
  const result = {
    role: "toolResult" as const,
    toolCallId: id,
    toolName: "read",
    content: [{ type: "text" as const, text: `line 1 of ${i}\n\t"tab" and a lone \ud800 surrogate\n${"x".repeat(i * 7)}` }],
    isError: false,
    timestamp: 1_000 + i,
  };
  return [answer as AgentMessage, result as AgentMessage];
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** What the request was before elements were kept: converted from scratch, written by JSON.stringify. */
function fromScratch(m: Model, context: LlmContext): string {
  const { body } = buildCompletionsRequest(m, context, { apiKey: "k", onPayload: async () => undefined });
  return JSON.stringify({ ...body, messages: convertCompletionsMessages(m, context, resolveCompat(m), false) });
}

describe("openai-completions requests of a growing conversation", () => {
  test("every request equals the one built from scratch, byte for byte", () => {
    const m = model();
    const messages: AgentMessage[] = [{ role: "user", content: "work through the files", timestamp: 1 } as AgentMessage];
    let compared = 0;
    for (let i = 0; i < 150; i++) {
      messages.push(...turn(i, m));
      const context: LlmContext = { systemPrompt: "You are pig.", messages: convertToLlm(messages) };
      const { body } = buildCompletionsRequest(m, context, { apiKey: "k" });
      const bytes = completionsBodyBytes(body);
      expect(decode(bytes)).toBe(JSON.stringify(body));
      expect(decode(bytes)).toBe(fromScratch(m, context));
      compared++;
    }
    expect(compared).toBe(150);
  });

  test("the elements are kept: a message converted once is the same element on the next request", () => {
    const m = model();
    const messages: AgentMessage[] = [{ role: "user", content: "go", timestamp: 1 } as AgentMessage, ...turn(1, m)];
    const first = buildCompletionsRequest(m, { systemPrompt: "", messages: convertToLlm(messages) }, { apiKey: "k" }).body.messages as object[];
    messages.push(...turn(2, m));
    const second = buildCompletionsRequest(m, { systemPrompt: "", messages: convertToLlm(messages) }, { apiKey: "k" }).body.messages as object[];
    expect(second.length).toBe(first.length + 2);
    first.forEach((element, i) => expect(second[i]).toBe(element));
  });

  test("another model, or another model's answers, give the request built from scratch", () => {
    const a = model();
    const b = model({ id: "other-model", reasoning: true, compat: { requiresToolResultName: true, requiresThinkingAsText: true } } as Partial<Model>);
    const messages: AgentMessage[] = [{ role: "user", content: "go", timestamp: 1 } as AgentMessage];
    for (let i = 0; i < 40; i++) {
      // Answers alternate between the two models; requests go to either.
      messages.push(...turn(i, i % 2 === 0 ? a : b));
      for (const target of [a, b]) {
        const context: LlmContext = { systemPrompt: "sys", messages: convertToLlm(messages) };
        const { body } = buildCompletionsRequest(target, context, { apiKey: "k" });
        expect(decode(completionsBodyBytes(body))).toBe(fromScratch(target, context));
      }
    }
  });

  test("a payload hook gets fresh elements: what it changes is not kept for the next request", async () => {
    const m = model();
    const messages: AgentMessage[] = [{ role: "user", content: "go", timestamp: 1 } as AgentMessage, ...turn(1, m)];
    const context = (): LlmContext => ({ systemPrompt: "", messages: convertToLlm(messages) });
    const before = decode(completionsBodyBytes(buildCompletionsRequest(m, context(), { apiKey: "k" }).body));
    const hooked = buildCompletionsRequest(m, context(), { apiKey: "k", onPayload: async () => undefined }).body;
    const tool = (hooked.messages as { role: string; content: string }[]).find((e) => e.role === "tool")!;
    tool.content = "changed by a hook";
    const next = buildCompletionsRequest(m, context(), { apiKey: "k" }).body;
    expect(JSON.stringify(next)).not.toContain("changed by a hook");
    expect(decode(completionsBodyBytes(next))).toBe(before);
    expect(before).toBe(fromScratch(m, context()));
  });

  test("a body whose buffer was handed over does not leave the next one short", () => {
    const m = model();
    const messages: AgentMessage[] = [{ role: "user", content: "go", timestamp: 1 } as AgentMessage, ...turn(1, m)];
    const context = (): LlmContext => ({ systemPrompt: "", messages: convertToLlm(messages) });
    const first = completionsBodyBytes(buildCompletionsRequest(m, context(), { apiKey: "k" }).body);
    structuredClone(first.buffer, { transfer: [first.buffer as ArrayBuffer] });
    expect(first.byteLength).toBe(0);
    messages.push(...turn(2, m));
    const { body } = buildCompletionsRequest(m, context(), { apiKey: "k" });
    expect(decode(completionsBodyBytes(body))).toBe(fromScratch(m, context()));
  });

  test("lent bodies: each equals JSON.stringify's, the next is written into the same buffer once the last is given back, never while it is out", () => {
    const m = model();
    const other = model({ id: "a-model-with-a-longer-name" } as Partial<Model>);
    const messages: AgentMessage[] = [{ role: "user", content: "work through the files", timestamp: 1 } as AgentMessage];
    let inPlace = 0;
    let previous: ReturnType<typeof lendCompletionsBody> | undefined;
    for (let i = 0; i < 120; i++) {
      messages.push(...turn(i, m));
      // Now and then another model (another head), a shorter branch, or a body kept out.
      const target = i % 17 === 16 ? other : m;
      const sentMessages = i % 23 === 22 ? messages.slice(0, messages.length - 6) : messages;
      const context: LlmContext = { systemPrompt: "You are pig.", messages: convertToLlm(sentMessages) };
      const { body } = buildCompletionsRequest(target, context, { apiKey: "k" });
      const body2 = lendCompletionsBody(body);
      expect(decode(body2.bytes)).toBe(JSON.stringify(body));
      // Converted from scratch every tenth request only: that conversion makes fresh elements.
      if (i % 10 === 0) expect(decode(body2.bytes)).toBe(fromScratch(target, context));
      if (previous && body2.bytes.buffer === previous.bytes.buffer) inPlace++;
      if (i % 11 === 10) {
        // Out while the next is written: the next gets a buffer of its own and these bytes stay.
        const kept = decode(body2.bytes);
        messages.push(...turn(1000 + i, m));
        const next = buildCompletionsRequest(m, { systemPrompt: "You are pig.", messages: convertToLlm(messages) }, { apiKey: "k" }).body;
        const second = lendCompletionsBody(next);
        expect(second.bytes.buffer).not.toBe(body2.bytes.buffer);
        expect(decode(second.bytes)).toBe(JSON.stringify(next));
        expect(decode(body2.bytes)).toBe(kept);
        body2.giveBack();
        second.giveBack();
        previous = second;
        continue;
      }
      body2.giveBack();
      previous = body2;
    }
    // Most requests of a growing conversation reuse the buffer.
    expect(inPlace).toBeGreaterThan(60);
  });

  test("a body without messages or extra fields is written as JSON.stringify writes it", () => {
    for (const body of [{ model: "m", messages: [] }, { model: "m\"x", messages: [{ role: "user", content: "é" }], stream: true, tools: [] }]) {
      expect(decode(completionsBodyBytes(body))).toBe(JSON.stringify(body));
    }
  });
});
