/**
 * The runs Pi 0.87.1 was recorded making (test/fixtures/pi-0.87.1-wire/{anthropic-messages,
 * openai-responses,openai-completions}, scripts/compat/wire/*.ts), made again by dist/pig the way
 * a user makes them: the built-in provider, its key in its variable or a Claude Pro/Max login in
 * auth.json in Pi's shape, models.json moving only the base URL to the fake server, the same
 * prompt and scripted answers. Each request pig sends must have the shape of Pi's: the same keys
 * and values outside the agents' own words (prompt, tool texts, ids), the same message and block
 * sequence, and the same headers where the server reads them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { readWireRequests } from "../helpers/wire-fixtures.ts";

/** The recordings' files (scripts/compat/wire/pi-recording.ts). */
const NOTES = "The launch code is PIG-42.\n";
const PIC = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);
const KEY = "fake-wire-key-0123456789";
const OAUTH_TOKEN = "sk-ant-oat01-fake-wire-token-0123456789";

const READ_NOTES: Script = [
  { thinking: "The user wants the notes. I will read the file.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
  { thinking: "The file names the launch code.", text: "notes.txt says the launch code is PIG-42." },
];
const chatReadNotes = (field: "reasoning_content" | "reasoning"): Script => READ_NOTES.map((r) => ({ ...r, reasoningField: field }));

interface Run {
  api: string;
  name: string;
  provider: string;
  model: string;
  thinking: string;
  prompt: string[];
  script: Script;
  suffix: string;
  env?: Record<string, string>;
  auth?: Record<string, unknown>;
  answer: string;
}

const RUNS: Run[] = [
  {
    api: "anthropic-messages", name: "anthropic-thinking-tool", provider: "anthropic", model: "claude-opus-4-8", thinking: "high",
    prompt: ["What does notes.txt say? Use the read tool."], script: READ_NOTES, suffix: "", env: { ANTHROPIC_API_KEY: KEY }, answer: "notes.txt says the launch code is PIG-42.",
  },
  {
    api: "anthropic-messages", name: "anthropic-oauth-thinking-tool", provider: "anthropic", model: "claude-opus-4-8", thinking: "high",
    prompt: ["What does notes.txt say? Use the read tool."], script: READ_NOTES, suffix: "",
    auth: { anthropic: { type: "oauth", access: OAUTH_TOKEN, refresh: "fake-wire-refresh-token", expires: Date.UTC(2100, 0, 1) } },
    answer: "notes.txt says the launch code is PIG-42.",
  },
  {
    api: "anthropic-messages", name: "anthropic-image", provider: "anthropic", model: "claude-sonnet-4-5", thinking: "medium",
    prompt: ["@pic.png", "What colour is this picture?"], script: [{ thinking: "Two by two pixels, all red.", text: "It is red." }], suffix: "", env: { ANTHROPIC_API_KEY: KEY }, answer: "It is red.",
  },
  {
    api: "openai-responses", name: "openai-tool-image", provider: "openai", model: "gpt-5.5", thinking: "high",
    prompt: ["Read pic.png and tell me what it shows."],
    script: [{ thinking: "I will look at the picture.", toolCalls: [{ name: "read", arguments: { path: "pic.png" } }] }, { text: "It shows a red square." }],
    suffix: "/v1", env: { OPENAI_API_KEY: KEY }, answer: "It shows a red square.",
  },
  {
    api: "openai-completions", name: "deepseek-thinking-tool", provider: "deepseek", model: "deepseek-flash", thinking: "high",
    prompt: ["What does notes.txt say? Use the read tool."], script: chatReadNotes("reasoning_content"), suffix: "", env: { DEEPSEEK_API_KEY: KEY }, answer: "notes.txt says the launch code is PIG-42.",
  },
  {
    api: "openai-completions", name: "zai-thinking-tool", provider: "zai", model: "glm-5.3", thinking: "high",
    prompt: ["What does notes.txt say? Use the read tool."], script: chatReadNotes("reasoning_content"), suffix: "/api/coding/paas/v4", env: { ZAI_API_KEY: KEY }, answer: "notes.txt says the launch code is PIG-42.",
  },
  {
    api: "openai-completions", name: "openrouter-thinking-tool", provider: "openrouter", model: "moonshotai/kimi-k2.6", thinking: "high",
    prompt: ["What does notes.txt say? Use the read tool."], script: chatReadNotes("reasoning"), suffix: "/api/v1", env: { OPENROUTER_API_KEY: KEY }, answer: "notes.txt says the launch code is PIG-42.",
  },
];

type Json = Record<string, unknown>;

/** What a content block or input item is, without its words: its type, cache mark and nested types. */
function blockShape(block: unknown): unknown {
  if (typeof block === "string") return "string";
  const b = block as Json;
  const kind = String(b.type ?? b.role);
  const cached = b.cache_control ? "+cache" : "";
  if (Array.isArray(b.output)) return `${kind}[${b.output.map((o) => (o as Json).type).join(",")}]`;
  if (Array.isArray(b.content)) return `${kind}[${b.content.map((c) => (c as Json).type).join(",")}]${cached}`;
  return `${kind}${cached}`;
}

/** A chat or Anthropic message: its role, its content's shape, and which other fields it carries (tool calls, reasoning). */
function messageShape(message: Json): Json {
  const content = message.content;
  const shape = content === null ? "null" : typeof content === "string" ? "string" : (content as unknown[]).map(blockShape);
  const fields = Object.keys(message).filter((key) => key !== "role" && key !== "content");
  return { role: message.role, content: shape, fields };
}

/** A request body without the agents' own words: prompts, tool texts, file paths and ids become their shapes. */
function bodyShape(body: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === "messages" || key === "input") {
      out[key] = (value as Json[]).map((m) => (m.role && m.content !== undefined ? messageShape(m) : blockShape(m)));
    } else if (key === "system") out[key] = (value as unknown[]).map(blockShape);
    else if (key === "tools") out[key] = (value as Json[]).map((t) => [(t.function as Json | undefined)?.name ?? t.name, t.defer_loading ?? false, t.cache_control ? "cache" : ""]);
    else if (key === "prompt_cache_key") out[key] = "<session>";
    else out[key] = value;
  }
  return out;
}

