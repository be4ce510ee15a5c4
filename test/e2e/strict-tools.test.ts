/**
 * Strict tools through the built binary, against the fake LLM server: pig's built-in tools ask
 * for JSON-schema constrained sampling, so a model that takes it (Gemini 3 by its id, an OpenAI-
 * compatible model and a Claude model by their compat flags in models.json) gets their strict
 * schemas; the model then sends `null` for the optional arguments it leaves out, and the tools
 * run as if they had been left out.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

const FREE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const model = (id: string, compat?: Record<string, unknown>) => ({ id, reasoning: false, input: ["text"], contextWindow: 200000, maxTokens: 8192, cost: FREE, ...(compat ? { compat } : {}) });

async function world(script: Script): Promise<PigWorld> {
  const w = await createWorld({ llm: { script }, files: { "notes.txt": "hello from the notes file\n" }, settings: { retry: { enabled: false } } });
  cleanups.push(() => w.close());
  const models = {
    providers: {
      gem: { baseUrl: `${w.llm.url}/v1beta`, api: "google-generative-ai", apiKey: "gem-key", models: [model("gemini-3-flash-preview"), model("gemini-2.5-flash")] },
      oai: { baseUrl: `${w.llm.url}/v1`, api: "openai-completions", apiKey: "oai-key", models: [model("strict-model", { supportsStrictMode: true })] },
      ant: { baseUrl: w.llm.url, api: "anthropic-messages", apiKey: "ant-key", models: [model("claude-sonnet-4-5", { supportsStrictTools: true })] },
    },
  };
  writeFileSync(join(w.agentDir, "models.json"), JSON.stringify(models, null, 2));
  return w;
}

type Schema = { required?: string[]; additionalProperties?: boolean; properties?: Record<string, unknown> };

describe("strict tools end to end", () => {
  test("Gemini 3: strict schemas in VALIDATED mode; read called with offset and limit null reads the file", async () => {
    const w = await world([
      { toolCalls: [{ name: "read", arguments: { path: "notes.txt", offset: null, limit: null } }] },
      { text: "notes.txt says hello." },
    ]);
    const result = await w.run(["-p", "--model", "gem/gemini-3-flash-preview", "Read notes.txt"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("notes.txt says hello.\n");
    expect(result.code).toBe(0);

    const [first, second] = w.llm.requests;
    const body = first!.body as { tools: { functionDeclarations: { name: string; parametersJsonSchema: Schema }[] }[]; toolConfig?: unknown };
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "VALIDATED" } });
    const read = body.tools[0]!.functionDeclarations.find((d) => d.name === "read")!.parametersJsonSchema;
    expect([read.required, read.additionalProperties]).toEqual([["path", "offset", "limit"], false]);
    expect(read.properties!.offset).toEqual({ anyOf: [expect.objectContaining({ type: "number" }), { type: "null" }] });

    const turns = (second!.body as { contents: { role: string; parts: Record<string, unknown>[] }[] }).contents;
    expect(turns.at(-1)!.parts).toEqual([{ functionResponse: { name: "read", id: expect.any(String), response: { output: "hello from the notes file\n" } } }]);
  });

  test("Gemini 2.5: the same tools go as declared, without a calling mode", async () => {
    const w = await world([{ text: "hi" }]);
    const result = await w.run(["-p", "--model", "gem/gemini-2.5-flash", "hi"]);
    expect(result.stdout).toBe("hi\n");
    const body = w.llm.requests[0]!.body as { tools: { functionDeclarations: { name: string; parametersJsonSchema: Schema }[] }[]; toolConfig?: unknown };
    expect(body.toolConfig).toBeUndefined();
    const read = body.tools[0]!.functionDeclarations.find((d) => d.name === "read")!.parametersJsonSchema;
    expect([read.required, read.additionalProperties]).toEqual([["path"], undefined]);
  });

  test("OpenAI chat completions with compat.supportsStrictMode: strict tools; bash called with timeout null runs", async () => {
    const w = await world([{ toolCalls: [{ name: "bash", arguments: { command: "echo strict-$((6*7))", timeout: null } }] }, { text: "done" }]);
    const result = await w.run(["-p", "--model", "oai/strict-model", "Run it"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("done\n");

    const [first, second] = w.llm.requests;
    const tools = (first!.body as { tools: { function: { name: string; strict?: boolean; parameters: Schema } }[] }).tools;
    expect(tools.map((t) => [t.function.name, t.function.strict])).toEqual([
      ["read", true],
      ["bash", true],
      ["edit", true],
      ["write", true],
    ]);
    expect(tools[1]!.function.parameters.required).toEqual(["command", "timeout"]);
    const toolMessage = (second!.body as { messages: { role: string; content: unknown }[] }).messages.find((m) => m.role === "tool");
    expect(JSON.stringify(toolMessage)).toContain("strict-42");
  });

  test("Anthropic with compat.supportsStrictTools: every built-in tool strict, its whole strict schema sent", async () => {
    const w = await world([{ text: "hi" }]);
    const result = await w.run(["-p", "--model", "ant/claude-sonnet-4-5", "hi"]);
    expect(result.stdout).toBe("hi\n");
    const tools = (w.llm.requests[0]!.body as { tools: { name: string; strict?: boolean; input_schema: Schema }[] }).tools;
    expect(tools.map((t) => [t.name, t.strict, t.input_schema.additionalProperties])).toEqual([
      ["read", true, false],
      ["bash", true, false],
      ["edit", true, false],
      ["write", true, false],
    ]);
  });
});
