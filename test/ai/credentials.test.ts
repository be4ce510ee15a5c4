/**
 * Which providers pig holds credentials for, and their kind, as extensions are told it (names
 * and kinds, never keys): read without running any `!command`, in the order keys are looked up.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ModelRegistry } from "../../src/ai/registry.ts";
import { tempDir } from "../helpers/tmp.ts";

describe("credential kinds", () => {
  test("an API key from auth.json, the environment or models.json; an OAuth login or token variable; none", () => {
    const agentDir = tempDir();
    writeFileSync(join(agentDir, "auth.json"), JSON.stringify({ openai: { type: "api_key", key: "k" }, groq: { type: "oauth", access: "a" } }));
    writeFileSync(
      join(agentDir, "models.json"),
      JSON.stringify({ providers: { local: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions", apiKey: "!exit 1", models: [{ id: "m" }] } } }),
    );
    const registry = new ModelRegistry({ agentDir, env: { ANTHROPIC_OAUTH_TOKEN: "t", XAI_API_KEY: "x" } });
    expect(registry.problems).toEqual([]);
    const kinds = registry.credentialKinds();
    expect(kinds).toEqual({ openai: "key", groq: "oauth", anthropic: "oauth", xai: "key", local: "key" });
    expect(registry.credentialKind("mistral")).toBeUndefined();
    // Every provider listed is one pig would run a prompt with.
    for (const provider of Object.keys(kinds)) expect(registry.hasKey(provider)).toBe(true);
    expect(registry.hasKey("mistral")).toBe(false);
  });

  test("--api-key counts as a key for its provider", () => {
    const registry = new ModelRegistry({ agentDir: tempDir(), env: {} });
    expect(registry.credentialKinds()).toEqual({});
    registry.setRuntimeKey("openai", "k");
    expect(registry.credentialKinds()).toEqual({ openai: "key" });
  });
});
