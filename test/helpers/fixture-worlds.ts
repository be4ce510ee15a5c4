/**
 * How the fixtures' scenarios were run: the flags each continuation of a Pi 0.73.1 file used,
 * and the settings and files Pi's compaction scenarios (06, 07) had. Shared by the tests and by
 * scripts/compat (no test-runner imports here).
 */
import type { FakeModelOptions, FixtureApi } from "./fake-models.ts";

export interface ContinueCase {
  file: string;
  api?: FixtureApi;
  args?: string[];
  input?: ("text" | "image")[];
  contextWindow?: number;
}

/** Each Pi 0.73.1 session file, with the flags its continuation ran with. */
export const CONTINUE_073: ContinueCase[] = [
  { file: "01-basic-text" },
  { file: "02-builtin-tools", args: ["--tools", "read,write,edit,bash,grep,find,ls"] },
  { file: "03-model-thinking-name" },
  { file: "04-errors-retry-abort" },
  { file: "05-bash-execution" },
  { file: "06-compaction-manual" },
  { file: "07-compaction-auto", contextWindow: 20000 },
  { file: "08-branching-tree" },
  { file: "09-fork-clone" },
  { file: "09-fork-clone.fork" },
  { file: "09-fork-clone.clone" },
  { file: "10-extension-entries" },
  { file: "11-anthropic-messages", api: "anthropic-messages", args: ["--model", "fake-reasoner", "--thinking", "high"] },
  { file: "12-openai-responses", api: "openai-responses", args: ["--model", "fake-reasoner", "--thinking", "high"] },
  { file: "13-images", input: ["text", "image"] },
];

export const RETRY_SETTINGS = { retry: { enabled: true, maxRetries: 2, baseDelayMs: 100, provider: { maxRetries: 0 } } };

/** The data file scenario 06 reads. */
export const DATA_TXT = Array.from(
  { length: 30 },
  (_, i) => `data file paragraph ${i + 1}: the fixture text describes data file in enough words to make the token estimate grow.`,
).join("\n");

export interface ScenarioWorld extends FakeModelOptions {
  settings?: Record<string, unknown>;
  files?: Record<string, string>;
}

/** The settings (and files) Pi ran the compaction scenarios with. */
export const COMPACTION_WORLDS: Record<"06-compaction-manual" | "07-compaction-auto", ScenarioWorld> = {
  "06-compaction-manual": { settings: { compaction: { keepRecentTokens: 300 } }, files: { "data.txt": `${DATA_TXT}\n` } },
  "07-compaction-auto": { contextWindow: 20000, settings: { compaction: { reserveTokens: 4000, keepRecentTokens: 50 }, ...RETRY_SETTINGS } },
};
