/** Requests for the Anthropic Messages API, against what Pi 0.73.1 sent (fixture 11) and upstream's rules. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  anthropicThinkingBudget,
  buildAnthropicRequest,
  convertAnthropicMessages,
  normalizeAnthropicToolCallId,
  type AnthropicRequestBody,
} from "../../src/ai/providers/anthropic-messages.ts";
import type { LlmMessage, Model, ToolSpec } from "../../src/ai/types.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import { SessionStore } from "../../src/session/store.ts";
import { FIXTURES } from "../helpers/tmp.ts";

interface Recorded {
  path: string;
  headers: Record<string, string>;
  body: AnthropicRequestBody;
}

const NAME = "11-anthropic-messages";
const recorded: Recorded[] = readFileSync(join(FIXTURES, "wire", `${NAME}.requests.jsonl`), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line));
const nextRequest: Recorded = JSON.parse(readFileSync(join(FIXTURES, "wire", `${NAME}.next-request.json`), "utf8"));

const fakeReasoner: Model = {
  id: "fake-reasoner",
  name: "fake-reasoner",
  api: "anthropic-messages",
  provider: "fake",
  baseUrl: "http://127.0.0.1:39197",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 128000,
  maxTokens: 16384,
};

/** The system prompt and tools Pi sent, back in pig's shapes. */
function systemAndTools(body: AnthropicRequestBody): { systemPrompt: string; tools: ToolSpec[] } {
  return {
    systemPrompt: body.system![0]!.text,
    tools: body.tools!.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.input_schema })),
  };
}

/** The session's context at `leafId` (default: the last entry), as the provider receives it. */
function sessionMessages(leafId?: string): LlmMessage[] {
  const store = SessionStore.open(join(FIXTURES, `${NAME}.jsonl`));
  try {
    return convertToLlm(store.buildContext(leafId).messages);
  } finally {
    store.close();
  }
}

function entryIds(): string[] {
  return readFileSync(join(FIXTURES, `${NAME}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line).id);
}

describe("fixture 11: the requests Pi sent", () => {
  const ids = entryIds();
  // Request 1 answered the user message (entry 4), request 2 followed the tool result (entry 6).
  const cases: [string, LlmMessage[], Recorded][] = [
    ["request 1 (first prompt)", sessionMessages(ids[3]), recorded[0]!],
    ["request 2 (after the tool result)", sessionMessages(ids[5]), recorded[1]!],
    [
      "next request (session continued)",
      [
        ...sessionMessages(),
        { role: "user", content: [{ type: "text", text: "NEXT: continue from this session" }], timestamp: 1 },
      ],
      nextRequest,
    ],
  ];

  test.each(cases)("%s: same body, byte for byte", (_label, messages, want) => {
    const request = buildAnthropicRequest(fakeReasoner, { ...systemAndTools(want.body), messages }, {
      apiKey: "fake-key",
      reasoning: "high",
    });
    expect(JSON.stringify(request.body)).toBe(JSON.stringify(want.body));
    expect(Object.keys(request.body)).toEqual(["model", "messages", "max_tokens", "stream", "system", "tools", "thinking"]);
  });

  test("URL and headers", () => {
    const want = recorded[0]!;
    const request = buildAnthropicRequest(fakeReasoner, { ...systemAndTools(want.body), messages: sessionMessages(ids[3]) }, {
      apiKey: "fake-key",
      reasoning: "high",
    });
    expect(request.url).toBe(`http://${want.headers.host}${want.path}`);
    const names = ["x-api-key", "anthropic-version", "anthropic-beta", "anthropic-dangerous-direct-browser-access", "accept", "content-type"];
    for (const name of names) expect(request.headers[name]).toBe(want.headers[name]!);
    // Pi 0.73.1 sent no user agent of its own; pig names itself as Pi 0.87.1 does (docs/decisions.md).
    expect(Object.keys(request.headers).sort()).toEqual([...names, "user-agent"].sort());
    expect(request.headers["user-agent"]).toStartWith("pig (");
  });

  test("what the fixture shows in detail", () => {
    const body = nextRequest.body;
    // system: one text block, cached; the last tool cached; the last user block cached.
    expect(body.system).toEqual([{ type: "text", text: expect.any(String), cache_control: { type: "ephemeral" } }]);
    expect(body.tools!.map((t) => "cache_control" in t)).toEqual([false, false, false, true]);
    expect(body.tools!.every((t) => t.eager_input_streaming === true)).toBe(true);
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 15360, display: "summarized" });
    expect(body.max_tokens).toBe(16384);
    // request 2 ends with the tool result, which carries the cache breakpoint.
    expect(recorded[1]!.body.messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_fx_1",
          content: "anthropic-tool\n",
          is_error: false,
          cache_control: { type: "ephemeral" },
        },
      ],
    });
  });
});

