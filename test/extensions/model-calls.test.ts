/**
 * The host's side of `model.auth` and `model.stream`, against a fake model port: pig's own model
 * and credentials are used whatever the extension sends, the stream's events come back as
 * progress and its last message as the answer, and every refusal or failure is an error message.
 */
import { describe, expect, test } from "bun:test";
import { newAssistantMessage, type AssistantMessageEvent, type LlmContext, type Model } from "../../src/ai/types.ts";
import { llmContext, modelAuth, modelStream, NO_MODEL_CALLS, type CredentialKind, type HostModelPort } from "../../src/extensions/host/model-calls.ts";
import type { ModelCallOptions, ModelStreamParams } from "../../src/extensions/protocol.ts";

type Json = Record<string, any>;

const PIG_MODEL: Model = {
  id: "m1",
  name: "m1",
  api: "openai-completions",
  provider: "p1",
  baseUrl: "http://pig.example/v1",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};

interface Call {
  model: Model;
  context: LlmContext;
  options: ModelCallOptions;
  signal: AbortSignal;
}

/** A port knowing PIG_MODEL, with `kinds` as its credentials, streaming what `answer` yields. */
function fakePort(answer: (call: Call) => AsyncIterable<AssistantMessageEvent>, kinds: Record<string, CredentialKind> = { p1: "key" }) {
  const calls: Call[] = [];
  const port: HostModelPort = {
    find: (provider, id) => (provider === PIG_MODEL.provider && id === PIG_MODEL.id ? PIG_MODEL : undefined),
    credentials: (provider) => kinds[provider],
    stream: (model, context, options, signal) => {
      calls.push({ model, context, options, signal });
      return answer(calls.at(-1)!);
    },
  };
  return { port, calls };
}

function answered(text: string): AssistantMessageEvent[] {
  const partial = newAssistantMessage(PIG_MODEL);
  partial.content = [{ type: "text", text }];
  const done = { ...partial, content: [{ type: "text" as const, text }] };
  return [
    { type: "start", partial: newAssistantMessage(PIG_MODEL) },
    { type: "text_delta", contentIndex: 0, delta: text, partial },
    { type: "done", reason: "stop", message: done },
  ];
}

async function* events(list: AssistantMessageEvent[]): AsyncIterable<AssistantMessageEvent> {
  yield* list;
}

const params = (over: Partial<ModelStreamParams> = {}): ModelStreamParams => ({
  model: { provider: "p1", id: "m1" },
  context: { systemPrompt: "be brief", messages: [{ role: "user", content: "hi" }] },
  ...over,
});

async function run(port: HostModelPort | undefined, p: ModelStreamParams, signal = new AbortController().signal) {
  const progress: Json[] = [];
  const result = await modelStream(port, p, signal, (event) => progress.push(event as Json));
  return { progress, message: result.message as Json };
}

