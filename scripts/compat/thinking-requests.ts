/**
 * What Pi 0.87.1 sends for each way of asking a model to think, on its three original wire APIs
 * (`openai-completions` with every `thinkingFormat`, `openai-responses`, `anthropic-messages`):
 * catalogue models (and a few compat variants no catalogue model has yet) at the levels off, low,
 * high and max (clamped to the model's as Pi's agent clamps them), with a session id. Pi's own `streamSimple` (`@earendil-works/pi-ai/api/<api>.js`)
 * builds each request on Node 22; a `fetch` of the runner's takes the request (URL, headers,
 * body) and fails it before anything is sent. Written to
 * test/fixtures/pi-0.87.1-thinking/requests.json; test/ai/thinking-requests-pi.test.ts builds
 * pig's requests for the same and compares.
 *
 *   node_modules/.bin/bun scripts/compat/thinking-requests.ts
 *
 * Needs the npm registry once, to install Pi (scripts/bench/pi-install.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { catalogueModels } from "../../src/ai/catalogue/index.ts";
import type { Model } from "../../src/ai/types.ts";
import { ensurePi } from "../bench/pi-install.ts";

const OUT = join(import.meta.dir, "..", "..", "test", "fixtures", "pi-0.87.1-thinking", "requests.json");
/** Nothing listens there, and the runner's fetch never connects anyway. */
const NOWHERE = "http://127.0.0.1:9";
const LEVELS = ["off", "low", "high", "max"] as const;
export const SESSION_ID = "01a24af6-0000-7000-8000-00000000abcd";

function model(provider: string, id: string, compat?: Record<string, unknown>, extra?: Partial<Model>): Model {
  const found = catalogueModels(provider).find((m) => m.id === id);
  if (!found) throw new Error(`${provider}/${id} is not in the catalogue`);
  const out: Model = { ...found, ...extra, baseUrl: extra?.baseUrl ?? NOWHERE };
  if (compat) out.compat = { ...found.compat, ...compat };
  return out;
}

/** Models named by what they show; the base URL keeps the host where the provider is detected by it. */
function models(): [string, Model][] {
  const chatTemplate = {
    thinkingFormat: "chat-template",
    chatTemplateKwargs: { enable_thinking: { $var: "thinking.enabled" }, budget: { $var: "thinking.budget" }, effort: {}, fixed: "yes", hint: { omitWhenOff: true } },
    thinkingTokenBudgetField: "thinking_budget",
  };
  return [
    ["completions openai: groq gpt-oss (off unsupported)", model("groq", "openai/gpt-oss-120b")],
    ["completions openai: groq qwen (mapped levels, off none)", model("groq", "qwen/qwen3.6-27b")],
    ["completions openai: cerebras, no store", model("cerebras", "qwen-3.8-27b")],
    ["completions openrouter: kimi k2.6", model("openrouter", "moonshotai/kimi-k2.6")],
    ["completions openrouter: gemini 3 flash (off none)", model("openrouter", "google/gemini-3-flash-preview")],
    ["completions openrouter: claude, cache control", model("openrouter", "anthropic/claude-sonnet-4.6:batch")],
    ["completions deepseek: v4 pro", model("deepseek", "deepseek-v4-pro")],
    ["completions deepseek: flash", model("deepseek", "deepseek-flash")],
    ["completions zai: glm-4.7 (no effort)", model("zai", "glm-4.7")],
    ["completions zai: glm-5.2 (effort, off none)", model("zai", "glm-5.2")],
    ["completions qwen: no effort", model("qwen-token-plan", "MiniMax-M2.5")],
    ["completions qwen: effort", model("qwen-token-plan", "deepseek-v4-pro")],
    ["completions baseten: template args", model("baseten", "moonshotai/Kimi-K2.6")],
    ["completions baseten: template args and effort", model("baseten", "zai-org/GLM-5.2")],
    ["completions baseten: openai format", model("baseten", "openai/gpt-oss-120b")],
    ["completions ant-ling: ring", model("ant-ling", "Ring-2.6-1T")],
    ["completions together: no effort", model("together", "MiniMaxAI/MiniMax-M3")],
    ["completions together: effort", model("together", "deepseek-ai/DeepSeek-V4-Pro")],
    ["completions qwen-chat-template", model("groq", "qwen/qwen3.8-27b", { thinkingFormat: "qwen-chat-template" })],
    ["completions chat-template with a budget field", model("groq", "qwen/qwen3.8-27b", chatTemplate)],
    ["completions string-thinking", model("groq", "qwen/qwen3.8-27b", { thinkingFormat: "string-thinking" })],
    ["completions thinking_token_budget", model("groq", "qwen/qwen3.8-27b", { supportsThinkingTokenBudget: true })],
    ["completions openai host: cache key", model("groq", "openai/gpt-oss-20b", undefined, { baseUrl: "https://api.openai.com/v1" })],
    ["responses: gpt-5.5", model("openai", "gpt-5.5")],
    ["responses: gpt-5 (minimal, off unsupported)", model("openai", "gpt-5")],
    ["responses: gpt-6-sol, explicit cache mode", model("openai", "gpt-6-sol")],
    ["anthropic: opus 4.8, adaptive, tool changes", model("anthropic", "claude-opus-4-8")],
    ["anthropic: haiku 4.5, budget", model("anthropic", "claude-haiku-4-5")],
    ["anthropic: fable 5, fallbacks, off unsupported", model("anthropic", "claude-fable-5")],
    ["anthropic: opus 5, effort changes mid-conversation", model("anthropic", "claude-opus-5")],
    ["anthropic: fable 5.1, effort changes mid-conversation, tool changes", model("anthropic", "claude-fable-5-1")],
    ["anthropic: openrouter sonnet 4.6, session header", model("openrouter", "anthropic/claude-sonnet-4.6")],
    ["anthropic: fireworks, affinity header", model("fireworks", "accounts/fireworks/models/deepseek-v4-pro")],
  ];
}

