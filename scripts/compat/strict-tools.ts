/**
 * What Pi 0.87.1 sends for tools that ask for strict (JSON-schema constrained) sampling, on each
 * wire API, for catalogue models with and without the compat flags that decide it. Pi's own
 * exported stream functions (`@earendil-works/pi-ai/api/<api>.js`) build each request on Node 22;
 * their `onPayload` hook hands over the request and stops it before anything is sent. The tool
 * part of every request (or the error the request ended with) is written to
 * test/fixtures/pi-0.87.1-strict/tools.json, with the models and tools used;
 * test/ai/strict-tools-pi.test.ts builds pig's requests from the same and compares.
 *
 *   node_modules/.bin/bun scripts/compat/strict-tools.ts
 *
 * Needs the npm registry once, to install Pi (scripts/bench/pi-install.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { catalogueModels } from "../../src/ai/catalogue/index.ts";
import type { Model, ToolSpec } from "../../src/ai/types.ts";
import { SessionStore } from "../../src/session/store.ts";
import { declaredToolSpecs } from "../../test/helpers/declared-tools.ts";
import { ensurePi } from "../bench/pi-install.ts";

const ROOT = join(import.meta.dir, "..", "..");
const OUT = join(ROOT, "test", "fixtures", "pi-0.87.1-strict", "tools.json");
/** Nothing listens there: a request that got past the hook would fail at once. */
const NOWHERE = "http://127.0.0.1:9";

/** Pi's own declarations of its built-in tools (read, bash, edit, write), from a session it wrote. */
function piBuiltinTools(): ToolSpec[] {
  const store = SessionStore.open(join(ROOT, "test", "fixtures", "pi-0.87.1-wire", "google-vertex", "tools.jsonl"));
  try {
    const last = store.tree.records.at(-1)!;
    return declaredToolSpecs(store.buildContext(last.id as string).messages);
  } finally {
    store.close();
  }
}

/** Tools beside the built-in ones: none of them can be strict, for different reasons. */
const PLAIN: ToolSpec = {
  name: "note",
  description: "A tool that asks for nothing.",
  parameters: { type: "object", properties: { text: { type: "string" }, tag: { type: "string" } }, required: ["text"] },
};
const NO_STRICT_FORM: ToolSpec = {
  name: "pick",
  description: "Asks for strict sampling, but a oneOf has no strict form.",
  parameters: { type: "object", properties: { choice: { oneOf: [{ type: "string" }, { type: "number" }] } }, required: ["choice"] },
  constrainedSampling: { type: "json_schema", strict: "prefer" },
};
const REQUIRES: ToolSpec = {
  name: "must",
  description: "Requires strict sampling; its schema has a strict form.",
  parameters: { type: "object", properties: { path: { type: "string" }, depth: { type: "integer" } }, required: ["path"] },
  constrainedSampling: { type: "json_schema", strict: "require" },
};
const REQUIRES_IMPOSSIBLE: ToolSpec = { ...NO_STRICT_FORM, name: "must-pick", constrainedSampling: { type: "json_schema", strict: "require" } };

function model(provider: string, id: string, compat?: Record<string, unknown>): Model {
  const found = catalogueModels(provider).find((m) => m.id === id);
  if (!found) throw new Error(`${provider}/${id} is not in the catalogue`);
  const out: Model = { ...found, baseUrl: NOWHERE };
  if (compat) out.compat = { ...found.compat, ...compat };
  return out;
}

export interface StrictCase {
  name: string;
  model: Model;
  tools: ToolSpec[];
}

