/**
 * The pure parts of the ChatGPT Codex endpoint: the account id from the sign-in token, the URL,
 * the body's rules (instructions, cache key, reasoning, strict tools), the headers and the error
 * messages a subscriber reads.
 */
import { describe, expect, test } from "bun:test";
import { codexUrl } from "../../src/ai/endpoint.ts";
import { codexAccountId, CodexTokenError } from "../../src/ai/providers/openai-codex-account.ts";
import { codexHttpErrorMessage } from "../../src/ai/providers/openai-codex-errors.ts";
import { buildCodexBody, buildCodexHeaders } from "../../src/ai/providers/openai-codex-request.ts";
import { NotStrictSchema, strictSchema } from "../../src/ai/strict-schema.ts";
import type { LlmContext, Model, ToolSpec } from "../../src/ai/types.ts";
import { fakeCodexToken, fakeJwt } from "../helpers/fake-jwt.ts";

const MODEL: Model = {
  id: "gpt-5.5",
  name: "GPT-5.5",
  api: "openai-codex-responses",
  provider: "openai-codex",
  baseUrl: "https://chatgpt.com/backend-api",
  reasoning: true,
  thinkingLevelMap: { xhigh: "xhigh", minimal: "low" },
  input: ["text", "image"],
  cost: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0 },
  contextWindow: 272000,
  maxTokens: 128000,
};

const USER: LlmContext["messages"] = [{ role: "user", content: "hi", timestamp: 0 }];

describe("the account id from the sign-in token", () => {
  test("is the chatgpt_account_id of the token's auth claim", () => {
    expect(codexAccountId(fakeCodexToken("acct_42"))).toBe("acct_42");
  });

  test.each([
    ["not a JWT", "sk-not-a-jwt-at-all", "not a JWT"],
    ["a payload that is not JSON", "aaa.bm90IGpzb24.sig", "not a JWT"],
    ["no account claim", fakeJwt({ sub: "user" }), "names no ChatGPT account"],
    ["an empty account id", fakeJwt({ "https://api.openai.com/auth": { chatgpt_account_id: "" } }), "names no ChatGPT account"],
  ])("%s: a clear error saying to sign in again, without the token", (_, token, what) => {
    let error: unknown;
    try {
      codexAccountId(token, "openai-codex");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CodexTokenError);
    const message = (error as Error).message;
    expect(message).toContain(what);
    expect(message).toContain("sign in again with /login openai-codex");
    expect(message).not.toContain(token);
  });
});

test.each([
  ["https://chatgpt.com/backend-api", "https://chatgpt.com/backend-api/codex/responses"],
  ["https://chatgpt.com/backend-api/", "https://chatgpt.com/backend-api/codex/responses"],
  ["http://127.0.0.1:9/x/codex", "http://127.0.0.1:9/x/codex/responses"],
  ["http://127.0.0.1:9/x/codex/responses", "http://127.0.0.1:9/x/codex/responses"],
  ["", "https://chatgpt.com/backend-api/codex/responses"],
])("the endpoint of base URL %p is %p", (base, url) => {
  expect(codexUrl(base)).toBe(url);
});