describe("model.stream", () => {
  test("streams pig's model: every event but the last as progress, the last message as the answer", async () => {
    const { port, calls } = fakePort(() => events(answered("hello")));
    const { progress, message } = await run(port, params());
    expect(progress.map((e) => e.type)).toEqual(["start", "text_delta"]);
    expect(progress[1]).toMatchObject({ delta: "hello", partial: { content: [{ type: "text", text: "hello" }] } });
    expect(message).toMatchObject({ role: "assistant", stopReason: "stop", provider: "p1", model: "m1", content: [{ type: "text", text: "hello" }] });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.model).toBe(PIG_MODEL);
    expect(calls[0]!.context).toMatchObject({ systemPrompt: "be brief", messages: [{ role: "user", content: "hi" }] });
  });

  test("the model is pig's: a base URL, key or headers the extension sends with it are not used", async () => {
    const { port, calls } = fakePort(() => events(answered("ok")));
    const model = { provider: "p1", id: "m1", baseUrl: "http://elsewhere.example", apiKey: "pig-host-credentials" };
    await run(port, params({ model, options: { maxTokens: 9, temperature: 0.5, reasoning: "high", headers: { "x-trace": "t1", Authorization: "Bearer mine", "X-Api-Key": "mine", cookie: "c" } } }));
    expect(calls[0]!.model.baseUrl).toBe("http://pig.example/v1");
    expect(calls[0]!.options).toEqual({ maxTokens: 9, temperature: 0.5, reasoning: "high", headers: { "x-trace": "t1" } });
  });

  test("an unknown model and a provider without credentials are refused, naming the model; nothing is streamed", async () => {
    const { port, calls } = fakePort(() => events(answered("never")), {});
    const unknown = await run(port, params({ model: { provider: "p1", id: "nope" } }));
    expect(unknown.message).toMatchObject({ role: "assistant", stopReason: "error", provider: "p1", model: "nope", errorMessage: "p1/nope: not a model pig knows (pig --list-models lists them)" });
    const keyless = await run(port, params());
    expect(keyless.message).toMatchObject({
      stopReason: "error",
      errorMessage: 'p1/m1: No credentials for provider "p1" in pig (set P1_API_KEY, store a key with /login, or give the provider an "apiKey" in models.json)',
    });
    const none = await run(undefined, params());
    expect(none.message).toMatchObject({ stopReason: "error", errorMessage: `p1/m1: ${NO_MODEL_CALLS}` });
    expect(calls).toHaveLength(0);
    expect([unknown, keyless, none].map((r) => r.progress)).toEqual([[], [], []]);
  });

  test("the provider's error is the answer as pig's stream reports it; a stream that throws or ends early is an error too", async () => {
    const failing = newAssistantMessage(PIG_MODEL);
    failing.stopReason = "error";
    failing.errorMessage = "401 Unauthorized";
    const said = await run(fakePort(() => events([{ type: "error", reason: "error", error: failing }])).port, params());
    expect(said.message).toMatchObject({ stopReason: "error", errorMessage: "401 Unauthorized", provider: "p1", model: "m1" });

    const thrown = await run(
      fakePort(async function* () {
        yield* [];
        throw new Error("socket hang up");
      }).port,
      params(),
    );
    expect(thrown.message).toMatchObject({ stopReason: "error", errorMessage: "socket hang up" });

    const cut = await run(fakePort(() => events(answered("x").slice(0, 2))).port, params());
    expect(cut.message).toMatchObject({ stopReason: "error", errorMessage: "p1/m1: the stream ended without an answer" });
    expect(cut.progress.map((e) => e.type)).toEqual(["start", "text_delta"]);
  });

  test("the extension's cancel aborts pig's stream, which ends as aborted", async () => {
    const controller = new AbortController();
    const { port, calls } = fakePort(async function* (call) {
      yield { type: "start", partial: newAssistantMessage(PIG_MODEL) } as AssistantMessageEvent;
      if (!call.signal.aborted) await new Promise<void>((resolve) => call.signal.addEventListener("abort", () => resolve(), { once: true }));
      const aborted = newAssistantMessage(PIG_MODEL);
      aborted.stopReason = "aborted";
      aborted.errorMessage = "Request was aborted";
      yield { type: "error", reason: "aborted", error: aborted };
    });
    const progress: Json[] = [];
    const running = modelStream(port, params(), controller.signal, (event) => progress.push(event as Json));
    // Cancelled once the answer has started.
    while (progress.length === 0) await Bun.sleep(1);
    controller.abort();
    const { message } = await running;
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(progress.map((e) => e.type)).toEqual(["start"]);
    expect(message).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
  });
});

describe("model.stream context", () => {
  test("system messages of a Pi 0.87 transcript give the prompt and tools, and are not sent as messages", () => {
    const context = llmContext({
      messages: [
        { role: "system", content: "You review.", toolsAdded: [{ name: "look", description: "Looks", parameters: { type: "object" } }] },
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "look", arguments: {} }] },
        { role: "toolResult", toolCallId: "c1", content: [{ type: "text", text: "seen" }] },
      ],
    });
    expect(context.systemPrompt).toBe("You review.");
    expect(context.tools).toEqual([{ name: "look", description: "Looks", parameters: { type: "object" } }]);
    expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    // What an extension may leave out is filled in as pig's providers expect it.
    expect(context.messages[2]).toMatchObject({ toolName: "", isError: false, toolCallId: "c1" });
    expect(context.messages[1]).toMatchObject({ stopReason: "stop", usage: { input: 0 } });
  });

  test("a prompt and tools given with the context win over the transcript's", () => {
    const context = llmContext({
      systemPrompt: "Given.",
      tools: [{ name: "t", parameters: { type: "object", properties: {} } }],
      messages: [{ role: "system", content: "From the transcript." }, { role: "user", content: "hi" }],
    });
    expect(context.systemPrompt).toBe("Given.");
    expect(context.tools).toEqual([{ name: "t", description: "", parameters: { type: "object", properties: {} } }]);
  });
});

describe("model.auth", () => {
  test("says whether pig would make the call, and why not", () => {
    const { port } = fakePort(() => events([]), { p1: "oauth", p2: "key" });
    expect(modelAuth(port, { provider: "p1", id: "m1" })).toEqual({ ok: true, oauth: true });
    expect(modelAuth(port, { provider: "p2" })).toEqual({ ok: true, oauth: false });
    expect(modelAuth(port, { provider: "p1", id: "nope" })).toEqual({ ok: false, error: "Model p1/nope is not one pig knows (pig --list-models lists them)" });
    expect(modelAuth(port, { provider: "p3" })).toEqual({
      ok: false,
      error: 'No credentials for provider "p3" in pig (set P3_API_KEY, store a key with /login, or give the provider an "apiKey" in models.json)',
    });
    expect(modelAuth(undefined, { provider: "p1" })).toEqual({ ok: false, error: NO_MODEL_CALLS });
  });
});