function cases(): StrictCase[] {
  const builtin = [...piBuiltinTools(), PLAIN, NO_STRICT_FORM];
  const models: [string, Model][] = [
    ["completions, supportsStrictMode", model("ant-ling", "Ling-2.6-1T")],
    ["completions, supportsStrictMode false", model("moonshotai", "kimi-k2.6")],
    ["completions, no flag", model("cerebras", "gpt-oss-120b")],
    ["responses, supportsStrictMode", model("openai", "gpt-4.1")],
    ["responses, no flag", model("xai", catalogueModels("xai").find((m) => m.api === "openai-responses")!.id)],
    ["anthropic, supportsStrictTools", model("anthropic", "claude-sonnet-4-5")],
    ["anthropic, no flag", model("cloudflare-ai-gateway", "claude-haiku-4.5")],
    ["bedrock, supportsStrictMode", model("amazon-bedrock", "anthropic.claude-haiku-4-5-20251001-v1:0")],
    ["bedrock, no flag", model("amazon-bedrock", "amazon.nova-lite-v1:0")],
    ["gemini 2.5", model("google", "gemini-2.5-flash")],
    ["gemini 3.1", model("google", "gemini-3.1-pro-preview")],
    ["gemma 4 on the Gemini API", model("google", "gemma-4-31b-it")],
    ["vertex gemini 2.5", model("google-vertex", "gemini-2.5-pro")],
    ["vertex gemini 3", model("google-vertex", "gemini-3-flash-preview")],
    ["codex", model("openai-codex", "gpt-5.5")],
    ["codex, supportsStrictMode false", model("openai-codex", "gpt-5.5", { supportsStrictMode: false })],
    ["mistral", model("mistral", "devstral-latest")],
  ];
  const out: StrictCase[] = models.map(([name, m]) => ({ name, model: m, tools: builtin }));
  out.push(
    { name: "require, completions without strict", model: model("cerebras", "gpt-oss-120b"), tools: [REQUIRES] },
    { name: "require, anthropic without strict", model: model("cloudflare-ai-gateway", "claude-haiku-4.5"), tools: [REQUIRES] },
    { name: "require, gemini 2.5", model: model("google", "gemini-2.5-flash"), tools: [REQUIRES] },
    { name: "require, bedrock with strict", model: model("amazon-bedrock", "anthropic.claude-haiku-4-5-20251001-v1:0"), tools: [REQUIRES] },
    { name: "require without a strict form, responses", model: model("openai", "gpt-4.1"), tools: [REQUIRES_IMPOSSIBLE] },
    { name: "require without a strict form, vertex gemini 3", model: model("google-vertex", "gemini-3-flash-preview"), tools: [REQUIRES_IMPOSSIBLE] },
  );
  return out;
}

/** Runs on Pi's Node: each case through Pi's stream function, the request caught by `onPayload`. */
const RUNNER = `
import { readFileSync } from "node:fs";
const [casesFile, piAi] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
// A ChatGPT token as the Codex client reads it (an account id claim); never sent anywhere.
const claims = Buffer.from(JSON.stringify({ "https://api.openai.com/auth": { chatgpt_account_id: "acct" } })).toString("base64url");
const codexToken = "e30." + claims + ".sig";
const results = [];
for (const c of cases) {
  const api = await import(piAi + "/dist/api/" + c.model.api + ".js");
  const context = {
    messages: [
      { role: "system", content: "You are a test.", toolsAdded: c.tools, timestamp: 1 },
      { role: "user", content: "hi", timestamp: 2 },
    ],
  };
  let payload;
  const options = {
    apiKey: c.model.api === "openai-codex-responses" ? codexToken : "fake-key",
    onPayload: (body) => { payload = structuredClone(body); throw new Error("captured"); },
  };
  let error;
  for await (const event of api.stream(c.model, context, options)) {
    if (event.type === "error") error = event.error.errorMessage;
  }
  results.push(payload !== undefined ? { name: c.name, payload } : { name: c.name, error });
}
process.stdout.write(JSON.stringify(results));
`;

/** What the runner prints: per case, Pi's request or the error its stream ended with. */
const RunnerOutput = v.array(v.object({ name: v.string(), payload: v.optional(v.record(v.string(), v.unknown())), error: v.optional(v.string()) }));

/** The part of a request that carries tools, per API (Google's SDK request keeps it under `config`). */
function toolPart(api: string, payload: Record<string, unknown>): unknown {
  if (api === "google-generative-ai" || api === "google-vertex") {
    const config = payload.config as Record<string, unknown>;
    return { tools: config.tools, toolConfig: config.toolConfig };
  }
  if (api === "bedrock-converse-stream") return { toolConfig: payload.toolConfig };
  return { tools: payload.tools };
}

const pi = ensurePi("0.87.1");
const piAi = join(pi.pkgDir, "..", "pi-ai");
const all = cases();
const scratch = mkdtempSync(join(tmpdir(), "pig-strict-"));
try {
  writeFileSync(join(scratch, "cases.json"), JSON.stringify(all));
  writeFileSync(join(scratch, "runner.mjs"), RUNNER);
  const env = { ...process.env, PI_OFFLINE: "1", AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "fake" };
  const run = Bun.spawnSync([pi.node, join(scratch, "runner.mjs"), join(scratch, "cases.json"), piAi], { env, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`Pi's runner failed (${run.exitCode}):\n${run.stderr.toString()}`);
  const results = v.parse(RunnerOutput, JSON.parse(run.stdout.toString()));
  const fixture = all.map((c, i) => {
    const result = results[i]!;
    if (result.name !== c.name) throw new Error(`result ${i} is for ${result.name}, not ${c.name}`);
    if (result.payload === undefined && result.error === undefined) throw new Error(`${c.name}: Pi neither built a request nor failed`);
    return { ...c, pi: result.payload !== undefined ? toolPart(c.model.api, result.payload) : { error: result.error } };
  });
  mkdirSync(join(OUT, ".."), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ pi: pi.version, cases: fixture }, null, 1)}\n`);
  console.log(`${fixture.length} cases written to ${OUT}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
