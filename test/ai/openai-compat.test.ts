/**
 * Request building beyond the fixtures: per-server compat defaults, thinking formats, replay of
 * other models' messages, failed turns, orphaned tool calls, images.
 */
import { describe, expect, test } from "bun:test";
import { buildCompletionsRequest, detectCompat, resolveCompat } from "../../src/ai/providers/openai-completions.ts";
import { buildResponsesRequest } from "../../src/ai/providers/openai-responses-request.ts";
import type { LlmAssistantMessage } from "../../src/ai/message-types.ts";
import type { LlmContext, LlmMessage, Model } from "../../src/ai/types.ts";
import { emptyUsage } from "../../src/ai/types.ts";

function model(overrides: Partial<Model> = {}): Model {
  return {
    id: "m-1",
    name: "m-1",
    api: "openai-completions",
    provider: "custom",
    baseUrl: "http://127.0.0.1:8080/v1",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 100000,
    maxTokens: 4096,
    ...overrides,
  };
}

const OPTIONS = { apiKey: "k" };

function user(text: string): LlmMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp: 1 };
}

function assistant(content: LlmAssistantMessage["content"], from: Partial<LlmAssistantMessage> = {}): LlmAssistantMessage {
  return {
    role: "assistant",
    content,
    api: "openai-completions",
    provider: "custom",
    model: "m-1",
    usage: emptyUsage(),
    stopReason: content.some((b) => b.type === "toolCall") ? "toolUse" : "stop",
    timestamp: 1,
    ...from,
  };
}

function toolResult(toolCallId: string, text: string, extra: Partial<Extract<LlmMessage, { role: "toolResult" }>> = {}): LlmMessage {
  return { role: "toolResult", toolCallId, toolName: "bash", content: [{ type: "text", text }], isError: false, timestamp: 1, ...extra };
}

const TOOL = { name: "bash", description: "Run a command", parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } };

function ctx(messages: LlmMessage[], tools = [TOOL]): LlmContext {
  return { systemPrompt: "SYS", messages, tools };
}

describe("resolveCompat", () => {
  test("asked again for the same model, answers as afresh: the fields it reads changed in place are followed", () => {
    const m = model();
    const first = resolveCompat(m);
    expect(first).toEqual(detectCompat(m));
    expect(resolveCompat(m)).toBe(first);
    m.baseUrl = "https://api.deepseek.com";
    expect(resolveCompat(m)).toEqual(detectCompat(m));
    expect(resolveCompat(m)).not.toEqual(first);
    m.compat = { supportsStore: true };
    expect(resolveCompat(m).supportsStore).toBe(true);
    m.compat = { supportsStore: false };
    expect(resolveCompat(m).supportsStore).toBe(false);
    m.provider = "openrouter";
    m.id = "other";
    expect(resolveCompat(m)).toEqual({ ...detectCompat(m), supportsStore: false });
  });
});

