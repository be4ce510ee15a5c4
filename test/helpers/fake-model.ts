/** The `fake` provider's `fake-model` as the fixtures and the fake LLM server know it. */
import type { Model } from "../../src/ai/types.ts";

export function fakeModel(baseUrl = "http://127.0.0.1:9/v1", overrides: Partial<Model> = {}): Model {
  return {
    id: "fake-model",
    name: "fake-model",
    api: "openai-completions",
    provider: "fake",
    baseUrl,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 16384,
    ...overrides,
  };
}