// ── upstream's rules beyond the fixture (pi-ai 0.73.1, where 0.87.1 kept them) ──

const claude: Model = { ...fakeReasoner, id: "claude-x", name: "x", input: ["text", "image"], maxTokens: 64000 };
const hi: LlmMessage[] = [{ role: "user", content: "hi", timestamp: 1 }];
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const assistant = (content: any[], extra: Record<string, unknown> = {}): LlmMessage =>
  ({ role: "assistant", content, api: "anthropic-messages", provider: "fake", model: "claude-x", usage, stopReason: "toolUse", timestamp: 1, ...extra }) as LlmMessage;
const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
const tools: ToolSpec[] = [
  { name: "read", description: "Read", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false } },
  { name: "ls", description: "List", parameters: { type: "object", properties: {} } },
];
const ephemeral = { type: "ephemeral" as const };

describe("thinking and max_tokens", () => {
  const body = (model: Model, options: Record<string, unknown>) =>
    buildAnthropicRequest(model, { systemPrompt: "s", messages: hi }, { apiKey: "k", ...options }).body;

  test("budgets per level: added to the output cap (the model's when none is asked), limited by the model's maxTokens", () => {
    const cases: [string, number, number][] = [
      ["minimal", 64000, 1024],
      ["low", 64000, 2048],
      ["medium", 64000, 8192],
      ["high", 64000, 16384],
      ["xhigh", 64000, 16384],
    ];
    for (const [level, maxTokens, budget] of cases) {
      const b = body(claude, { reasoning: level });
      expect([level, b.max_tokens, b.thinking]).toEqual([level, maxTokens, { type: "enabled", budget_tokens: budget, display: "summarized" }]);
    }
    expect(body(claude, { reasoning: "low", maxTokens: 4000 }).max_tokens).toBe(6048);
  });

  test("when the budget does not fit it shrinks to max_tokens − 1024 (and 0 falls back to 1024)", () => {
    expect(anthropicThinkingBudget(16384, 16384, "high")).toEqual({ maxTokens: 16384, budgetTokens: 15360 });
    expect(anthropicThinkingBudget(1000, 1000, "high")).toEqual({ maxTokens: 1000, budgetTokens: 0 });
    expect(body({ ...claude, maxTokens: 1000 }, { reasoning: "high" })).toMatchObject({
      max_tokens: 1000,
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    expect(anthropicThinkingBudget(32000, 64000, "medium", { medium: 10000 })).toEqual({ maxTokens: 42000, budgetTokens: 10000 });
  });

  test("thinking off: disabled for reasoning models, temperature kept; none for other models", () => {
    const off = body(claude, { temperature: 0.5 });
    expect(off).toMatchObject({ max_tokens: 64000, temperature: 0.5, thinking: { type: "disabled" } });
    expect(Object.keys(off)).toEqual(["model", "messages", "max_tokens", "stream", "system", "temperature", "thinking"]);
    expect(body({ ...claude, reasoning: false }, { temperature: 0.5 }).thinking).toBeUndefined();
    // thinking on: no temperature
    expect(body(claude, { reasoning: "minimal", temperature: 0.2 }).temperature).toBeUndefined();
    // Pi 0.87.1: none for a model whose compat says it takes none, no "disabled" for one that cannot turn thinking off.
    expect(body({ ...claude, compat: { supportsTemperature: false } }, { temperature: 0.5 }).temperature).toBeUndefined();
    expect(body({ ...claude, thinkingLevelMap: { off: null } }, {}).thinking).toBeUndefined();
  });

  test("interleaved-thinking beta only while a budget model thinks (Pi 0.87.1)", () => {
    const beta = (options: Record<string, unknown>) =>
      buildAnthropicRequest(claude, { systemPrompt: "s", messages: hi }, { apiKey: "k", ...options }).headers["anthropic-beta"];
    expect(beta({ reasoning: "low" })).toBe("interleaved-thinking-2025-05-14");
    expect(beta({})).toBeUndefined();
    expect(beta({ reasoning: "low", interleavedThinking: false })).toBeUndefined();
  });

  test("adaptive models: effort instead of a budget, no interleaved-thinking beta", () => {
    const opus = { ...claude, id: "claude-opus-4-6" };
    const request = buildAnthropicRequest(opus, { systemPrompt: "s", messages: hi }, { apiKey: "k", reasoning: "xhigh" });
    expect(request.body).toMatchObject({ max_tokens: 64000, thinking: { type: "adaptive", display: "summarized" }, output_config: { effort: "high" } });
    expect(request.headers["anthropic-beta"]).toBeUndefined();
    expect(body({ ...claude, id: "claude-opus-4-7", thinkingLevelMap: { minimal: "xlow" } }, { reasoning: "minimal" }).output_config).toEqual({ effort: "xlow" });
    expect(body({ ...claude, id: "claude-sonnet-4-6" }, {}).thinking).toEqual({ type: "disabled" });
    // The catalogue's flag decides where it is given, the id where it is not.
    expect(body({ ...claude, id: "claude-next", compat: { forceAdaptiveThinking: true } }, { reasoning: "low" }).thinking).toEqual({ type: "adaptive", display: "summarized" });
    expect(body({ ...claude, id: "claude-opus-4-6", compat: { forceAdaptiveThinking: false } }, { reasoning: "low" }).thinking).toMatchObject({ type: "enabled" });
  });

  test("max: the mapped effort on adaptive models, high's budget on the others", () => {
    const opus = { ...claude, id: "claude-opus-4-6", thinkingLevelMap: { max: "max" } };
    expect(body(opus, { reasoning: "max" }).output_config).toEqual({ effort: "max" });
    expect(anthropicThinkingBudget(32000, 64000, "max")).toEqual(anthropicThinkingBudget(32000, 64000, "high"));
  });
});

describe("message conversion", () => {
  const rich: LlmMessage[] = [
    { role: "user", content: "  ", timestamp: 1 },
    { role: "user", content: [{ type: "text", text: "look" }, image, { type: "text", text: " " }], timestamp: 1 },
    assistant([
      { type: "thinking", thinking: "t1", thinkingSignature: "sig1" },
      { type: "thinking", thinking: "nosig" },
      { type: "thinking", thinking: "  ", thinkingSignature: "s" },
      { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "REDACTED", redacted: true },
      { type: "text", text: "" },
      { type: "text", text: "hi", textSignature: "ts" },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a" } },
      { type: "toolCall", id: "toolu_2", name: "ls", arguments: {} },
    ]),
    { role: "toolResult", toolCallId: "toolu_1", toolName: "read", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }], isError: false, timestamp: 1 },
    { role: "toolResult", toolCallId: "toolu_2", toolName: "ls", content: [image], isError: true, timestamp: 1 },
    assistant(
      [
        { type: "thinking", thinking: "other model thought", thinkingSignature: '{"id":"rs_1"}' },
        { type: "thinking", thinking: "x", thinkingSignature: "R", redacted: true },
        { type: "text", text: "from openai", textSignature: "ts" },
        { type: "toolCall", id: "call_abc|fc_def+/=", name: "read", arguments: { path: "b" }, thoughtSignature: "zz" },
      ],
      { api: "openai-responses", provider: "openai", model: "gpt-5" },
    ),
    { role: "toolResult", toolCallId: "call_abc|fc_def+/=", toolName: "read", content: [{ type: "text", text: "bb" }, image], isError: false, timestamp: 1 },
    assistant([{ type: "text", text: "partial" }, { type: "toolCall", id: "toolu_err", name: "read", arguments: {} }], { stopReason: "error", errorMessage: "boom" }),
    assistant([{ type: "toolCall", id: "toolu_orphan", name: "read", arguments: { path: "c" } }]),
    { role: "user", content: [{ type: "text", text: "next" }, image], timestamp: 1 },
  ];
  const png = { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } };

  test("the full set of rules (same output as upstream Pi 0.87.1 for the same input)", () => {
    expect(convertAnthropicMessages(rich, claude, { cacheControl: { type: "ephemeral" } })).toEqual([
      { role: "user", content: [{ type: "text", text: "look" }, png] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "t1", signature: "sig1" },
          { type: "text", text: "nosig" },
          // Pi 0.87.1 keeps signed thinking whose text is blank (0.73.1 dropped it).
          { type: "thinking", thinking: "  ", signature: "s" },
          { type: "redacted_thinking", data: "REDACTED" },
          { type: "text", text: "hi" },
          { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a" } },
          { type: "tool_use", id: "toolu_2", name: "ls", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "a\nb", is_error: false },
          { type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: "(see attached image)" }, png], is_error: true },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "other model thought" },
          { type: "text", text: "from openai" },
          { type: "tool_use", id: "call_abc_fc_def___", name: "read", input: { path: "b" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_abc_fc_def___", content: [{ type: "text", text: "bb" }, png], is_error: false }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_orphan", name: "read", input: { path: "c" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_orphan", content: "No result provided", is_error: true }] },
      { role: "user", content: [{ type: "text", text: "next" }, { ...png, cache_control: ephemeral }] },
    ] as any);
  });

  test("a model without image input gets placeholders", () => {
    const out = convertAnthropicMessages(rich, { ...claude, input: ["text"] }, { cacheControl: { type: "ephemeral" } });
    expect(out[0]).toEqual({ role: "user", content: [{ type: "text", text: "look" }, { type: "text", text: "(image omitted: model does not support images)" }] });
    expect(out[2]!.content[1]).toEqual({ type: "tool_result", tool_use_id: "toolu_2", content: "(tool image omitted: model does not support images)", is_error: true });
    expect(out[4]!.content[0]).toMatchObject({ content: "bb\n(tool image omitted: model does not support images)" });
    expect(out.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "next" }, { type: "text", text: "(image omitted: model does not support images)", cache_control: ephemeral }],
    });
  });

  test("a final user string becomes a cached text block; a final assistant message leaves the user string alone", () => {
    expect(convertAnthropicMessages(hi, claude, { cacheControl: { type: "ephemeral" } })).toEqual([
      { role: "user", content: [{ type: "text", text: "hi", cache_control: ephemeral }] } as any,
    ]);
    expect(convertAnthropicMessages([...hi, assistant([{ type: "text", text: "ok" }], { stopReason: "stop" })], claude, { cacheControl: { type: "ephemeral" } })).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ]);
  });

  test("lone surrogates are removed from texts and the system prompt", () => {
    const request = buildAnthropicRequest(claude, { systemPrompt: "sys\uD800x", messages: [{ role: "user", content: "a\uDC00b😀", timestamp: 1 }] }, { apiKey: "k" });
    expect(request.body.system![0]!.text).toBe("sysx");
    expect(request.body.messages[0]!.content).toEqual([{ type: "text", text: "ab😀", cache_control: ephemeral }] as any);
  });

  test("tool call ids: foreign ones normalized to ^[a-zA-Z0-9_-]{1,64}$, deterministically", () => {
    expect(normalizeAnthropicToolCallId("call_abc|fc_def+/=")).toBe("call_abc_fc_def___");
    const long = `call_${"x".repeat(100)}|fc_1`;
    expect(normalizeAnthropicToolCallId(long)).toMatch(/^[a-zA-Z0-9_-]{64}$/);
    expect(normalizeAnthropicToolCallId(long)).toBe(normalizeAnthropicToolCallId(long));
  });

  test("URL images (from foreign writers) are sent as url sources", () => {
    const out = convertAnthropicMessages([{ role: "user", content: [{ type: "image", mimeType: "image/png", url: "https://x/y.png" }], timestamp: 1 }], claude);
    expect(out[0]!.content).toEqual([{ type: "image", source: { type: "url", url: "https://x/y.png" } }]);
  });
});

