/**
 * Providers extensions register, in the model registry: upstream's validation errors, models
 * replaced or base URLs rewritten, repeated registrations merged, unregistering restoring the
 * models, and an extension's API implementation served for its api.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ModelRegistry } from "../../src/ai/registry.ts";
import { streamFor } from "../../src/ai/stream.ts";
import type { AssistantMessageEvent, StreamFunction } from "../../src/ai/types.ts";
import { tempDir } from "../helpers/tmp.ts";

function registry(): ModelRegistry {
  const agentDir = tempDir();
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { local: { baseUrl: "http://a", api: "openai-completions", apiKey: "k", models: [{ id: "x" }] } } }));
  return new ModelRegistry({ agentDir, env: {} });
}

const models = [{ id: "m1" }];

describe("ModelRegistry.registerProvider", () => {
  test("upstream's validation errors, word for word", () => {
    const r = registry();
    expect(() => r.registerProvider("p", { hasStreamSimple: true })).toThrow('Provider p: "api" is required when registering streamSimple.');
    expect(() => r.registerProvider("p", { apiKey: "k", api: "openai-completions", models })).toThrow('Provider p: "baseUrl" is required when defining models.');
    expect(() => r.registerProvider("p", { baseUrl: "http://b", api: "openai-completions", models })).toThrow('Provider p: "apiKey" or "oauth" is required when defining models.');
    expect(() => r.registerProvider("p", { baseUrl: "http://b", apiKey: "k", models })).toThrow('Provider p, model m1: no "api" specified.');
    expect(r.providers.has("p")).toBe(false);
  });

  test("models become known and available (the config's key counts), and unregistering removes them", () => {
    const r = registry();
    r.registerProvider("p", { baseUrl: "http://b", apiKey: "k", api: "openai-completions", models: [{ id: "m1", contextWindow: 1000 }] });
    expect(r.find("p", "m1")).toMatchObject({ provider: "p", api: "openai-completions", baseUrl: "http://b", contextWindow: 1000 });
    expect(r.available().some((m) => m.provider === "p")).toBe(true);
    expect(r.apiKey(r.find("p", "m1")!)).toBe("k");
    r.unregisterProvider("p");
    expect(r.find("p", "m1")).toBeUndefined();
    expect(r.find("local", "x")).toBeDefined();
  });

  test("only baseUrl rewrites the provider's models; unregistering restores them; headers go with requests", () => {
    const r = registry();
    r.registerProvider("local", { baseUrl: "http://proxy", headers: { "X-Ext": "1" } });
    expect(r.find("local", "x")!.baseUrl).toBe("http://proxy");
    expect(r.headers(r.find("local", "x")!, "k")["X-Ext"]).toBe("1");
    r.unregisterProvider("local");
    expect(r.find("local", "x")!.baseUrl).toBe("http://a");
  });

  test("a repeated registration merges over the stored config", () => {
    const r = registry();
    r.registerProvider("p", { baseUrl: "http://b", apiKey: "k", api: "openai-completions", models });
    r.registerProvider("p", { baseUrl: "http://c" });
    expect(r.find("p", "m1")!.baseUrl).toBe("http://c");
  });

  test("an extension's streamSimple serves its api; without it the model's stream ends in an error", async () => {
    const r = registry();
    const own: StreamFunction = async function* () {};
    r.registerProvider("p", { baseUrl: "http://b", apiKey: "k", api: "p-api", hasStreamSimple: true, models }, own);
    const model = r.find("p", "m1")!;
    expect(streamFor(model, (api) => r.apiStream(api))).toBe(own);
    r.unregisterProvider("p");
    expect(r.apiStream("p-api")).toBeUndefined();
    const events: AssistantMessageEvent[] = [];
    for await (const e of streamFor(model, (api) => r.apiStream(api))(model, { systemPrompt: "", messages: [] }, { apiKey: "" })) events.push(e);
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect((events[0] as { error: { errorMessage?: string } }).error.errorMessage).toContain('No API implementation for "p-api"');
  });
});
