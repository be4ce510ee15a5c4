/**
 * The models.json of the \`fake\` provider the Pi fixtures were recorded with, pointing at a fake
 * LLM server. Free of test-runner imports, so scripts outside \`bun test\` can use it too.
 */
export type FixtureApi = "openai-completions" | "anthropic-messages" | "openai-responses";

export interface FakeModelOptions {
  api?: FixtureApi;
  /** Input kinds of both fake models (fixture 13 uses text and image). */
  input?: ("text" | "image")[];
  contextWindow?: number;
  /** `thinkingLevelMap` of the reasoning model (`fake-reasoner`), e.g. `{ max: "max" }`. */
  reasonerLevels?: Record<string, string | null>;
}

export function fakeModelsJson(url: string, options: FakeModelOptions): object {
  const api = options.api ?? "openai-completions";
  const model = (id: string, reasoning: boolean) => ({
    id,
    name: id,
    reasoning,
    ...(reasoning && options.reasonerLevels ? { thinkingLevelMap: options.reasonerLevels } : {}),
    input: options.input ?? ["text"],
    contextWindow: options.contextWindow ?? 128000,
    maxTokens: 16384,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  });
  return {
    providers: {
      fake: {
        baseUrl: api === "anthropic-messages" ? url : `${url}/v1`,
        api,
        apiKey: "fake-key",
        models: [model("fake-model", false), model("fake-reasoner", true)],
      },
    },
  };
}
