/**
 * Pi 0.87.1's providers as a user meets them through the built binary: a key in the provider's
 * own variable (or ambient credentials) makes its models appear in `pig --list-models`, and a
 * catalogue provider whose base URL models.json moves to the fake server answers through its own
 * wire API with the key in that API's header.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { catalogueModels } from "../../src/ai/catalogue/index.ts";
import { runPig } from "../helpers/binary.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";

function emptyAgent(): Record<string, string> {
  const agent = tempDir("pig-agent-");
  return { PIG_CODING_AGENT_DIR: agent, HOME: agent };
}

/** The provider column of `pig --list-models`, counted per provider. */
function listedProviders(stdout: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of stdout.trimEnd().split("\n").slice(1)) {
    const provider = line.split(/\s+/)[0]!;
    counts[provider] = (counts[provider] ?? 0) + 1;
  }
  return counts;
}

describe("pig --list-models finds each provider from its credentials", () => {
  const CASES: [string, Record<string, string>][] = [
    ["google", { GEMINI_API_KEY: "k" }],
    ["deepseek", { DEEPSEEK_API_KEY: "k" }],
    ["together", { TOGETHER_API_KEY: "k" }],
    ["fireworks", { FIREWORKS_API_KEY: "k" }],
    ["huggingface", { HF_TOKEN: "k" }],
    ["mistral", { MISTRAL_API_KEY: "k" }],
    ["groq", { GROQ_API_KEY: "k" }],
    ["azure-openai-responses", { AZURE_OPENAI_API_KEY: "k" }],
    ["amazon-bedrock", { AWS_PROFILE: "work" }],
    ["github-copilot", { COPILOT_GITHUB_TOKEN: "k" }],
    ["vercel-ai-gateway", { AI_GATEWAY_API_KEY: "k" }],
  ];
  for (const [provider, env] of CASES) {
    test(`${provider}: ${Object.keys(env).join(", ")}`, () => {
      const result = runPig(["--list-models"], { env: { ...emptyAgent(), ...env } });
      expect(result.stderr).toBe("");
      expect(listedProviders(result.stdout)).toEqual({ [provider]: catalogueModels(provider).length });
    });
  }

  test("google-vertex: an ADC file with a project and a location; without the location, none", () => {
    const home = emptyAgent();
    const adc = join(home.HOME!, ".config", "gcloud");
    mkdirSync(adc, { recursive: true });
    writeFileSync(join(adc, "application_default_credentials.json"), "{}");
    const env = { ...home, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "us-central1" };
    const listed = runPig(["--list-models"], { env });
    expect(listedProviders(listed.stdout)).toEqual({ "google-vertex": catalogueModels("google-vertex").length });
    const without = runPig(["--list-models"], { env: { ...env, GOOGLE_CLOUD_LOCATION: "" } });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("No models available.");
  });

  test("a subscription-only provider without a sign-in says how to sign in", () => {
    const result = runPig(["-p", "--provider", "openai-codex", "hi"], { env: emptyAgent() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No API key found for openai-codex.");
    expect(result.stderr).toContain("/login openai-codex");
  });

  test("a bare id several providers offer is refused, naming them, unless one has credentials", () => {
    const none = runPig(["-p", "--model", "gpt-5.5", "hi"], { env: emptyAgent() });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('Model "gpt-5.5" is ambiguous across providers: ');
    expect(none.stderr).toContain("openai/gpt-5.5");
    expect(none.stderr).toContain("No matching provider is authenticated.");
    const one = runPig(["--list-models", "gpt-5.5"], { env: { ...emptyAgent(), OPENAI_API_KEY: "k" } });
    expect(listedProviders(one.stdout)).toEqual({ openai: 2 });
  });
});

describe("a catalogue provider answers through its own wire API", () => {
  const worlds: PigWorld[] = [];
  afterAll(async () => {
    await Promise.all(worlds.map((w) => w.close()));
  });

  /** `provider`'s base URL moved to the fake server (plus `suffix`), nothing else configured. */
  async function worldFor(provider: string, suffix: string): Promise<PigWorld> {
    const w = await createWorld({ llm: { script: [{ text: "ok from the provider" }] }, settings: { retry: { enabled: false } } });
    worlds.push(w);
    writeFileSync(join(w.agentDir, "models.json"), JSON.stringify({ providers: { [provider]: { baseUrl: `${w.llm.url}${suffix}` } } }));
    writeFileSync(join(w.agentDir, "settings.json"), JSON.stringify({ quietStartup: true, retry: { enabled: false } }));
    return w;
  }

  const CASES: { provider: string; env: Record<string, string>; suffix: string; path: RegExp; header: [string, string | RegExp] }[] = [
    { provider: "google", env: { GEMINI_API_KEY: "gem-key" }, suffix: "/v1beta", path: /^\/v1beta\/models\/[^/]+:streamGenerateContent$/, header: ["x-goog-api-key", "gem-key"] },
    { provider: "mistral", env: { MISTRAL_API_KEY: "mis-key" }, suffix: "/mistral", path: /^\/mistral\/v1\/chat\/completions$/, header: ["authorization", "Bearer mis-key"] },
    { provider: "deepseek", env: { DEEPSEEK_API_KEY: "ds-key" }, suffix: "", path: /^\/chat\/completions$/, header: ["authorization", "Bearer ds-key"] },
    { provider: "together", env: { TOGETHER_API_KEY: "tg-key" }, suffix: "/v1", path: /^\/v1\/chat\/completions$/, header: ["authorization", "Bearer tg-key"] },
    { provider: "minimax", env: { MINIMAX_API_KEY: "mm-key" }, suffix: "/anthropic", path: /^\/anthropic\/v1\/messages$/, header: ["x-api-key", "mm-key"] },
    { provider: "openai", env: { OPENAI_API_KEY: "oa-key" }, suffix: "/v1", path: /^\/v1\/responses$/, header: ["authorization", "Bearer oa-key"] },
    { provider: "azure-openai-responses", env: { AZURE_OPENAI_API_KEY: "az-key" }, suffix: "/openai/v1", path: /^\/openai\/v1\/responses$/, header: ["api-key", "az-key"] },
    { provider: "github-copilot", env: { COPILOT_GITHUB_TOKEN: "gh-token" }, suffix: "", path: /^\/responses$/, header: ["editor-version", "vscode/1.107.0"] },
    {
      provider: "cloudflare-workers-ai",
      env: { CLOUDFLARE_API_KEY: "cf-key", CLOUDFLARE_ACCOUNT_ID: "acct" },
      suffix: "/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1",
      path: /^\/client\/v4\/accounts\/acct\/ai\/v1\/chat\/completions$/,
      header: ["authorization", "Bearer cf-key"],
    },
    {
      provider: "cloudflare-ai-gateway",
      env: { CLOUDFLARE_API_KEY: "cf-key", CLOUDFLARE_ACCOUNT_ID: "acct", CLOUDFLARE_GATEWAY_ID: "gw" },
      suffix: "/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/compat",
      path: /^\/v1\/acct\/gw\/compat\/chat\/completions$/,
      header: ["cf-aig-authorization", "Bearer cf-key"],
    },
    {
      provider: "amazon-bedrock",
      env: { AWS_ACCESS_KEY_ID: "AKIDPIGE2E", AWS_SECRET_ACCESS_KEY: "secret-e2e", AWS_REGION: "eu-west-1" },
      suffix: "",
      path: /^\/model\/[^/]+\/converse-stream$/,
      header: ["authorization", /^AWS4-HMAC-SHA256 Credential=AKIDPIGE2E\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/],
    },
  ];
  for (const c of CASES) {
    test(`${c.provider}: its default model, its API's path and key header`, async () => {
      const w = await worldFor(c.provider, c.suffix);
      const result = await w.run(["-p", "--provider", c.provider, "hi"], { env: c.env });
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe("ok from the provider\n");
      expect(w.llm.requests).toHaveLength(1);
      const request = w.llm.requests[0]!;
      expect(request.path).toMatch(c.path);
      const [name, value] = c.header;
      if (typeof value === "string") expect(request.headers[name]).toBe(value);
      else expect(request.headers[name]).toMatch(value);
    });
  }
});