describe("detectCompat", () => {
  test("OpenAI and unknown servers (e.g. the fixtures' 127.0.0.1) behave like OpenAI", () => {
    for (const m of [model(), model({ provider: "openai", baseUrl: "https://api.openai.com/v1" })]) {
      expect(detectCompat(m)).toMatchObject({
        supportsStore: true,
        supportsDeveloperRole: true,
        supportsReasoningEffort: true,
        maxTokensField: "max_completion_tokens",
        thinkingFormat: "openai",
        // Being OpenAI-compatible says nothing of strict tool schemas (Pi 0.87): only compat turns it on.
        supportsStrictMode: false,
      });
    }
  });
  test("known servers, by provider or base URL", () => {
    expect(detectCompat(model({ provider: "mistral" }))).toMatchObject({
      supportsStore: false,
      supportsDeveloperRole: false,
      maxTokensField: "max_tokens",
      requiresToolResultName: true,
      requiresThinkingAsText: true,
      requiresMistralToolIds: true,
    });
    expect(detectCompat(model({ baseUrl: "https://api.deepseek.com" }))).toMatchObject({
      thinkingFormat: "deepseek",
      requiresReasoningContentOnAssistantMessages: true,
      supportsStore: false,
    });
    expect(detectCompat(model({ provider: "xai" }))).toMatchObject({ supportsReasoningEffort: false, supportsDeveloperRole: false });
    expect(detectCompat(model({ baseUrl: "https://api.groq.com/openai/v1" }))).toMatchObject({ supportsStore: true, supportsDeveloperRole: true });
    expect(detectCompat(model({ provider: "cerebras" }))).toMatchObject({ supportsStore: false, supportsDeveloperRole: false });
    expect(detectCompat(model({ baseUrl: "https://openrouter.ai/api/v1", id: "anthropic/claude-x" }))).toMatchObject({
      thinkingFormat: "openrouter",
      cacheControlFormat: "anthropic",
      supportsStore: true,
    });
    expect(detectCompat(model({ baseUrl: "http://localhost:11434/v1" }))).toMatchObject({
      maxTokensField: "max_tokens",
      supportsStore: false,
      supportsStrictMode: false,
    });
    expect(detectCompat(model({ baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai" }))).toMatchObject({
      maxTokensField: "max_tokens",
      supportsDeveloperRole: false,
    });
    expect(detectCompat(model({ provider: "zai" }))).toMatchObject({ thinkingFormat: "zai", supportsReasoningEffort: false });
  });
  test("model.compat keys win", () => {
    const m = model({ provider: "mistral", compat: { maxTokensField: "max_completion_tokens", supportsStore: true } });
    const { body } = buildCompletionsRequest(m, ctx([user("hi")]), OPTIONS);
    expect(body.max_completion_tokens).toBe(4096);
    expect(body.max_tokens).toBeUndefined();
    expect(body.store).toBe(false);
  });
});

describe("openai-completions bodies", () => {
  test("Mistral: max_tokens, system role, named tool results, thinking as text, 9-character tool ids", () => {
    const m = model({ provider: "mistral", baseUrl: "https://api.mistral.ai/v1", reasoning: true, id: "magistral" });
    const other = { provider: "openai", api: "openai-responses" as const, model: "gpt-x" };
    const messages: LlmMessage[] = [
      user("go"),
      assistant(
        [
          { type: "thinking", thinking: "hmm", thinkingSignature: "{}" },
          { type: "text", text: "ok" },
          { type: "toolCall", id: "call_abc|fc_123", name: "bash", arguments: { command: "ls" } },
        ],
        other,
      ),
      toolResult("call_abc|fc_123", "files"),
      user("next"),
    ];
    const { body } = buildCompletionsRequest(m, ctx(messages), { apiKey: "k", reasoning: "high" });
    expect(Object.keys(body)).toEqual(["model", "messages", "stream", "stream_options", "max_tokens", "tools", "reasoning_effort"]);
    const sent = body.messages as Record<string, unknown>[];
    expect(sent[0]).toEqual({ role: "system", content: "SYS" });
    // another model's thinking arrives as text, ahead of the answer text
    expect(sent[2]).toEqual({
      role: "assistant",
      content: "hmmok",
      tool_calls: [{ id: "callabcfc", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
    });
    expect(sent[3]).toEqual({ role: "tool", content: "files", tool_call_id: "callabcfc", name: "bash" });
  });

  test("same-model thinking with requiresThinkingAsText goes first in the content array", () => {
    const m = model({ provider: "mistral", reasoning: true });
    const messages: LlmMessage[] = [user("q"), assistant([{ type: "thinking", thinking: "think", thinkingSignature: "reasoning_content" }, { type: "text", text: "answer" }], { provider: "mistral" }), user("q2")];
    const sent = buildCompletionsRequest(m, ctx(messages), OPTIONS).body.messages as Record<string, unknown>[];
    expect(sent[2]).toEqual({ role: "assistant", content: [{ type: "text", text: "think" }, { type: "text", text: "answer" }] });
  });

  test("DeepSeek: thinking on/off, mapped effort, reasoning_content on every assistant message", () => {
    const m = model({
      provider: "deepseek",
      baseUrl: "https://api.deepseek.com",
      reasoning: true,
      thinkingLevelMap: { minimal: null, low: null, medium: null, high: "high", xhigh: "max" },
    });
    const messages: LlmMessage[] = [user("a"), assistant([{ type: "text", text: "b" }], { provider: "deepseek" }), user("c")];
    const on = buildCompletionsRequest(m, ctx(messages), { apiKey: "k", reasoning: "xhigh" }).body;
    expect(on.thinking).toEqual({ type: "enabled" });
    expect(on.reasoning_effort).toBe("max");
    expect((on.messages as Record<string, unknown>[])[2]).toEqual({ role: "assistant", content: "b", reasoning_content: "" });
    const off = buildCompletionsRequest(m, ctx(messages), { apiKey: "k", reasoning: "off" }).body;
    expect(off.thinking).toEqual({ type: "disabled" });
    expect(off.reasoning_effort).toBeUndefined();
  });

  test("OpenRouter: reasoning object, explicit off, Anthropic cache breakpoints", () => {
    const m = model({ provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1", id: "anthropic/claude-sonnet", reasoning: true });
    const messages: LlmMessage[] = [user("first"), assistant([{ type: "text", text: "reply" }], { provider: "openrouter", model: "anthropic/claude-sonnet" }), user("second")];
    const on = buildCompletionsRequest(m, ctx(messages), { apiKey: "k", reasoning: "medium" }).body;
    expect(on.reasoning).toEqual({ effort: "medium" });
    expect(on.reasoning_effort).toBeUndefined();
    const sent = on.messages as Record<string, unknown>[];
    expect(sent[0]).toEqual({ role: "developer", content: [{ type: "text", text: "SYS", cache_control: { type: "ephemeral" } }] });
    expect(sent[1]).toEqual({ role: "user", content: [{ type: "text", text: "first" }] });
    expect(sent[3]).toEqual({ role: "user", content: [{ type: "text", text: "second", cache_control: { type: "ephemeral" } }] });
    const tools = on.tools as Record<string, unknown>[];
    expect(tools[tools.length - 1]!.cache_control).toEqual({ type: "ephemeral" });
    expect(buildCompletionsRequest(m, ctx(messages), { apiKey: "k", reasoning: "off" }).body.reasoning).toEqual({ effort: "none" });
  });

  test("a model whose off level is mapped sends it; thinking off otherwise sends nothing", () => {
    const mapped = model({ reasoning: true, thinkingLevelMap: { off: "none" } });
    expect(buildCompletionsRequest(mapped, ctx([user("x")]), { apiKey: "k", reasoning: "off" }).body.reasoning_effort).toBe("none");
    expect(buildCompletionsRequest(model({ reasoning: true }), ctx([user("x")]), { apiKey: "k", reasoning: "off" }).body.reasoning_effort).toBeUndefined();
    expect(buildCompletionsRequest(model({ reasoning: false }), ctx([user("x")]), { apiKey: "k", reasoning: "high" }).body.reasoning_effort).toBeUndefined();
  });

  test("failed turns are dropped; an unanswered tool call gets 'No result provided'", () => {
    const messages: LlmMessage[] = [
      user("one"),
      assistant([{ type: "text", text: "half" }], { stopReason: "error", errorMessage: "terminated" }),
      assistant([{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "sleep 100" } }]),
      user("stop that"),
      assistant([{ type: "text", text: "ok" }], { stopReason: "aborted" }),
    ];
    const sent = buildCompletionsRequest(model(), ctx(messages), OPTIONS).body.messages as Record<string, unknown>[];
    expect(sent.slice(1)).toEqual([
      { role: "user", content: [{ type: "text", text: "one" }] },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "bash", arguments: '{"command":"sleep 100"}' } }] },
      { role: "tool", content: "No result provided", tool_call_id: "call_1" },
      { role: "user", content: [{ type: "text", text: "stop that" }] },
    ]);
  });

  test("tool history without tools sends tools: []; no tools and no history sends no key", () => {
    const history: LlmMessage[] = [user("a"), assistant([{ type: "toolCall", id: "c", name: "bash", arguments: {} }]), toolResult("c", "r")];
    expect(buildCompletionsRequest(model(), { systemPrompt: "S", messages: history }, OPTIONS).body.tools).toEqual([]);
    expect("tools" in buildCompletionsRequest(model(), { systemPrompt: "S", messages: [user("a")] }, OPTIONS).body).toBe(false);
  });

  test("images: dropped for a text-only model, sent as data URLs otherwise", () => {
    const image = { type: "image" as const, mimeType: "image/png", data: "AAAA" };
    const messages: LlmMessage[] = [
      { role: "user", content: [{ type: "text", text: "look" }, image], timestamp: 1 },
      assistant([{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a.png" } }]),
      { role: "toolResult", toolCallId: "c1", toolName: "read", content: [image], isError: false, timestamp: 1 },
    ];
    const textOnly = buildCompletionsRequest(model(), ctx(messages), OPTIONS).body.messages as Record<string, unknown>[];
    expect(textOnly[1]).toEqual({ role: "user", content: [{ type: "text", text: "look" }] });
    expect(textOnly[3]).toEqual({ role: "tool", content: "(see attached image)", tool_call_id: "c1" });
    expect(textOnly.length).toBe(4);
    const vision = buildCompletionsRequest(model({ input: ["text", "image"] }), ctx(messages), OPTIONS).body.messages as Record<string, unknown>[];
    expect(vision[1]).toEqual({ role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] });
    expect(vision[4]).toEqual({
      role: "user",
      content: [{ type: "text", text: "Attached image(s) from tool result:" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }],
    });
  });

  test("api.openai.com gets prompt_cache_key; temperature and maxTokens options", () => {
    const m = model({ provider: "openai", baseUrl: "https://api.openai.com/v1" });
    const { body } = buildCompletionsRequest(m, ctx([user("x")]), { apiKey: "k", sessionId: "s1", temperature: 0.2, maxTokens: 99 });
    expect(Object.keys(body)).toEqual(["model", "messages", "stream", "prompt_cache_key", "stream_options", "store", "max_completion_tokens", "temperature", "tools"]);
    expect(body.prompt_cache_key).toBe("s1");
    expect(body.max_completion_tokens).toBe(99);
  });

  test("headers: model headers, then the caller's; session affinity only when asked", () => {
    const m = model({ headers: { "x-a": "model", "x-b": "model" }, compat: { sendSessionAffinityHeaders: true } });
    const { headers } = buildCompletionsRequest(m, ctx([user("x")]), { apiKey: "k", sessionId: "s", headers: { "x-b": "call" } });
    expect(headers).toEqual({ "x-a": "model", "x-b": "call", session_id: "s", "x-client-request-id": "s", "x-session-affinity": "s" });
  });

  test("unpaired surrogates are removed from text", () => {
    const sent = buildCompletionsRequest(model(), ctx([user("bad \uD800 text")]), OPTIONS).body.messages as Record<string, unknown>[];
    expect(sent[1]).toEqual({ role: "user", content: [{ type: "text", text: "bad  text" }] });
  });
});

describe("openai-responses bodies", () => {
  const reasoner = model({ api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1", id: "gpt-x", reasoning: true });

  test("thinking off on a reasoning model: effort none (or the map's off value), nothing when off is unsupported", () => {
    expect(buildResponsesRequest(reasoner, ctx([user("x")]), { apiKey: "k", reasoning: "off" }).body.reasoning).toEqual({ effort: "none" });
    const mapped = { ...reasoner, thinkingLevelMap: { off: "minimal" } };
    expect(buildResponsesRequest(mapped, ctx([user("x")]), { apiKey: "k" }).body.reasoning).toEqual({ effort: "minimal" });
    const always = { ...reasoner, thinkingLevelMap: { off: null } };
    expect("reasoning" in buildResponsesRequest(always, ctx([user("x")]), { apiKey: "k" }).body).toBe(false);
    const plain = model({ api: "openai-responses" });
    const body = buildResponsesRequest(plain, ctx([user("x")]), { apiKey: "k", reasoning: "high" }).body;
    expect("reasoning" in body).toBe(false);
    expect((body.input as Record<string, unknown>[])[0]).toEqual({ role: "system", content: "SYS" });
  });

  test("xhigh sent only when mapped, with its mapped value", () => {
    const m = { ...reasoner, thinkingLevelMap: { xhigh: "xhigh" } };
    const body = buildResponsesRequest(m, ctx([user("x")]), { apiKey: "k", reasoning: "xhigh" }).body;
    expect(body.reasoning).toEqual({ effort: "xhigh", summary: "auto" });
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
  });

  test("another model's turn: thinking becomes text, a plain tool call id stays one", () => {
    const messages: LlmMessage[] = [
      user("go"),
      assistant(
        [
          { type: "thinking", thinking: "plan", thinkingSignature: "reasoning_content" },
          { type: "toolCall", id: "call/1", name: "bash", arguments: { command: "ls" } },
        ],
        { provider: "groq", model: "oss" },
      ),
      toolResult("call/1", "out"),
    ];
    const input = buildResponsesRequest(reasoner, ctx(messages), { apiKey: "k", reasoning: "low" }).body.input as Record<string, unknown>[];
    expect(input.slice(1)).toEqual([
      { role: "user", content: [{ type: "input_text", text: "go" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "plan", annotations: [] }], status: "completed", id: "msg_pi_1" },
      { type: "function_call", call_id: "call_1", name: "bash", arguments: '{"command":"ls"}' },
      { type: "function_call_output", call_id: "call_1", output: "out" },
    ]);
  });

  test("the same model's turn replays reasoning items, message ids (with phase) and call|item ids", () => {
    const reasoning = { id: "rs_1", type: "reasoning", summary: [], encrypted_content: "ENC" };
    const messages: LlmMessage[] = [
      user("go"),
      assistant(
        [
          { type: "thinking", thinking: "", thinkingSignature: JSON.stringify(reasoning) },
          { type: "text", text: "doing", textSignature: JSON.stringify({ v: 1, id: "msg_9", phase: "commentary" }) },
          { type: "toolCall", id: "call_7|fc_7", name: "bash", arguments: {} },
        ],
        { provider: "openai", api: "openai-responses", model: "gpt-x" },
      ),
      toolResult("call_7|fc_7", "", { content: [{ type: "image", mimeType: "image/png", data: "QQ==" }] }),
    ];
    const input = buildResponsesRequest({ ...reasoner, input: ["text", "image"] }, ctx(messages), { apiKey: "k", reasoning: "low" }).body
      .input as Record<string, unknown>[];
    expect(input.slice(2)).toEqual([
      reasoning,
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "doing", annotations: [] }], status: "completed", id: "msg_9", phase: "commentary" },
      { type: "function_call", id: "fc_7", call_id: "call_7", name: "bash", arguments: "{}" },
      // Pi 0.87.1: the images inside the result's output (0.73.1 sent them in a user message after it).
      { type: "function_call_output", call_id: "call_7", output: [{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,QQ==" }] },
    ]);
    // A model without image input: the placeholder text.
    const textOnly = buildResponsesRequest(reasoner, ctx(messages), { apiKey: "k", reasoning: "low" }).body.input as Record<string, unknown>[];
    expect(textOnly.at(-1)).toEqual({ type: "function_call_output", call_id: "call_7", output: "(see attached image)" });
  });

  test("replayed ids as Pi 0.87.1 sends them (values from Pi's own convertResponsesMessages)", () => {
    const openai = { ...reasoner, provider: "openai", id: "gpt-x" };
    const result = (id: string, text: string) => toolResult(id, text);
    const call = (id: string) => ({ type: "toolCall" as const, id, name: "bash", arguments: {} });
    const messages: LlmMessage[] = [
      user("go"),
      // another provider and API of the family: its item id is hashed into an fc_ id; later text blocks get `_<n>`
      assistant([{ type: "text", text: "one" }, { type: "text", text: "two" }, call("call_a|fc_a")], { provider: "openai-codex", api: "openai-codex-responses", model: "gpt-5.5" }),
      result("call_a|fc_a", "A"),
      // another model of this provider and API: its fc_ item ids were paired with reasoning this model never saw
      assistant([call("call_b|fc_b")], { provider: "openai", api: "openai-responses", model: "gpt-other" }),
      result("call_b|fc_b", "B"),
      // this model, an item id that is not a function call's
      assistant([call("call_c|item_c")], { provider: "openai", api: "openai-responses", model: "gpt-x" }),
      result("call_c|item_c", "C"),
      // another API altogether, characters the API refuses
      assistant([call("call/d|rs+d")], { provider: "groq", api: "openai-completions", model: "oss" }),
      result("call/d|rs+d", "D"),
    ];
    const input = buildResponsesRequest(openai, ctx(messages), { apiKey: "k", reasoning: "low" }).body.input as Record<string, unknown>[];
    const message = (text: string, id: string) => ({ type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }], status: "completed", id });
    const fn = (callId: string, id?: string) => ({ type: "function_call", ...(id ? { id } : {}), call_id: callId, name: "bash", arguments: "{}" });
    const output = (callId: string, text: string) => ({ type: "function_call_output", call_id: callId, output: text });
    expect(input.slice(1)).toEqual([
      { role: "user", content: [{ type: "input_text", text: "go" }] },
      message("one", "msg_pi_1"),
      message("two", "msg_pi_1_1"),
      fn("call_a", "fc_167vxxh7zbo0g"),
      output("call_a", "A"),
      fn("call_b"),
      output("call_b", "B"),
      fn("call_c"),
      output("call_c", "C"),
      fn("call_d", "fc_1lunlarshd1mq"),
      output("call_d", "D"),
    ]);
    // A provider outside OpenAI's family takes no item ids: the pair is one call id.
    const acme = buildResponsesRequest({ ...openai, provider: "acme" }, ctx(messages.slice(0, 3)), { apiKey: "k", reasoning: "low" }).body.input as Record<string, unknown>[];
    expect(acme.slice(-2)).toEqual([fn("call_a_fc_a"), output("call_a_fc_a", "A")]);
  });

  test("session headers: opt-out of session_id, caller headers override", () => {
    const noSession = { ...reasoner, compat: { sendSessionIdHeader: false } };
    expect(buildResponsesRequest(noSession, ctx([user("x")]), { apiKey: "k", sessionId: "s" }).headers).toEqual({ "x-client-request-id": "s" });
    const { headers, body } = buildResponsesRequest(reasoner, ctx([user("x")]), { apiKey: "k", sessionId: "s", headers: { session_id: "other" } });
    expect(headers).toEqual({ session_id: "other", "x-client-request-id": "s" });
    expect(body.prompt_cache_key).toBe("s");
    expect("prompt_cache_key" in buildResponsesRequest(reasoner, ctx([user("x")]), { apiKey: "k" }).body).toBe(false);
  });

  test("Pi 0.87.1's cache and session rules: a key of 64 characters at most, OpenRouter's x-session-id, no output cap where a model takes none", () => {
    const long = "s".repeat(80);
    expect(buildResponsesRequest(reasoner, ctx([user("x")]), { apiKey: "k", sessionId: long }).body.prompt_cache_key).toBe("s".repeat(64));
    const openrouter = { ...reasoner, provider: "openrouter" };
    expect(buildResponsesRequest(openrouter, ctx([user("x")]), { apiKey: "k", sessionId: "s" }).headers).toEqual({ "x-session-id": "s" });
    const uncapped = { ...reasoner, compat: { supportsMaxOutputTokens: false } };
    expect("max_output_tokens" in buildResponsesRequest(uncapped, ctx([user("x")]), { apiKey: "k" }).body).toBe(false);
  });
});

describe("gateway routing from models.json compat", () => {
  test("openRouterRouting goes out as provider, vercelGatewayRouting as providerOptions.gateway", () => {
    const context: LlmContext = { systemPrompt: "s", messages: [user("hi")] };
    const routed = buildCompletionsRequest(
      model({ compat: { openRouterRouting: { order: ["anthropic"], allow_fallbacks: false }, vercelGatewayRouting: { only: ["bedrock"] } } }),
      context,
      OPTIONS,
    );
    expect(routed.body.provider).toEqual({ order: ["anthropic"], allow_fallbacks: false });
    expect(routed.body.providerOptions).toEqual({ gateway: { only: ["bedrock"] } });
    const plain = buildCompletionsRequest(model(), context, OPTIONS);
    expect(plain.body.provider).toBeUndefined();
    expect(plain.body.providerOptions).toBeUndefined();
  });
});

describe("long prompt-cache retention", () => {
  test("PI_CACHE_RETENTION=long asks OpenAI for 24 hours where a cache key is sent, unless the model opts out", () => {
    const context: LlmContext = { systemPrompt: "s", messages: [user("hi")] };
    const before = process.env.PI_CACHE_RETENTION;
    process.env.PI_CACHE_RETENTION = "long";
    try {
      const withKey = { ...OPTIONS, sessionId: "sess-1" };
      expect(buildResponsesRequest(model({ api: "openai-responses" }), context, withKey).body.prompt_cache_retention).toBe("24h");
      expect(buildCompletionsRequest(model({ baseUrl: "https://api.openai.com/v1" }), context, withKey).body.prompt_cache_retention).toBe("24h");
      expect(buildResponsesRequest(model({ api: "openai-responses", compat: { supportsLongCacheRetention: false } }), context, withKey).body.prompt_cache_retention).toBeUndefined();
      expect(buildResponsesRequest(model({ api: "openai-responses" }), context, OPTIONS).body.prompt_cache_retention).toBeUndefined();
      // A model with explicit cache modes is told a 30-minute lifetime instead (Pi 0.87.1).
      const explicit = buildResponsesRequest(model({ api: "openai-responses", compat: { supportsExplicitPromptCacheMode: true } }), context, withKey).body;
      expect([explicit.prompt_cache_retention, explicit.prompt_cache_options]).toEqual([undefined, { ttl: "30m" }]);
    } finally {
      if (before === undefined) delete process.env.PI_CACHE_RETENTION;
      else process.env.PI_CACHE_RETENTION = before;
    }
    expect(buildResponsesRequest(model({ api: "openai-responses" }), context, { ...OPTIONS, sessionId: "s" }).body.prompt_cache_retention).toBeUndefined();
  });
});
