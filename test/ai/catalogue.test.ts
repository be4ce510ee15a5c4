/**
 * pig's provider catalogue against upstream Pi 0.87.1's (test/fixtures/pi-0.87.1/catalogue.json,
 * written by scripts/catalogue/generate.ts from the installed package): every provider, every
 * model id with its API, every key variable, every default model and which providers offer a
 * subscription login — as the registry and the key lookup see them at run time, not as the
 * generated file says. A provider's models are parsed only when something asks for them.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { envKeyNames, findApiKey } from "../../src/ai/auth.ts";
import { AMBIENT_KEY, ambientKey } from "../../src/ai/ambient-credentials.ts";
import { defaultModelOf, parsedProviders, providerFacts } from "../../src/ai/catalogue/index.ts";
import { ModelRegistry } from "../../src/ai/registry.ts";
import { FIXTURES_087 } from "../helpers/tmp.ts";
import { tempDir } from "../helpers/tmp.ts";

interface PiFacts {
  source: string;
  providers: { id: string; envKeys: string[]; defaultModel: string | null; subscription: boolean; models: [string, string][] }[];
}
const pi = (await Bun.file(join(FIXTURES_087, "catalogue.json")).json()) as PiFacts;

function emptyRegistry(env: NodeJS.ProcessEnv = {}): ModelRegistry {
  return new ModelRegistry({ agentDir: tempDir(), env });
}

describe("the catalogue is Pi 0.87.1's", () => {
  test("the facts are Pi 0.87.1's: 41 providers, 1,495 models", () => {
    expect(pi.source).toBe("@earendil-works/pi-coding-agent@0.87.1");
    expect(pi.providers).toHaveLength(41);
    expect(pi.providers.flatMap((p) => p.models)).toHaveLength(1495);
  });

  test("the registry knows the same providers, model ids and APIs", () => {
    const registry = emptyRegistry();
    expect([...registry.providers].sort()).toEqual(pi.providers.map((p) => p.id).sort());
    const ours = registry.models.map((m) => `${m.provider} ${m.id} ${m.api}`).sort();
    const theirs = pi.providers.flatMap((p) => p.models.map(([id, api]) => `${p.id} ${id} ${api}`)).sort();
    expect(ours).toEqual(theirs);
  });

  test("each provider reads its key from the same variables, in the same order", () => {
    for (const provider of pi.providers) expect({ provider: provider.id, keys: envKeyNames(provider.id) }).toEqual({ provider: provider.id, keys: provider.envKeys });
  });

  test("each provider has the same default model and the same subscription login (or none)", () => {
    for (const provider of pi.providers) {
      expect({ provider: provider.id, model: defaultModelOf(provider.id) ?? null }).toEqual({ provider: provider.id, model: provider.defaultModel });
      expect({ provider: provider.id, subscription: providerFacts(provider.id)?.subscriptionLogin !== undefined }).toEqual({
        provider: provider.id,
        subscription: provider.subscription,
      });
    }
  });

  test("a key in any provider's variable makes that provider's models available", () => {
    for (const provider of pi.providers.filter((p) => p.envKeys.length > 0)) {
      const variable = provider.envKeys.at(-1)!;
      const available = emptyRegistry({ [variable]: "k" }).available();
      expect(available.length).toBeGreaterThan(0);
      expect(new Set(available.map((m) => m.provider))).toContain(provider.id);
    }
  });
});

describe("ambient credentials", () => {
  test("Vertex AI needs the credentials file, a project and a location", () => {
    const dir = tempDir();
    const file = join(dir, "adc.json");
    writeFileSync(file, "{}");
    const env = { GOOGLE_APPLICATION_CREDENTIALS: file, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "us-central1" };
    expect(ambientKey("google-vertex", env)).toBe(AMBIENT_KEY);
    expect(ambientKey("google-vertex", { ...env, GOOGLE_CLOUD_LOCATION: "" })).toBeUndefined();
    expect(ambientKey("google-vertex", { ...env, GOOGLE_APPLICATION_CREDENTIALS: join(dir, "missing.json") })).toBeUndefined();
    // The default ADC file under HOME counts too, with GCLOUD_PROJECT.
    mkdirSync(join(dir, ".config", "gcloud"), { recursive: true });
    writeFileSync(join(dir, ".config", "gcloud", "application_default_credentials.json"), "{}");
    expect(ambientKey("google-vertex", { HOME: dir, GCLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "global" })).toBe(AMBIENT_KEY);
    // gcloud's login under $CLOUDSDK_CONFIG is the file the Vertex requests read, so it counts too.
    const config = join(dir, "gcloud-config");
    mkdirSync(config);
    writeFileSync(join(config, "application_default_credentials.json"), "{}");
    expect(ambientKey("google-vertex", { HOME: join(dir, "elsewhere"), CLOUDSDK_CONFIG: config, GCLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "global" })).toBe(AMBIENT_KEY);
    expect(emptyRegistry(env).available().every((m) => m.provider === "google-vertex")).toBe(true);
    expect(emptyRegistry(env).available().length).toBeGreaterThan(0);
  });

  test("Bedrock takes a profile, IAM keys (both halves) or a bearer token", () => {
    expect(ambientKey("amazon-bedrock", { AWS_PROFILE: "work" })).toBe(AMBIENT_KEY);
    expect(ambientKey("amazon-bedrock", { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" })).toBe(AMBIENT_KEY);
    expect(ambientKey("amazon-bedrock", { AWS_ACCESS_KEY_ID: "a" })).toBeUndefined();
    expect(findApiKey("amazon-bedrock", { auth: {}, env: { AWS_BEARER_TOKEN_BEDROCK: "t" }, configured: {} })).toBe(AMBIENT_KEY);
    expect(ambientKey("openai", { AWS_PROFILE: "work" })).toBeUndefined();
  });
});

describe("lazy models", () => {
  test("naming one provider's model parses only that provider's models", () => {
    // Run in a fresh process: this file's other tests have parsed everything already.
    const script = `
      import { ModelRegistry } from "./src/ai/registry.ts";
      import { parsedProviders } from "./src/ai/catalogue/index.ts";
      const registry = new ModelRegistry({ agentDir: process.argv[2], env: { GROQ_API_KEY: "k" } });
      const model = registry.defaultModel();
      console.log(JSON.stringify({ model: model && model.provider + "/" + model.id, parsed: parsedProviders() }));
    `;
    const dir = tempDir();
    writeFileSync(join(dir, "probe.ts"), script.replaceAll("./src/", `${join(import.meta.dir, "..", "..", "src")}/`));
    const run = Bun.spawnSync([process.execPath, join(dir, "probe.ts"), dir], { stdout: "pipe", stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    expect(JSON.parse(run.stdout.toString())).toEqual({ model: "groq/openai/gpt-oss-120b", parsed: ["groq"] });
  });

  test("parsing is shared but each registry's models are its own copies", () => {
    const a = emptyRegistry();
    const b = emptyRegistry();
    a.modelsOf("deepseek")[0]!.baseUrl = "http://changed.invalid";
    expect(b.modelsOf("deepseek")[0]!.baseUrl).toBe("https://api.deepseek.com");
    expect(parsedProviders()).toContain("deepseek");
  });
});

describe("models.json and the new providers", () => {
  test("a provider override and a model override apply to a catalogue provider pig did not have before", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "models.json"),
      JSON.stringify({ providers: { together: { baseUrl: "http://127.0.0.1:9/v1", modelOverrides: { "moonshotai/Kimi-K2.6": { contextWindow: 1234 } } } } }),
    );
    const registry = new ModelRegistry({ agentDir: dir, env: {} });
    expect(registry.problems).toEqual([]);
    const model = registry.find("together", "moonshotai/Kimi-K2.6")!;
    expect(model.baseUrl).toBe("http://127.0.0.1:9/v1");
    expect(model.contextWindow).toBe(1234);
    expect(registry.modelsOf("together").every((m) => m.baseUrl === "http://127.0.0.1:9/v1")).toBe(true);
  });

  test("a mistake in models.json about a new provider is reported, naming the file and the provider", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { fireworks: {} } }));
    const registry = new ModelRegistry({ agentDir: dir, env: {} });
    expect(registry.modelsFileError).toStartWith(`${join(dir, "models.json")}: "providers.fireworks" (line 1, column 27) must set`);
  });
});

describe("provider extras", () => {
  test("the providers stream.ts sends through provider-request.ts are the ones it adjusts", async () => {
    const { PROVIDERS_WITH_EXTRAS } = await import("../../src/ai/stream.ts");
    const { COPILOT_PROVIDER } = await import("../../src/ai/providers/copilot-headers.ts");
    const { isCloudflareProvider } = await import("../../src/ai/providers/cloudflare-endpoint.ts");
    const adjusted = pi.providers.map((p) => p.id).filter((p) => p === COPILOT_PROVIDER || isCloudflareProvider(p));
    expect([...PROVIDERS_WITH_EXTRAS].sort()).toEqual(adjusted.sort());
  });
});

describe("enabledModels patterns over the catalogue", () => {
  test("a provider glob and a bare id name models of providers pig did not have before", async () => {
    const { scopedModels } = await import("../../src/runtime/model-choice.ts");
    const registry = emptyRegistry({ GEMINI_API_KEY: "g", DEEPSEEK_API_KEY: "d", TOGETHER_API_KEY: "t" });
    const scoped = scopedModels(["google/gemini-2.5-*", "deepseek-v4-pro", "together/moonshotai/Kimi-K2.6:high"], registry);
    // A glob's matches come in preference order (the highest id first): compare as sets.
    expect(scoped.map((s) => `${s.model.provider}/${s.model.id}${s.thinking ? `:${s.thinking}` : ""}`).sort()).toEqual([
      ...catalogueModelsOf("google").filter((id) => /^gemini-2\.5-/.test(id)).map((id) => `google/${id}`),
      "deepseek/deepseek-v4-pro",
      "together/moonshotai/Kimi-K2.6:high",
    ].sort());
  });
});

function catalogueModelsOf(provider: string): string[] {
  return pi.providers.find((p) => p.id === provider)!.models.map(([id]) => id);
}
