/**
 * A long run's request goes on from where the one before stood at every step of its conversion:
 * `convertToLlm` converts only the messages past the latest list it saw, `prepareMessages`
 * prepares only those (keeping the ids it renamed), and `convertCompletionsMessages` converts
 * from its last resume point. Random conversations (answers of other models, orphaned tool
 * calls, failed answers, images in results, shorter branches, a changed prompt) sent to models
 * whose compat changes the conversion must give, at every step, exactly what a conversion from
 * scratch gives.
 */
import { describe, expect, test } from "bun:test";
import { convertCompletionsMessages } from "../../src/ai/providers/openai-completions.ts";
import { prepareMessages, resolveCompat } from "../../src/ai/providers/openai-shared.ts";
import type { LlmAssistantMessage, LlmContext, LlmMessage, Model } from "../../src/ai/types.ts";
import { emptyUsage } from "../../src/ai/types.ts";
import { convertToLlm, toLlmMessage } from "../../src/session/convert.ts";
import type { AgentMessage } from "../../src/session/format.ts";
import { fakeModel } from "../helpers/fake-model.ts";

function model(id: string, overrides: Partial<Model> = {}): Model {
  return fakeModel("http://127.0.0.1:1/v1", { id, name: id, contextWindow: 1_000_000, ...overrides });
}

const TARGETS: Model[] = [
  model("plain"),
  model("after-results", { compat: { requiresAssistantAfterToolResult: true } } as Partial<Model>),
  model("named-results", { input: ["text", "image"], compat: { requiresToolResultName: true, requiresThinkingAsText: true } } as Partial<Model>),
  model("mistral-large", { provider: "mistral", reasoning: true, input: ["text", "image"] }),
  model("reasoner", { reasoning: true, compat: { supportsDeveloperRole: true } } as Partial<Model>),
];
// Answers come from the targets and from a model no request goes to (its ids are renamed for Mistral).
const AUTHORS: Model[] = [...TARGETS, model("elsewhere", { provider: "other", api: "openai-responses" } as Partial<Model>)];

/** A small seeded generator (xorshift32): the same conversations on every run. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

const IMAGE = { type: "image" as const, data: "aGVsbG8=", mimeType: "image/png" };

/** One turn: an answer from `author` with 0–2 tool calls, and results for some or all of them. */
function turn(n: number, author: Model, next: () => number): AgentMessage[] {
  const calls = Math.floor(next() * 3);
  const ids = Array.from({ length: calls }, (_, k) => `call|${n}-${k}_${"x".repeat(Math.floor(next() * 50))}`);
  const failed = next() < 0.05;
  const answer: LlmAssistantMessage = {
    role: "assistant",
    content: [
      ...(next() < 0.3 ? [{ type: "thinking" as const, thinking: `thinking ${n}`, thinkingSignature: "reasoning_content" }] : []),
      ...(next() < 0.6 ? [{ type: "text" as const, text: `answer ${n} "quoted" é` }] : []),
      ...ids.map((id) => ({ type: "toolCall" as const, id, name: "read", arguments: { path: `f${n}.ts` } })),
    ],
    api: author.api,
    provider: author.provider,
    model: author.id,
    usage: emptyUsage(),
    stopReason: failed ? "error" : calls > 0 ? "toolUse" : "stop",
    timestamp: 1_000 + n,
  };
  const out: AgentMessage[] = [answer as AgentMessage];
  for (const id of ids) {
    // Now and then a call gets no result: the preparation closes it.
    if (next() < 0.1) continue;
    out.push({
      role: "toolResult",
      toolCallId: id,
      toolName: "read",
      content: [{ type: "text", text: `result of ${id}\n` }, ...(next() < 0.2 ? [IMAGE] : [])],
      isError: false,
      timestamp: 1_000 + n,
    } as AgentMessage);
  }
  if (next() < 0.3) out.push({ role: "user", content: next() < 0.5 ? `steer ${n}` : [{ type: "text", text: `look ${n}` }, IMAGE], timestamp: 1_000 + n } as AgentMessage);
  return out;
}

