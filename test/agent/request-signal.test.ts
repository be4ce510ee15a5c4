// Each model request runs under a signal of its own that follows the run's: what a provider's
// client leaves on it (the OpenAI SDK adds an abort listener per request and never removes it)
// does not pile up on the run's signal, and aborting the run still reaches the request at once.
import { describe, expect, test } from "bun:test";
import { getEventListeners } from "node:events";
import { runAgentLoop, type LoopConfig } from "../../src/agent/loop.ts";
import { newAssistantMessage, type AssistantMessageEvent, type Model, type StreamFunction } from "../../src/ai/types.ts";
import type { AgentMessage } from "../../src/session/format.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import type { LoopContext } from "../../src/agent/conversation.ts";

function emptyContext(): LoopContext {
  const messages: AgentMessage[] = [];
  return { messages, append: (message) => void messages.push(message) };
}
import { fakeModel } from "../helpers/fake-model.ts";

const MODEL: Model = fakeModel("http://127.0.0.1:9", { id: "m", name: "m", provider: "test", contextWindow: 100000, maxTokens: 1000 });

const NOOP: AnyTool = {
  name: "noop",
  label: "noop",
  description: "does nothing",
  parameters: { type: "object", properties: {} },
  execute: async () => ({ content: [{ type: "text", text: "done" }] }),
};

/** Calls `noop` `turns` times, then answers; like the SDK, leaves a listener on every request's signal. */
function leakyModel(turns: number, seen: AbortSignal[], onRequest?: (signal: AbortSignal) => Promise<void>): StreamFunction {
  let calls = 0;
  return async function* (model, _context, options): AsyncIterable<AssistantMessageEvent> {
    const signal = options.signal!;
    seen.push(signal);
    signal.addEventListener("abort", () => undefined, { once: true });
    await onRequest?.(signal);
    const message = newAssistantMessage(model);
    if (signal.aborted) {
      message.stopReason = "aborted";
      message.errorMessage = "Request was aborted";
      yield { type: "error", reason: "aborted", error: message };
      return;
    }
    yield { type: "start", partial: message };
    if (calls++ < turns) {
      message.content.push({ type: "toolCall", id: `c${calls}`, name: "noop", arguments: {} });
      message.stopReason = "toolUse";
    } else {
      message.content.push({ type: "text", text: "ok" });
      message.stopReason = "stop";
    }
    yield { type: "done", reason: message.stopReason === "toolUse" ? "toolUse" : "stop", message };
  };
}

function config(stream: StreamFunction): LoopConfig {
  return {
    model: MODEL,
    stream,
    streamOptions: async () => ({ apiKey: "" }),
    tools: [NOOP],
    toolContext: { cwd: "/", agentDir: "/" },
    toolExecution: "parallel",
    convert: () => [],
    takeSteering: () => [],
    takeFollowUps: () => [],
  };
}

const prompt = (): AgentMessage[] => [{ role: "user", content: "hi", timestamp: 1 } as AgentMessage];

describe("the signal of a model request", () => {
  test("a listener left on a request's signal does not stay on the run's", async () => {
    const run = new AbortController();
    const seen: AbortSignal[] = [];
    await runAgentLoop(prompt(), emptyContext(), config(leakyModel(5, seen)), () => undefined, run.signal);
    expect(seen).toHaveLength(6);
    expect(seen.every((s) => s !== run.signal)).toBe(true);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  test("aborting the run aborts the request in flight, with the run's reason", async () => {
    const run = new AbortController();
    const seen: AbortSignal[] = [];
    const stream = leakyModel(0, seen, async (signal) => {
      run.abort("stop now");
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toBe("stop now");
    });
    const produced = await runAgentLoop(prompt(), emptyContext(), config(stream), () => undefined, run.signal);
    expect(produced.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });

  test("a run already aborted hands the request an aborted signal", async () => {
    const run = new AbortController();
    run.abort();
    const seen: AbortSignal[] = [];
    const produced = await runAgentLoop(prompt(), emptyContext(), config(leakyModel(0, seen)), () => undefined, run.signal);
    expect(seen[0]?.aborted).toBe(true);
    expect(produced.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });
});
