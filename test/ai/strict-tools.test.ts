/**
 * The strict-tool rules (src/ai/strict-tools.ts) at their edges; what they send on each API is
 * compared with Pi 0.87.1 in strict-tools-pi.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { streamFor } from "../../src/ai/stream.ts";
import { sentTool, strictToolSupport } from "../../src/ai/strict-tools.ts";
import type { Api, Model, ToolSpec } from "../../src/ai/types.ts";

function model(api: string, id: string, compat?: Record<string, unknown>): Model {
  return {
    id,
    name: id,
    api,
    provider: "p",
    baseUrl: "http://127.0.0.1:9",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
    ...(compat ? { compat } : {}),
  };
}

const supported = (m: Model, api: Api = m.api as Api) => strictToolSupport(m, api).supported;

const TOOL: ToolSpec = {
  name: "t",
  description: "d",
  parameters: { type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, required: ["a"] },
  constrainedSampling: { type: "json_schema", strict: "prefer" },
};

describe("strictToolSupport", () => {
  test("OpenAI chat completions, Responses and Bedrock: only a compat.supportsStrictMode of true", () => {
    for (const api of ["openai-completions", "openai-responses", "bedrock-converse-stream"]) {
      expect([supported(model(api, "m")), supported(model(api, "m", { supportsStrictMode: null })), supported(model(api, "m", { supportsStrictMode: true }))]).toEqual([
        false,
        false,
        true,
      ]);
    }
  });

  test("Codex: unless compat.supportsStrictMode is false", () => {
    const api = "openai-codex-responses";
    expect([supported(model(api, "m")), supported(model(api, "m", { supportsStrictMode: null })), supported(model(api, "m", { supportsStrictMode: false }))]).toEqual([
      true,
      true,
      false,
    ]);
  });

  test("Anthropic: compat.supportsStrictTools, not supportsStrictMode", () => {
    expect(supported(model("anthropic-messages", "claude", { supportsStrictMode: true }))).toBe(false);
    expect(supported(model("anthropic-messages", "claude", { supportsStrictTools: true }))).toBe(true);
  });

  test("Google: Gemini 3 and later by the id's leading gemini-N (or gemini-live-N)", () => {
    const ids = ["gemini-2.5-pro", "gemini-3-flash-preview", "gemini-live-3.1-flash", "Gemini-10-x", "gemma-4-31b-it", "models/gemini-3-pro", "gemini-flash-latest"];
    expect(ids.map((id) => supported(model("google-vertex", id)))).toEqual([false, true, true, true, false, false, false]);
    expect(supported(model("google-generative-ai", "gemini-3.1-pro-preview"))).toBe(true);
  });

  test("the API is the caller's: a model an extension serves through a built-in module gets that module's rule", () => {
    const extension = model("my-gateway", "m", { supportsStrictMode: true });
    expect(supported(extension, "openai-completions")).toBe(true);
    expect(strictToolSupport(extension, "pi-messages")).toEqual({ supported: false, rule: "the pi-messages API has no strict tools" });
  });
});

describe("sentTool", () => {
  const on = { supported: true, rule: "" };
  const off = { supported: false, rule: "p/m does not set compat.supportsStrictMode" };

  test("a strict tool's parameters in strict form; the declaration is left as it was", () => {
    const before = structuredClone(TOOL);
    expect(sentTool(TOOL, on)).toEqual({
      parameters: { type: "object", properties: { a: { type: "string" }, b: { anyOf: [{ type: "number" }, { type: "null" }] } }, required: ["a", "b"], additionalProperties: false },
      strict: true,
    });
    expect(TOOL).toEqual(before);
  });

  test("sent as declared: no sampling asked, another kind of sampling, a model without strict tools, a schema without a strict form", () => {
    const { constrainedSampling: _, ...plain } = TOOL;
    const grammar = { ...TOOL, constrainedSampling: { type: "grammar" } };
    const noForm = { ...TOOL, parameters: { type: "object", properties: { a: { oneOf: [{ type: "string" }] } } } };
    for (const [tool, support] of [[plain, on], [grammar, on], [TOOL, off], [noForm, on]] as const) {
      expect(sentTool(tool, support)).toEqual({ parameters: tool.parameters, strict: false });
    }
  });

  test("a tool that requires strict sampling and cannot have it fails, naming the tool and why", () => {
    const requires = { ...TOOL, constrainedSampling: { type: "json_schema", strict: "require" } };
    expect(() => sentTool(requires, off)).toThrow('Tool "t" requires JSON-schema constrained sampling, but strict tools are unsupported: p/m does not set compat.supportsStrictMode.');
    const noForm = { ...requires, parameters: { type: "object", properties: { a: { $ref: "#/x" } } } };
    expect(() => sentTool(noForm, on)).toThrow('Tool "t" requires JSON-schema constrained sampling, but $ref schemas are unsupported.');
    expect(sentTool(requires, on).strict).toBe(true);
  });
});

describe("a request whose tool requires strict sampling the model lacks", () => {
  // Port 9 (discard) has no listener here: a request that got as far as sending would fail with a connection error instead.
  const requires: ToolSpec = { ...TOOL, constrainedSampling: { type: "json_schema", strict: "require" } };
  const apis = ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai", "google-vertex", "bedrock-converse-stream"];

  test.each(apis)("%s: the stream ends in one error event naming the tool and the model", async (api) => {
    const m = model(api, "gemini-2.5-flash");
    const events = [];
    for await (const event of streamFor(m)(m, { systemPrompt: "", messages: [{ role: "user", content: "hi", timestamp: 1 }], tools: [requires] }, { apiKey: "fake-key-0123456789" })) {
      events.push(event);
    }
    expect(events.map((e) => e.type)).toEqual(["error"]);
    const last = events[0]!;
    if (last.type !== "error") throw new Error("expected an error event");
    expect(last.error.errorMessage).toStartWith('Tool "t" requires JSON-schema constrained sampling, but strict tools are unsupported: p/gemini-2.5-flash');
  });
});