const HEADERS = ["accept", "anthropic-beta", "anthropic-version", "content-type", "x-app"];
const PRESENT = ["authorization", "x-api-key", "session_id", "x-client-request-id", "x-session-affinity", "x-session-id"];

function headerShape(headers: Record<string, string>): Json {
  const out: Json = {};
  for (const name of HEADERS) out[name] = headers[name] ?? "(absent)";
  for (const name of PRESENT) out[name] = headers[name] === undefined ? "(absent)" : "(sent)";
  // A subscription login identifies as Claude Code; otherwise each agent names itself.
  out["user-agent"] = headers["user-agent"]?.startsWith("claude-cli/") ? headers["user-agent"] : "(the agent)";
  return out;
}

describe("dist/pig sends Pi 0.87.1's requests for the recorded runs", () => {
  const worlds: PigWorld[] = [];
  afterAll(async () => {
    await Promise.all(worlds.map((w) => w.close()));
  });

  for (const run of RUNS) {
    test(`${run.api}: ${run.name}`, async () => {
      const w = await createWorld({ llm: { script: run.script }, files: { "notes.txt": NOTES, "pic.png": PIC } });
      worlds.push(w);
      writeFileSync(join(w.agentDir, "models.json"), JSON.stringify({ providers: { [run.provider]: { baseUrl: `${w.llm.url}${run.suffix}` } } }));
      writeFileSync(join(w.agentDir, "settings.json"), JSON.stringify({ quietStartup: true, retry: { enabled: false } }));
      if (run.auth) writeFileSync(join(w.agentDir, "auth.json"), JSON.stringify(run.auth), { mode: 0o600 });
      const result = await w.run(["-p", "--provider", run.provider, "--model", run.model, "--thinking", run.thinking, ...run.prompt], { env: run.env });
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe(`${run.answer}\n`);

      const pi = readWireRequests(run.api, run.name);
      expect(w.llm.requests.map((r) => r.path)).toEqual(pi.map((r) => r.path));
      w.llm.requests.forEach((request, i) => {
        expect(bodyShape(request.body as Json)).toEqual(bodyShape(pi[i]!.body));
        expect(headerShape(request.headers)).toEqual(headerShape(pi[i]!.headers));
      });
      // The credential went where Pi's did.
      const first = w.llm.requests[0]!.headers;
      if (run.auth) expect(first.authorization).toBe(`Bearer ${OAUTH_TOKEN}`);
      else expect(first.authorization ?? first["x-api-key"]).toMatch(new RegExp(`^(Bearer )?${KEY}$`));
    });
  }
});
