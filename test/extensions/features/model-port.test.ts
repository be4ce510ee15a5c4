/**
 * The model calls pig makes for extensions as the running session serves them: the session's key
 * and configured headers, the extension's options in place of the session's thinking level and
 * session id, no session hooks, and failure texts cleaned of the key.
 */
import { describe, expect, test } from "bun:test";
import { newAssistantMessage, type AssistantMessageEvent, type Model, type StreamFunction, type StreamOptions } from "../../../src/ai/types.ts";
import { ModelRegistry } from "../../../src/ai/registry.ts";
import { ExtensionModelPort } from "../../../src/runtime/extension-models.ts";
import { makeSession, MODEL } from "../../helpers/scripted-session.ts";
import { tempDir } from "../../helpers/tmp.ts";

const KEY = "sk-pig-session-key-93f1";

const REASONER: Model = { ...MODEL, id: "r", reasoning: true, headers: { "x-model": "m", "x-both": "model" } };

/** A session whose model calls are recorded, answering with `failure` as an error when given. */
function recording(failure?: (key: string) => string) {
  const calls: StreamOptions[] = [];
  const stream: StreamFunction = async function* (model, _context, options): AsyncIterable<AssistantMessageEvent> {
    calls.push(options);
    const message = newAssistantMessage(model);
    if (failure) {
      message.stopReason = "error";
      message.errorMessage = failure(options.apiKey);
      yield { type: "error", reason: "error", error: message };
      return;
    }
    message.content = [{ type: "text", text: "ok" }];
    yield { type: "done", reason: "stop", message };
  };
  const registry = new ModelRegistry({ agentDir: tempDir(), env: { TEST_API_KEY: KEY } });
  const { session } = makeSession([], [], { more: { streamFor: () => stream, thinkingLevel: "high", registry } });
  return { port: new ExtensionModelPort(() => session), calls, session };
}

async function drain(events: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
  const out: AssistantMessageEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe("extension model calls in the session", () => {
  test("pig's key, the extension's options: its reasoning (clamped), limits, headers under the configured ones, its session id or none", async () => {
    const { port, calls } = recording();
    const signal = new AbortController().signal;
    await drain(port.stream(REASONER, { systemPrompt: "", messages: [] }, { reasoning: "max", maxTokens: 7, temperature: 0.2, headers: { "x-mine": "1", "x-both": "ext" } }, signal));
    expect(calls[0]).toMatchObject({ apiKey: KEY, reasoning: "high", maxTokens: 7, temperature: 0.2, signal });
    expect(calls[0]!.headers).toEqual({ "x-mine": "1", "x-model": "m", "x-both": "model" });
    // Not the session's: neither its session id nor its request hooks.
    expect(calls[0]!.sessionId).toBeUndefined();
    expect(calls[0]!.onPayload).toBeUndefined();

    await drain(port.stream(REASONER, { systemPrompt: "", messages: [] }, { sessionId: "ext-1" }, signal));
    expect(calls[1]).toMatchObject({ apiKey: KEY, sessionId: "ext-1" });
    // The session thinks at "high"; a call that asks for no reasoning gets none.
    expect(calls[1]!.reasoning).toBeUndefined();
  });

  test("a failure text that quotes the key is cleaned before it leaves pig", async () => {
    const { port } = recording((key) => `401: key ${key} refused`);
    const [event] = await drain(port.stream(MODEL, { systemPrompt: "", messages: [] }, {}, new AbortController().signal));
    expect(event!.type).toBe("error");
    expect((event as Extract<AssistantMessageEvent, { type: "error" }>).error.errorMessage).toBe("401: key [redacted] refused");
  });

  test("before the session exists there is nothing to call with: an error, not a throw", async () => {
    const port = new ExtensionModelPort(() => undefined);
    expect(port.find("test", "m")).toBeUndefined();
    expect(port.credentials("test")).toBeUndefined();
    const events = await drain(port.stream(MODEL, { systemPrompt: "", messages: [] }, {}, new AbortController().signal));
    expect(events).toMatchObject([{ type: "error", error: { stopReason: "error", errorMessage: "pig is still starting: the session is not ready yet" } }]);
  });
});
