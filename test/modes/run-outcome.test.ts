import { describe, expect, test } from "bun:test";
import { FAILURE_KINDS } from "../../src/ai/failure-kind.ts";
import type { AssistantMessage } from "../../src/ai/types.ts";
import { answerFailureKind, cutOffText, EXIT_CODES, exitCodeFor, LastAnswer } from "../../src/modes/run-outcome.ts";

const usage = { input: 10, output: 4096, cacheRead: 0, cacheWrite: 0, totalTokens: 4106, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const answer = (stopReason: AssistantMessage["stopReason"], errorMessage?: string): AssistantMessage =>
  ({ role: "assistant", content: [], api: "openai-completions", provider: "p", model: "m", usage, stopReason, timestamp: 0, ...(errorMessage ? { errorMessage } : {}) }) as AssistantMessage;

describe("how a headless run ends", () => {
  test("every kind has an exit code of its own, none of them a usage error's or a signal's", () => {
    const codes = FAILURE_KINDS.map((kind) => EXIT_CODES[kind]);
    expect(new Set(codes).size).toBe(FAILURE_KINDS.length);
    for (const code of codes) expect(code === 2 || code === 0 || code >= 126).toBe(false);
    expect(exitCodeFor(undefined)).toBe(0);
    expect(exitCodeFor("other")).toBe(1);
  });

  test("the kind is judged by the window of the model that answered, else the session's", () => {
    const overflowAtZero = { ...answer("length"), usage: { ...usage, input: 1000, output: 0 } };
    expect(answerFailureKind(overflowAtZero, () => ({ contextWindow: 1000 }) as never, undefined)).toBe("context_overflow");
    expect(answerFailureKind(overflowAtZero, () => undefined, 1000)).toBe("context_overflow");
    expect(answerFailureKind(overflowAtZero, () => undefined, undefined)).toBe("cut_off");
    expect(answerFailureKind(undefined, () => undefined, 1000)).toBeUndefined();
  });

  test("the cut-off warning names the model, the tokens and what to do", () => {
    expect(cutOffText(answer("length"))).toBe(
      "the answer from p/m was cut off at the model's output limit (4096 output tokens): raise the model's maxTokens (models.json) or ask for a shorter answer",
    );
  });

  test("the last answer is the run's own, even when the context dropped it", () => {
    const last = new LastAnswer();
    last.observe({ type: "message_end", message: answer("stop") });
    last.observe({ type: "agent_start" });
    expect(last.answer).toBeUndefined();
    const failed = answer("error", "400 prompt is too long");
    last.observe({ type: "message_end", message: failed });
    last.observe({ type: "message_end", message: { role: "user", content: "hi", timestamp: 0 } as never });
    expect(last.answer).toBe(failed);
  });
});