describe("the body", () => {
  test("the system prompt goes in instructions, a default when there is none; no output cap", () => {
    const body = buildCodexBody(MODEL, { systemPrompt: "Be brief.", messages: USER }, { apiKey: "t", maxTokens: 999 });
    expect(body.instructions).toBe("Be brief.");
    expect(JSON.stringify(body.input)).not.toContain("Be brief.");
    expect(body).not.toHaveProperty("max_output_tokens");
    expect(buildCodexBody(MODEL, { systemPrompt: "", messages: USER }, { apiKey: "t" }).instructions).toBe("You are a helpful assistant.");
  });

  test("without a session there is no cache key; a long session id is cut to 64 characters", () => {
    expect(buildCodexBody(MODEL, { systemPrompt: "", messages: USER }, { apiKey: "t" })).not.toHaveProperty("prompt_cache_key");
    const long = "é".repeat(70);
    const body = buildCodexBody(MODEL, { systemPrompt: "", messages: USER }, { apiKey: "t", sessionId: long });
    expect(body.prompt_cache_key).toBe("é".repeat(64));
    const headers = buildCodexHeaders(MODEL, { apiKey: "t", sessionId: long }, "acct");
    expect(headers["session-id"]).toBe("é".repeat(64));
  });

  test("reasoning: the level's mapped effort with summaries; off asks for none; a model's unsupported off sends nothing", () => {
    const body = (model: Model, reasoning?: "off" | "minimal" | "high") =>
      buildCodexBody(model, { systemPrompt: "", messages: USER }, { apiKey: "t", ...(reasoning ? { reasoning } : {}) });
    expect(body(MODEL, "minimal").reasoning).toEqual({ effort: "low", summary: "auto" });
    expect(body(MODEL, "high").reasoning).toEqual({ effort: "high", summary: "auto" });
    expect(body(MODEL, "off").reasoning).toEqual({ effort: "none" });
    expect(body(MODEL).reasoning).toEqual({ effort: "none" });
    expect(body({ ...MODEL, thinkingLevelMap: { off: null } }, "off")).not.toHaveProperty("reasoning");
    expect(body({ ...MODEL, reasoning: false })).not.toHaveProperty("reasoning");
    // The encrypted reasoning is always asked for, to replay it.
    expect(body(MODEL, "off").include).toEqual(["reasoning.encrypted_content"]);
  });

  test("temperature is sent when set", () => {
    expect(buildCodexBody(MODEL, { systemPrompt: "", messages: USER }, { apiKey: "t", temperature: 0.2 }).temperature).toBe(0.2);
  });

  const optional: ToolSpec = {
    name: "look",
    description: "Looks",
    parameters: { type: "object", properties: { path: { type: "string" }, depth: { type: "number" } }, required: ["path"] },
  };

  test("tools: strict with a strict schema when they ask for constrained sampling, strict null otherwise", () => {
    const tools = [{ ...optional, constrainedSampling: { type: "json_schema", strict: "prefer" } }, { ...optional, name: "plain" }];
    const body = buildCodexBody(MODEL, { systemPrompt: "", messages: USER, tools }, { apiKey: "t" });
    expect(body.tools).toEqual([
      {
        type: "function",
        name: "look",
        description: "Looks",
        parameters: {
          type: "object",
          properties: { path: { type: "string" }, depth: { anyOf: [{ type: "number" }, { type: "null" }] } },
          required: ["path", "depth"],
          additionalProperties: false,
        },
        strict: true,
      },
      { type: "function", name: "plain", description: "Looks", parameters: optional.parameters, strict: null },
    ]);
    const off = buildCodexBody({ ...MODEL, compat: { supportsStrictMode: false } }, { systemPrompt: "", messages: USER, tools }, { apiKey: "t" });
    expect((off.tools as Record<string, unknown>[]).map((t) => "strict" in t)).toEqual([false, false]);
  });

  test("a schema strict sampling cannot take: sent as it is when preferred, an error naming the tool when required", () => {
    const union: ToolSpec = { name: "pick", description: "Picks", parameters: { type: "object", properties: { x: { oneOf: [{ type: "string" }] } } } };
    const preferred = buildCodexBody(MODEL, { systemPrompt: "", messages: USER, tools: [{ ...union, constrainedSampling: { type: "json_schema", strict: "prefer" } }] }, { apiKey: "t" });
    expect(preferred.tools).toEqual([{ type: "function", name: "pick", description: "Picks", parameters: union.parameters, strict: null }]);
    expect(() =>
      buildCodexBody(MODEL, { systemPrompt: "", messages: USER, tools: [{ ...union, constrainedSampling: { type: "json_schema", strict: "require" } }] }, { apiKey: "t" }),
    ).toThrow('Tool "pick" requires JSON-schema constrained sampling, but oneOf schemas are unsupported');
  });
});

