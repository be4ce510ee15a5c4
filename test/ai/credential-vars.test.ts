/**
 * The one rule for which environment variables are credentials (extension processes and the
 * bash tool both drop them): the catalogue's key variables, the names a configuration gives as a
 * key or header value, and names that read like a secret's.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CredentialVars, hasSecretName, withoutCredentials } from "../../src/ai/credential-vars.ts";
import { credentialVarsFromFiles } from "../../src/ai/configured-credentials.ts";
import { ModelRegistry } from "../../src/ai/registry.ts";
import { tempDir } from "../helpers/tmp.ts";

describe("credential variables", () => {
  test("names that read like a secret's count, ordinary ones do not", () => {
    for (const name of ["OPENAI_API_KEY", "MY_APIKEY", "GH_TOKEN", "GITHUB_TOKEN", "NPM_TOKEN", "HF_TOKEN", "AWS_SESSION_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "CLIENT_SECRET", "DB_PASSWORD", "SMTP_PASSWD", "PRIVATE_KEY", "secret_key_base", "PIG_EXT_TOKEN", "TOKEN"]) {
      expect([name, hasSecretName(name)]).toEqual([name, true]);
    }
    for (const name of ["PATH", "HOME", "TERM", "OPENAI_BASE_URL", "AWS_REGION", "AWS_PROFILE", "TOKENIZERS_PARALLELISM", "KEYCHAIN_PATH", "SSH_AUTH_SOCK", "LANG", "EDITOR"]) {
      expect([name, hasSecretName(name)]).toEqual([name, false]);
    }
    // Asked again (answers are remembered per name): the same answers.
    expect(["GH_TOKEN", "PATH", "gh_token"].map(hasSecretName)).toEqual([true, false, true]);
  });

  test("the catalogue's variables and configured names count whatever they are called", () => {
    const rule = new CredentialVars(["CORP_GATEWAY"]);
    expect(rule.has("CORP_GATEWAY")).toBe(true);
    expect(rule.has("corp_gateway")).toBe(true);
    expect(rule.has("ANTHROPIC_OAUTH_TOKEN")).toBe(true);
    expect(rule.has("GEMINI_API_KEY")).toBe(true);
    expect(rule.has("CORP_GATEWAY_URL")).toBe(false);
    expect([rule.isNamed("gemini_api_key"), rule.isNamed("corp_gateway"), rule.isNamed("GH_TOKEN")]).toEqual([true, true, false]);
    expect(new CredentialVars().isNamed("CORP_GATEWAY")).toBe(false);
  });

  test("an environment without credentials keeps the names passed through", () => {
    const env = { PATH: "/bin", OPENAI_API_KEY: "o", GITHUB_TOKEN: "g", UNSET: undefined };
    expect(withoutCredentials(env, new CredentialVars())).toEqual({ PATH: "/bin" });
    expect(withoutCredentials(env, new CredentialVars(), ["GITHUB_TOKEN"])).toEqual({ PATH: "/bin", GITHUB_TOKEN: "g" });
  });

  test("the model registry adds every variable models.json and auth.json name as a key or header", () => {
    const agentDir = tempDir();
    const provider = { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions" };
    writeFileSync(
      join(agentDir, "models.json"),
      JSON.stringify({
        providers: {
          corp: { ...provider, apiKey: "CORP_GATEWAY", headers: { "x-tenant": "CORP_TENANT" }, models: [{ id: "m", headers: { "x-route": "CORP_ROUTE" } }] },
          literal: { ...provider, apiKey: "sk-literal-value-1", models: [{ id: "m" }] },
          command: { ...provider, apiKey: "!cat /key", models: [{ id: "m" }] },
        },
      }),
    );
    writeFileSync(join(agentDir, "auth.json"), JSON.stringify({ openai: { type: "api_key", key: "OPENAI_FROM_VAR" } }));
    const registry = new ModelRegistry({ agentDir, env: {} });
    expect(registry.problems).toEqual([]);
    const rule = registry.credentialVars();
    for (const name of ["CORP_GATEWAY", "CORP_TENANT", "CORP_ROUTE", "OPENAI_FROM_VAR", "OPENAI_API_KEY"]) expect([name, rule.has(name)]).toEqual([name, true]);
    expect(rule.has("HOME")).toBe(false);
    // An extension's provider names its variables too.
    registry.registerProvider("ext", { ...provider, apiKey: "EXT_GATEWAY", models: [{ id: "m" }] });
    expect(registry.credentialVars().has("EXT_GATEWAY")).toBe(true);
    // Read from the two files alone, before a registry (the early extension runner): the same names.
    const early = credentialVarsFromFiles(agentDir);
    for (const name of ["CORP_GATEWAY", "CORP_TENANT", "CORP_ROUTE", "OPENAI_FROM_VAR", "OPENAI_API_KEY"]) expect([name, early.isNamed(name)]).toEqual([name, true]);
    expect([early.isNamed("HOME"), early.isNamed("EXT_GATEWAY"), early.isNamed("SK-LITERAL-VALUE-1")]).toEqual([false, false, false]);
  });
});
