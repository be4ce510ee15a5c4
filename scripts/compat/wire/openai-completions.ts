/**
 * Records Pi 0.87.1's requests to OpenAI-compatible chat completions (`openai-completions`) for
 * catalogue providers whose models carry compat flags, see pi-recording.ts:
 *
 *   node_modules/.bin/bun scripts/compat/wire/openai-completions.ts [run names…]
 *
 * Per provider a `-thinking-tool` run (the model thinks, reads notes.txt, answers) and an
 * `-image` run (`@pic.png`):
 * - `deepseek`: DeepSeek Flash (`thinkingFormat: "deepseek"`, reasoning replayed in
 *   `reasoning_content`, `max_tokens`, no developer role);
 * - `zai`: GLM-5.3 and GLM-5.3 Flash (`thinkingFormat: "zai"`, `tool_stream`);
 * - `openrouter`: its default Kimi K2.6 (`thinkingFormat: "openrouter"`, session affinity headers).
 */
import { imageRun, namedOnCommandLine, recordWire, thinkingToolRun, type WireRun } from "./pi-recording.ts";
import type { ScriptResponse } from "../../../test/helpers/fake-llm/server.ts";

type ReasoningField = NonNullable<ScriptResponse["reasoningField"]>;

function runs(prefix: string, toolModel: string, imageModel: string, thinking: string, reasoningField: ReasoningField): WireRun[] {
  return [thinkingToolRun(`${prefix}-thinking-tool`, toolModel, thinking, { reasoningField }), imageRun(`${prefix}-image`, imageModel, thinking, { reasoningField })];
}

await recordWire({
  api: "openai-completions",
  provider: "deepseek",
  keyVariable: "DEEPSEEK_API_KEY",
  baseUrl: (url) => url,
  runs: namedOnCommandLine(runs("deepseek", "deepseek-flash", "deepseek-flash", "high", "reasoning_content")),
});
await recordWire({
  api: "openai-completions",
  provider: "zai",
  keyVariable: "ZAI_API_KEY",
  baseUrl: (url) => `${url}/api/coding/paas/v4`,
  runs: namedOnCommandLine(runs("zai", "glm-5.3", "glm-5.3-flash", "high", "reasoning_content")),
});
await recordWire({
  api: "openai-completions",
  provider: "openrouter",
  keyVariable: "OPENROUTER_API_KEY",
  baseUrl: (url) => `${url}/api/v1`,
  runs: namedOnCommandLine(runs("openrouter", "moonshotai/kimi-k2.6", "moonshotai/kimi-k2.6", "high", "reasoning")),
});