describe("a request goes on from the one before", () => {
  test("random conversations: every step equals the conversion from scratch", () => {
    const next = rng(33);
    const transcript: AgentMessage[] = [{ role: "user", content: "start", timestamp: 1 } as AgentMessage];
    let prompt = "You are pig.";
    const steps: { target: Model; context: LlmContext; elements?: object[] }[] = [];
    for (let step = 0; step < 600; step++) {
      const roll = next();
      if (roll < 0.06 && transcript.length > 4) transcript.splice(transcript.length - 1 - Math.floor(next() * 4));
      else if (roll < 0.08) prompt = `You are pig, version ${step}.`;
      else transcript.push(...turn(step, AUTHORS[Math.floor(next() * AUTHORS.length)]!, next));
      // Mostly one model for a stretch, as a run is; now and then another.
      const previous = steps.at(-1)?.target;
      const target = previous && next() < 0.85 ? previous : TARGETS[Math.floor(next() * TARGETS.length)]!;
      const llm = convertToLlm(transcript);
      expect(llm).toEqual(transcript.flatMap((m) => toLlmMessage(m) ?? []));
      steps.push({ target, context: { systemPrompt: prompt, messages: llm } });
    }

    // The requests one after the other, as a run makes them; then each from scratch. (A
    // conversion from scratch in between would leave the next nothing to go on from.)
    let kept = 0;
    const resumed = steps.map(({ target, context }, i) => {
      const elements = convertCompletionsMessages(target, context, resolveCompat(target), true);
      const before = i > 0 ? steps[i - 1]! : undefined;
      if (before?.target === target && before.elements !== undefined && elements.length > before.elements.length && before.elements.every((e, k) => elements[k] === e)) kept++;
      steps[i]!.elements = elements;
      return JSON.stringify(elements);
    });
    const scratch = steps.map(({ target, context }) => JSON.stringify(convertCompletionsMessages(target, context, resolveCompat(target), false)));
    expect(resumed.length).toBe(600);
    resumed.forEach((json, i) => expect(json).toBe(scratch[i]!));
    // Most requests went on from the one before (the same elements, more after them).
    expect(kept).toBeGreaterThan(300);
  });

  test("a shorter branch, then the longer one again: each is its own conversion from scratch", () => {
    const m = TARGETS[1]!;
    const next = rng(7);
    const transcript: AgentMessage[] = [{ role: "user", content: "start", timestamp: 1 } as AgentMessage];
    for (let n = 0; n < 30; n++) transcript.push(...turn(n, m, next));
    const full = (messages: readonly AgentMessage[]): string => {
      const context: LlmContext = { systemPrompt: "p", messages: convertToLlm(messages) };
      const resumed = JSON.stringify(convertCompletionsMessages(m, context, resolveCompat(m), true));
      expect(resumed).toBe(JSON.stringify(convertCompletionsMessages(m, context, resolveCompat(m), false)));
      return resumed;
    };
    const long = full(transcript);
    const short = full(transcript.slice(0, 20));
    expect(short.length).toBeLessThan(long.length);
    expect(full(transcript)).toBe(long);
  });

  test("a message whose preparation throws leaves the kept walk as it was", () => {
    const target = TARGETS[0]!;
    const other = AUTHORS.at(-1)!;
    const answer = (ids: string[], n: number): LlmMessage =>
      ({
        role: "assistant",
        content: ids.map((id) => ({ type: "toolCall", id, name: "read", arguments: { n } })),
        api: other.api,
        provider: other.provider,
        model: other.id,
        usage: emptyUsage(),
        stopReason: "toolUse",
        timestamp: n,
      }) as LlmMessage;
    const result = (id: string, n: number): LlmMessage => ({ role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text: `r${n}` }], isError: false, timestamp: n });
    // The failing answer renames its first call before its second throws.
    const messages: LlmMessage[] = [{ role: "user", content: "go", timestamp: 0 }, answer(["a"], 1), result("a", 1), answer(["c", "boom"], 2), result("c", 2), result("boom", 2)];
    const upper = (id: string) => id.toUpperCase();
    const failing = (id: string) => {
      if (id === "boom") throw new Error("cannot rename boom");
      return upper(id);
    };
    prepareMessages(messages.slice(0, 3), target, failing, "key");
    expect(() => prepareMessages(messages, target, failing, "key")).toThrow("cannot rename boom");
    // Going on from the kept walk gives what a preparation from scratch gives, with no rename
    // left behind by the answer that failed: here that answer comes back from this very model.
    const same = { ...(messages[3] as object), api: target.api, provider: target.provider, model: target.id } as LlmMessage;
    const after = [...messages.slice(0, 3), same, ...messages.slice(4)];
    const resumed = prepareMessages(after, target, upper, "key");
    expect(resumed).toEqual(prepareMessages(after, target, upper));
    expect(resumed.map((m) => (m.role === "toolResult" ? m.toolCallId : m.role))).toEqual(["user", "assistant", "A", "assistant", "c", "boom"]);
  });

  test("convertToLlm gives a list of the caller's own: changing it changes nothing later", () => {
    const messages: AgentMessage[] = [{ role: "user", content: "a", timestamp: 1 } as AgentMessage];
    const first: LlmMessage[] = convertToLlm(messages);
    first.push({ role: "user", content: "added by the caller", timestamp: 2 });
    messages.push({ role: "user", content: "b", timestamp: 3 } as AgentMessage);
    expect(convertToLlm(messages).map((m) => m.content)).toEqual(["a", "b"]);
  });
});
