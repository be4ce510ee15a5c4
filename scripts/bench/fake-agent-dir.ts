// The agent dir every contender of a model-driven benchmark gets: one provider `fake`
// (openai-completions at the benchmark's fake LLM server) with one model, chosen by default.
// pig and every Pi release read the same two files.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface FakeAgentDirOptions {
  /** The model's context window (default 128,000). */
  contextWindow?: number;
  /** Extra settings.json keys (e.g. `compaction`). */
  settings?: Record<string, unknown>;
}

export function writeFakeAgentDir(dir: string, baseUrl: string, opts: FakeAgentDirOptions = {}): void {
  mkdirSync(dir, { recursive: true });
  const model = {
    id: "fake-model",
    name: "fake-model",
    reasoning: false,
    input: ["text"],
    contextWindow: opts.contextWindow ?? 128000,
    maxTokens: 16384,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
  const models = { providers: { fake: { baseUrl, api: "openai-completions", apiKey: "fake-key", models: [model] } } };
  writeFileSync(join(dir, "models.json"), `${JSON.stringify(models, null, 2)}\n`);
  const settings = { defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true, enableInstallTelemetry: false, ...opts.settings };
  writeFileSync(join(dir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
}