describe("tools, headers, caching", () => {
  test("tool schemas keep type/properties/required only; the last tool is cached", () => {
    const request = buildAnthropicRequest({ ...claude, reasoning: false }, { systemPrompt: "", messages: hi, tools }, { apiKey: "k", temperature: 0.5 });
    expect(JSON.stringify(request.body)).toBe(
      JSON.stringify({
        model: "claude-x",
        messages: [{ role: "user", content: [{ type: "text", text: "hi", cache_control: ephemeral }] }],
        max_tokens: 64000,
        stream: true,
        temperature: 0.5,
        tools: [
          { name: "read", description: "Read", eager_input_streaming: true, input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
          { name: "ls", description: "List", eager_input_streaming: true, input_schema: { type: "object", properties: {}, required: [] }, cache_control: ephemeral },
        ],
      }),
    );
  });

  test("without eager input streaming: fine-grained tool streaming beta; caller headers override", () => {
    const request = buildAnthropicRequest(
      { ...claude, compat: { supportsEagerToolInputStreaming: false }, headers: { "X-Model": "m" } },
      { systemPrompt: "sys", messages: hi, tools },
      { apiKey: "k", reasoning: "low", headers: { "x-extra": "1", "Anthropic-Version": "2099", "User-Agent": "mine" } },
    );
    expect(request.body.tools!.some((t) => "eager_input_streaming" in t)).toBe(false);
    expect(request.headers).toEqual({
      "x-api-key": "k",
      "anthropic-version": "2099",
      accept: "application/json",
      "anthropic-dangerous-direct-browser-access": "true",
      "anthropic-beta": "fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14",
      "x-model": "m",
      "x-extra": "1",
      "user-agent": "mine",
      "content-type": "application/json",
    });
  });

  test("a model that takes tool changes mid-conversation: Pi's deferred placeholder tool and its beta", () => {
    const model = { ...claude, compat: { supportsMidConvoSystemMessages: true, supportsMidConvoToolChanges: true } };
    const request = buildAnthropicRequest(model, { systemPrompt: "s", messages: hi, tools }, { apiKey: "k" });
    expect(request.body.tools!.map((t) => [t.name, t.defer_loading ?? false, "cache_control" in t])).toEqual([
      ["read", false, false],
      ["ls", false, true],
      ["__pi_deferred_placeholder__", true, false],
    ]);
    expect(request.headers["anthropic-beta"]).toBe("mid-conversation-tool-changes-2026-07-01");
    // Without tools there is nothing to change.
    expect(buildAnthropicRequest(model, { systemPrompt: "s", messages: hi }, { apiKey: "k" }).body.tools).toBeUndefined();
  });

  test("a model whose effort changes mid-conversation: each earlier answer's effort (as Pi stored it) before it, the current one last", () => {
    const model = { ...claude, provider: "anthropic", compat: { supportsMidConvoEffort: true, forceAdaptiveThinking: true } };
    const answer = (text: string, extra: Record<string, unknown>) =>
      assistant([{ type: "text", text }], { provider: "anthropic", api: "anthropic-messages", model: "claude-x", stopReason: "stop", ...extra });
    const messages: LlmMessage[] = [
      { role: "user", content: "one", timestamp: 1 },
      answer("a", { providerThinkingLevel: "max" }),
      { role: "user", content: "two", timestamp: 2 },
      answer("b", {}),
      { role: "user", content: "three", timestamp: 3 },
      answer("c", { provider: "other", providerThinkingLevel: "low" }),
      { role: "user", content: "four", timestamp: 4 },
    ];
    const request = buildAnthropicRequest(model, { systemPrompt: "s", messages }, { apiKey: "k", reasoning: "medium", temperature: 0.3 });
    expect(request.body.messages.map((m) => (m.role === "system" ? `effort ${m.output_config?.effort}` : m.role))).toEqual([
      "user",
      "effort max",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "effort medium",
    ]);
    expect(request.body.thinking).toEqual({ type: "adaptive", display: "summarized", block_binding: { prefix_mismatch_behavior: "drop_block" } });
    expect(request.body.output_config).toEqual({ effort: "high" });
    expect(request.body.temperature).toBeUndefined();
    expect(request.headers["anthropic-beta"]).toBe("mid-conversation-output-config-2026-07-01,thinking-binding-controls-2026-08-01");
  });

  test("unsigned thinking is sent as text, or as thinking with an empty signature where the server takes it; signed empty thinking is kept", () => {
    const messages: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 1 },
      assistant([{ type: "thinking", thinking: "hmm" }, { type: "thinking", thinking: "", thinkingSignature: "sig" }, { type: "text", text: "ok" }], { model: "claude-x", stopReason: "stop" }),
      { role: "user", content: "more", timestamp: 2 },
    ];
    const blocks = (model: Model) => buildAnthropicRequest(model, { systemPrompt: "", messages }, { apiKey: "k" }).body.messages[1]!.content;
    expect(blocks(claude)).toEqual([{ type: "text", text: "hmm" }, { type: "thinking", thinking: "", signature: "sig" }, { type: "text", text: "ok" }]);
    expect(blocks({ ...claude, compat: { allowEmptySignature: true } })).toEqual([
      { type: "thinking", thinking: "hmm", signature: "" },
      { type: "thinking", thinking: "", signature: "sig" },
      { type: "text", text: "ok" },
    ]);
  });

  test("fallback models: sent as `fallbacks` with the server-side fallback beta", () => {
    const model = { ...claude, compat: { allowedFallbackModels: [{ provider: "anthropic", model: "claude-y" }, { model: 3 }] } };
    const request = buildAnthropicRequest(model, { systemPrompt: "s", messages: hi }, { apiKey: "k" });
    expect(request.body.fallbacks).toEqual([{ model: "claude-y" }]);
    expect(Object.keys(request.body).at(-1)).toBe("fallbacks");
    expect(request.headers["anthropic-beta"]).toBe("server-side-fallback-2026-07-01");
  });

  test("session affinity: OpenRouter's x-session-id, or x-session-affinity where a model's compat asks", () => {
    const affinity = (model: Model) => buildAnthropicRequest(model, { systemPrompt: "s", messages: hi }, { apiKey: "k", sessionId: "s-1" }).headers;
    expect(affinity({ ...claude, provider: "openrouter" })["x-session-id"]).toBe("s-1");
    expect(affinity({ ...claude, compat: { sendSessionAffinityHeaders: true } })["x-session-affinity"]).toBe("s-1");
    const plain = affinity(claude);
    expect([plain["x-session-id"], plain["x-session-affinity"]]).toEqual([undefined, undefined]);
  });

  test("cache retention: none drops every breakpoint, long adds a 1h ttl", () => {
    const none = buildAnthropicRequest(claude, { systemPrompt: "s", messages: hi, tools }, { apiKey: "k", cacheRetention: "none" } as any);
    expect(JSON.stringify(none.body)).not.toContain("cache_control");
    const long = buildAnthropicRequest(claude, { systemPrompt: "s", messages: hi, tools }, { apiKey: "k", cacheRetention: "long" } as any);
    expect(long.body.system![0]!.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
  });

  test("OAuth tokens: bearer auth, Claude Code identity and tool names", () => {
    const request = buildAnthropicRequest(
      claude,
      {
        systemPrompt: "sys",
        messages: [
          assistant([{ type: "toolCall", id: "t1", name: "read", arguments: {} }]),
          { role: "toolResult", toolCallId: "t1", toolName: "read", content: [{ type: "text", text: "" }], isError: false, timestamp: 1 },
        ],
        tools,
      },
      { apiKey: "sk-ant-oat-123", reasoning: "low" },
    );
    expect(request.headers).toMatchObject({
      authorization: "Bearer sk-ant-oat-123",
      "anthropic-beta": "claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14",
      "user-agent": "claude-cli/2.1.280",
      "x-app": "cli",
    });
    expect(request.headers["x-api-key"]).toBeUndefined();
    expect(request.body.system!.map((s) => s.text)).toEqual(["You are Claude Code, Anthropic's official CLI for Claude.", "sys"]);
    expect(request.body.tools!.map((t) => t.name)).toEqual(["Read", "ls"]);
    expect(request.body.messages[0]!.content).toEqual([{ type: "tool_use", id: "t1", name: "Read", input: {} }]);
  });

  test("base URL: trailing slashes dropped, /v1/messages appended", () => {
    expect(buildAnthropicRequest({ ...claude, baseUrl: "https://api.example.com/" }, { systemPrompt: "", messages: hi }, { apiKey: "k" }).url).toBe(
      "https://api.example.com/v1/messages",
    );
  });
});
