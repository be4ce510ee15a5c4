// The agent dir the `-p hello` benchmarks give pig: one provider `fake` (OpenAI Chat Completions
// at the fake LLM server) with one model, chosen by default, quiet start-up.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes models.json and settings.json into `dir` (made if missing) for the server at `llmUrl`. */
export function writeFakeAgentDir(dir: string, llmUrl: string): void {
  mkdirSync(dir, { recursive: true });
  const model = { id: "fake-model", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 16384 };
  writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { fake: { baseUrl: `${llmUrl}/v1`, api: "openai-completions", apiKey: "fake-key", models: [model] } } }));
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true }));
}