test("a tool result's images go inside its output, as Pi 0.87.1 sends them; a text-only model gets a note", () => {
  const messages: LlmContext["messages"] = [
    ...USER,
    { role: "assistant", content: [{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: {} }], api: "openai-codex-responses", provider: "openai-codex", model: "gpt-5.5", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "toolUse", timestamp: 0 },
    { role: "toolResult", toolCallId: "call_1|fc_1", toolName: "read", content: [{ type: "image", mimeType: "image/png", data: "QQ==" }], isError: false, timestamp: 0 },
  ];
  const output = (model: Model) => (buildCodexBody(model, { systemPrompt: "", messages }, { apiKey: "t" }).input as Record<string, unknown>[]).at(-1);
  expect(output(MODEL)).toEqual({ type: "function_call_output", call_id: "call_1", output: [{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,QQ==" }] });
  expect(output({ ...MODEL, input: ["text"] })).toEqual({ type: "function_call_output", call_id: "call_1", output: "(see attached image)" });
});

describe("strict schemas", () => {
  test("nested objects and array items become strict; the input is left as it was", () => {
    const input = {
      type: "object",
      properties: { edits: { type: "array", items: { type: "object", properties: { a: { type: "string" }, b: { type: ["string", "null"] } }, required: ["a"] } } },
      required: ["edits"],
    };
    const before = JSON.stringify(input);
    expect(strictSchema(input)).toEqual({
      type: "object",
      properties: {
        edits: {
          type: "array",
          items: { type: "object", properties: { a: { type: "string" }, b: { type: ["string", "null"] } }, required: ["a", "b"], additionalProperties: false },
        },
      },
      required: ["edits"],
      additionalProperties: false,
    });
    expect(JSON.stringify(input)).toBe(before);
  });

  test.each([
    [{ type: "string" }, "root schema must have type object"],
    [{ type: "object", additionalProperties: true }, "additionalProperties"],
    [{ type: "object", properties: { a: { anyOf: [{ type: "object" }, { type: "null" }] } } }, "object and array unions"],
    [{ type: "object", properties: { a: { type: "array", items: [{ type: "string" }] } } }, "tuple schemas"],
    [{ type: "object", required: ["ghost"] }, "required contains an unknown property"],
  ])("%j has no strict form", (schema, why) => {
    expect(() => strictSchema(schema)).toThrow(NotStrictSchema);
    expect(() => strictSchema(schema)).toThrow(why);
  });
});

test("headers: bearer token, the account, Pi's originator and beta flag; the model's and caller's headers under them", () => {
  const headers = buildCodexHeaders(
    { ...MODEL, headers: { "X-Team": "blue", originator: "someone-else" } },
    { apiKey: "tok", headers: { "x-extra": "1" }, sessionId: "s-1" },
    "acct_9",
    "pi (test)",
  );
  expect(headers).toEqual({
    "X-Team": "blue",
    "x-extra": "1",
    Authorization: "Bearer tok",
    "chatgpt-account-id": "acct_9",
    originator: "pi",
    "User-Agent": "pi (test)",
    "OpenAI-Beta": "responses=experimental",
    accept: "text/event-stream",
    "content-type": "application/json",
    "session-id": "s-1",
    "x-client-request-id": "s-1",
  });
});

describe("error messages", () => {
  const now = Date.UTC(2026, 0, 1);
  test("a usage limit names the plan and the minutes to its reset", () => {
    const body = JSON.stringify({ error: { type: "usage_limit_reached", code: "usage_limit_reached", message: "limit", plan_type: "PRO", resets_at: now / 1000 + 42 * 60 } });
    expect(codexHttpErrorMessage(429, body, "openai-codex", now)).toBe("You have hit your ChatGPT usage limit (pro plan). Try again in ~42 min.");
    expect(codexHttpErrorMessage(429, "busy", "openai-codex", now)).toBe("You have hit your ChatGPT usage limit.");
    const notIncluded = JSON.stringify({ error: { code: "usage_not_included", message: "Upgrade" } });
    expect(codexHttpErrorMessage(403, notIncluded, "openai-codex", now)).toBe("You have hit your ChatGPT usage limit.");
  });

  test("401 and 403 say how to sign in again, with the server's message", () => {
    const body = JSON.stringify({ error: { message: "Token expired.", code: "token_expired" } });
    expect(codexHttpErrorMessage(401, body, "openai-codex", now)).toBe("401 Token expired. Your ChatGPT sign-in was refused: run /login openai-codex to sign in again");
    expect(codexHttpErrorMessage(403, JSON.stringify({ detail: "Forbidden" }), "my-codex", now)).toBe("403 Forbidden. Your ChatGPT sign-in was refused: run /login my-codex to sign in again");
  });

  test("other statuses: the status and the server's message, or its text", () => {
    expect(codexHttpErrorMessage(400, JSON.stringify({ error: { message: "Unsupported model" } }), "openai-codex", now)).toBe("400 Unsupported model");
    expect(codexHttpErrorMessage(502, "upstream exploded\n", "openai-codex", now)).toBe("502 upstream exploded");
    expect(codexHttpErrorMessage(500, "", "openai-codex", now)).toBe("500 (no body)");
  });
});