export interface ThinkingCase {
  name: string;
  model: Model;
  level: (typeof LEVELS)[number];
}

function cases(): ThinkingCase[] {
  return models().flatMap(([name, m]) => LEVELS.map((level) => ({ name: `${name} @${level}`, model: m, level })));
}

/** Runs on Pi's Node: each case through Pi's streamSimple; its fetch takes the request and fails it. */
const RUNNER = `
import { readFileSync } from "node:fs";
const [casesFile, piAi, sessionId] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
// As Pi's agent does: the session's level clamped to what the model offers, no reasoning when off.
const { clampThinkingLevel } = await import(piAi + "/dist/models.js");
const results = [];
for (const c of cases) {
  const api = await import(piAi + "/dist/api/" + c.model.api + ".js");
  const context = {
    messages: [
      { role: "system", content: "You are a test.", timestamp: 1 },
      { role: "user", content: "hi", timestamp: 2 },
    ],
  };
  let request;
  const fetch = async (input, init) => {
    const headers = Object.fromEntries(new Headers(init?.headers ?? (input instanceof Request ? input.headers : {})));
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : null;
    request = { url: String(input instanceof Request ? input.url : input), headers, body };
    throw new Error("captured");
  };
  const level = clampThinkingLevel(c.model, c.level);
  const options = { apiKey: "fake-key", sessionId, fetch, maxRetries: 0, ...(level === "off" ? {} : { reasoning: level }) };
  let error;
  for await (const event of api.streamSimple(c.model, context, options)) {
    if (event.type === "error") error = event.error.errorMessage;
  }
  results.push(request ? { name: c.name, request } : { name: c.name, error });
}
process.stdout.write(JSON.stringify(results));
`;

const RunnerOutput = v.array(
  v.object({
    name: v.string(),
    request: v.optional(v.object({ url: v.string(), headers: v.record(v.string(), v.string()), body: v.record(v.string(), v.unknown()) })),
    error: v.optional(v.string()),
  }),
);

if (import.meta.main) {
  const pi = ensurePi("0.87.1");
  const piAi = join(pi.pkgDir, "..", "pi-ai");
  const all = cases();
  const scratch = mkdtempSync(join(tmpdir(), "pig-thinking-"));
  try {
    writeFileSync(join(scratch, "cases.json"), JSON.stringify(all));
    writeFileSync(join(scratch, "runner.mjs"), RUNNER);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: scratch, PI_OFFLINE: "1" };
    const run = Bun.spawnSync([pi.node, join(scratch, "runner.mjs"), join(scratch, "cases.json"), piAi, SESSION_ID], { env, stdout: "pipe", stderr: "pipe" });
    if (run.exitCode !== 0) throw new Error(`Pi's runner failed (${run.exitCode}):\n${run.stderr.toString()}`);
    const results = v.parse(RunnerOutput, JSON.parse(run.stdout.toString()));
    const fixture = all.map((c, i) => {
      const result = results[i]!;
      if (result.name !== c.name) throw new Error(`result ${i} is for ${result.name}, not ${c.name}`);
      if (!result.request) throw new Error(`${c.name}: Pi sent nothing (${result.error})`);
      return { ...c, pi: result.request };
    });
    mkdirSync(join(OUT, ".."), { recursive: true });
    writeFileSync(OUT, `${JSON.stringify({ pi: pi.version, sessionId: SESSION_ID, cases: fixture }, null, 1)}\n`);
    console.log(`${fixture.length} cases written to ${OUT}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
