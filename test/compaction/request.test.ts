import { describe, expect, test } from "bun:test";
import { newAssistantMessage, type AssistantMessageEvent, type Model, type StreamFunction } from "../../src/ai/types.ts";
import { requestSummary, type SummaryCall } from "../../src/compaction/request.ts";

const MODEL = { id: "m", name: "m", api: "openai-completions", provider: "p", baseUrl: "http://x", reasoning: false, input: ["text"], contextWindow: 1000, maxTokens: 100, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } as unknown as Model;

/** A stream function that plays one scripted outcome per call and counts the calls. */
function scripted(outcomes: ("ok" | string)[]): { stream: StreamFunction; calls: () => number } {
  let calls = 0;
  const stream = async function* (): AsyncIterable<AssistantMessageEvent> {
    const outcome = outcomes[calls++] ?? "ok";
    const message = newAssistantMessage(MODEL);
    if (outcome === "ok") {
      message.content = [{ type: "text", text: "the summary" }];
      yield { type: "done", reason: "stop", message } as AssistantMessageEvent;
    } else {
      yield { type: "error", reason: "error", error: { ...message, stopReason: "error", errorMessage: outcome } } as AssistantMessageEvent;
    }
  } as unknown as StreamFunction;
  return { stream, calls: () => calls };
}

const call = (stream: StreamFunction, extra: Partial<SummaryCall> = {}): SummaryCall => ({ model: MODEL, stream, apiKey: "k", ...extra });
const REQUEST = { userText: "summarise", maxTokens: 100 };

describe("requestSummary", () => {
  test("a passing failure is retried with backoff, and the answer arrives", async () => {
    const { stream, calls } = scripted(["503 Service Unavailable", "429 Too Many Requests", "ok"]);
    const started = Date.now();
    const response = await requestSummary(call(stream, { retry: { maxRetries: 3, baseDelayMs: 20 } }), REQUEST);
    expect(response).toMatchObject({ kind: "text", text: "the summary" });
    expect(calls()).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  test("gives up after maxRetries, with the last error", async () => {
    const { stream, calls } = scripted(["503 one", "503 two", "503 three"]);
    const response = await requestSummary(call(stream, { retry: { maxRetries: 1, baseDelayMs: 1 } }), REQUEST);
    expect(response).toEqual({ kind: "error", message: "503 two" });
    expect(calls()).toBe(2);
  });

  test("errors that will not pass, and calls without a retry policy, are not retried", async () => {
    const bad = scripted(["400 invalid request: missing field"]);
    expect(await requestSummary(call(bad.stream, { retry: { maxRetries: 3, baseDelayMs: 1 } }), REQUEST)).toMatchObject({ kind: "error" });
    expect(bad.calls()).toBe(1);
    const none = scripted(["503 busy"]);
    expect(await requestSummary(call(none.stream), REQUEST)).toEqual({ kind: "error", message: "503 busy" });
    expect(none.calls()).toBe(1);
  });

  test("an abort during the wait ends it as aborted, without another request", async () => {
    const { stream, calls } = scripted(["503 busy", "ok"]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const response = await requestSummary(call(stream, { signal: controller.signal, retry: { maxRetries: 3, baseDelayMs: 5000 } }), REQUEST);
    expect(response).toEqual({ kind: "aborted" });
    expect(calls()).toBe(1);
  });
});

describe("requestSummary: retry events", () => {
  function recorder() {
    const told: unknown[][] = [];
    return {
      told,
      events: {
        scheduled: (...args: unknown[]) => told.push(["scheduled", ...args]),
        attemptStart: () => told.push(["attemptStart"]),
        finished: () => told.push(["finished"]),
      },
    };
  }

  test("each retry is scheduled, then started; the end of retrying is told once", async () => {
    const { stream } = scripted(["503 one", "429 two", "ok"]);
    const { told, events } = recorder();
    const response = await requestSummary(call(stream, { retry: { maxRetries: 3, baseDelayMs: 1, events } }), REQUEST);
    expect(response).toMatchObject({ kind: "text", text: "the summary" });
    expect(told).toEqual([["scheduled", 1, 3, 1, "503 one"], ["attemptStart"], ["scheduled", 2, 3, 2, "429 two"], ["attemptStart"], ["finished"]]);
  });

  test("nothing is told when the first attempt succeeds or fails for good", async () => {
    for (const outcome of ["ok", "400 invalid request"]) {
      const { told, events } = recorder();
      await requestSummary(call(scripted([outcome]).stream, { retry: { maxRetries: 3, baseDelayMs: 1, events } }), REQUEST);
      expect(told).toEqual([]);
    }
  });

  test("running out of attempts and an abort in the wait end the retrying too", async () => {
    const exhausted = recorder();
    await requestSummary(call(scripted(["503 a", "503 b"]).stream, { retry: { maxRetries: 1, baseDelayMs: 1, events: exhausted.events } }), REQUEST);
    expect(exhausted.told.map((t) => t[0])).toEqual(["scheduled", "attemptStart", "finished"]);
    const stopped = recorder();
    const controller = new AbortController();
    const scheduled = { ...stopped.events, scheduled: (...args: unknown[]) => (stopped.told.push(["scheduled", ...args]), controller.abort()) };
    const response = await requestSummary(call(scripted(["503 a", "ok"]).stream, { signal: controller.signal, retry: { maxRetries: 3, baseDelayMs: 5000, events: scheduled } }), REQUEST);
    expect(response).toEqual({ kind: "aborted" });
    expect(stopped.told.map((t) => t[0])).toEqual(["scheduled", "finished"]);
  });
});
