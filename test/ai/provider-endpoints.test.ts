/**
 * Where Azure, GitHub Copilot and Cloudflare requests go and what they carry, as pure functions:
 * Azure's endpoint, api-version and deployment from the environment; Copilot's headers and
 * token host; Cloudflare's placeholders from the credential or the environment, and AI Gateway's
 * key header; auth.json keeping the values stored with a key.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { credentialEnv, loadAuthFile, saveApiKey } from "../../src/ai/auth.ts";
import { deploymentName, normalizeAzureBaseUrl, parseDeploymentMap, resolveAzureEndpoint } from "../../src/ai/providers/azure-config.ts";
import { resolveCloudflareBaseUrl } from "../../src/ai/providers/cloudflare-endpoint.ts";
import { copilotBaseUrlFromToken, copilotDynamicHeaders, copilotHeaders, copilotInitiator } from "../../src/ai/providers/copilot-headers.ts";
import { envLookup } from "../../src/ai/providers/provider-env.ts";
import { prepareProviderRequest } from "../../src/ai/providers/provider-request.ts";
import type { LlmMessage, Model } from "../../src/ai/types.ts";
import { tempDir } from "../helpers/tmp.ts";

const azureModel = { id: "gpt-5-mini", provider: "azure-openai-responses", baseUrl: "" };

describe("Azure OpenAI endpoint", () => {
  test("AZURE_OPENAI_BASE_URL wins; an Azure host without the v1 path gets /openai/v1", () => {
    const env = envLookup({ AZURE_OPENAI_BASE_URL: "https://res.openai.azure.com/", AZURE_OPENAI_RESOURCE_NAME: "other" });
    expect(resolveAzureEndpoint({ ...azureModel, baseUrl: "http://ignored" }, env)).toEqual({ baseUrl: "https://res.openai.azure.com/openai/v1", apiVersion: "v1" });
    expect(normalizeAzureBaseUrl("https://x.cognitiveservices.azure.com/openai/v1/responses", "v")).toBe("https://x.cognitiveservices.azure.com/openai/v1");
    // Another host (a proxy) is taken as it is.
    expect(normalizeAzureBaseUrl("http://127.0.0.1:8080/", "v")).toBe("http://127.0.0.1:8080");
  });

  test("the resource name makes the URL; AZURE_OPENAI_API_VERSION sets the query", () => {
    const env = envLookup({ AZURE_OPENAI_RESOURCE_NAME: "team-res", AZURE_OPENAI_API_VERSION: "2025-04-01-preview" });
    expect(resolveAzureEndpoint(azureModel, env)).toEqual({ baseUrl: "https://team-res.openai.azure.com/openai/v1", apiVersion: "2025-04-01-preview" });
  });

  test("the model's baseUrl is the last resort; nothing at all is an error naming both variables", () => {
    expect(resolveAzureEndpoint({ ...azureModel, baseUrl: "https://m.openai.azure.com" }, envLookup({})).baseUrl).toBe("https://m.openai.azure.com/openai/v1");
    expect(() => resolveAzureEndpoint(azureModel, envLookup({}))).toThrow(
      'Azure OpenAI: no endpoint for model "gpt-5-mini" (provider azure-openai-responses). Set AZURE_OPENAI_BASE_URL (https://<resource>.openai.azure.com/openai/v1) or AZURE_OPENAI_RESOURCE_NAME',
    );
  });

  test("a base URL that is no URL, or a resource name that is none, is named", () => {
    expect(() => resolveAzureEndpoint(azureModel, envLookup({ AZURE_OPENAI_BASE_URL: "res.openai" }))).toThrow('AZURE_OPENAI_BASE_URL is not a URL: "res.openai"');
    expect(() => resolveAzureEndpoint(azureModel, envLookup({ AZURE_OPENAI_RESOURCE_NAME: "a/b" }))).toThrow('AZURE_OPENAI_RESOURCE_NAME must be a resource name (letters, digits, dashes), not "a/b"');
  });

  test("the deployment map sends a model id as its deployment; others keep their id", () => {
    expect([...parseDeploymentMap(" gpt-5-mini = prod-mini ,broken, =x,o3=team-o3")]).toEqual([["gpt-5-mini", "prod-mini"], ["o3", "team-o3"]]);
    const env = envLookup({ AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-5-mini=prod-mini" });
    expect(deploymentName("gpt-5-mini", env)).toBe("prod-mini");
    expect(deploymentName("gpt-4.1", env)).toBe("gpt-4.1");
  });

  test("the credential's own values come before the process environment", () => {
    expect(envLookup({ A: "stored" }, { A: "env" })("A")).toBe("stored");
    expect(envLookup({ A: "" }, { A: "env" })("A")).toBe("env");
  });
});

const user = (content: LlmMessage["content"]): LlmMessage => ({ role: "user", content, timestamp: 1 }) as LlmMessage;
const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

describe("GitHub Copilot headers", () => {
  test("X-Initiator: user for the user's message, agent after the model's turn", () => {
    const answer = { role: "assistant", content: [], api: "openai-completions", provider: "github-copilot", model: "m", usage: {}, stopReason: "toolUse", timestamp: 1 } as unknown as LlmMessage;
    const result = { role: "toolResult", toolCallId: "c", toolName: "read", content: [{ type: "text", text: "x" }], isError: false, timestamp: 1 } as LlmMessage;
    expect(copilotInitiator([user([{ type: "text", text: "hi" }])])).toBe("user");
    expect(copilotInitiator([user([{ type: "text", text: "hi" }]), answer, result])).toBe("agent");
    expect(copilotInitiator([])).toBe("user");
  });

  test("Copilot-Vision-Request only when a user message or a tool result carries an image", () => {
    expect(copilotDynamicHeaders([user([{ type: "text", text: "hi" }])])).toEqual({ "X-Initiator": "user", "Openai-Intent": "conversation-edits" });
    expect(copilotDynamicHeaders([user([image])])["Copilot-Vision-Request"]).toBe("true");
    const toolImage = { role: "toolResult", toolCallId: "c", toolName: "read", content: [image], isError: false, timestamp: 1 } as LlmMessage;
    expect(copilotDynamicHeaders([user([{ type: "text", text: "x" }]), toolImage])["Copilot-Vision-Request"]).toBe("true");
  });

  test("the editor identity fills only names the model and the caller leave open; the caller's headers win", () => {
    const headers = copilotHeaders([user([{ type: "text", text: "hi" }])], { "user-agent": "mine/1" }, { "Openai-Intent": "custom" });
    expect(headers).toEqual({
      "Editor-Version": "vscode/1.107.0",
      "Editor-Plugin-Version": "copilot-chat/0.35.0",
      "Copilot-Integration-Id": "vscode-chat",
      "X-Initiator": "user",
      "Openai-Intent": "custom",
    });
  });

  test("the token's proxy-ep names the API host; a token without one names none", () => {
    expect(copilotBaseUrlFromToken("tid=1;exp=2;proxy-ep=proxy.individual.githubcopilot.com;st=dotcom")).toBe("https://api.individual.githubcopilot.com");
    expect(copilotBaseUrlFromToken("tid=1;proxy-ep=copilot-proxy.corp.example:8443")).toBe("https://copilot-proxy.corp.example:8443");
    expect(copilotBaseUrlFromToken("gho_plainGitHubToken")).toBeUndefined();
  });
});

const model = (over: Partial<Model>): Model => ({
  id: "m",
  name: "m",
  api: "openai-completions",
  provider: "p",
  baseUrl: "https://example.test/v1",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
  ...over,
});
const context = { systemPrompt: "", messages: [user([{ type: "text", text: "hi" }])] };

describe("one place for every API", () => {
  test("Copilot over Anthropic: the token as a bearer token and no key; over OpenAI's APIs the key stays the SDK's", () => {
    const token = "tid=1;proxy-ep=proxy.business.githubcopilot.com";
    const anthropic = prepareProviderRequest(model({ provider: "github-copilot", api: "anthropic-messages" }), context, { apiKey: token });
    expect(anthropic.model.baseUrl).toBe("https://api.business.githubcopilot.com");
    expect(anthropic.options.apiKey).toBe("");
    expect(anthropic.options.headers?.Authorization).toBe(`Bearer ${token}`);
    const chat = prepareProviderRequest(model({ provider: "github-copilot" }), context, { apiKey: "gho_x" });
    expect(chat.model.baseUrl).toBe("https://example.test/v1");
    expect(chat.options.apiKey).toBe("gho_x");
    expect(chat.options.headers?.["X-Initiator"]).toBe("user");
  });

  test("Cloudflare: placeholders from the credential, then the environment; AI Gateway's key in cf-aig-authorization", () => {
    const gateway = model({ provider: "cloudflare-ai-gateway", baseUrl: "https://gateway.ai.cloudflare.com/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/compat" });
    const prepared = prepareProviderRequest(gateway, context, { apiKey: "cfk", credentialEnv: { CLOUDFLARE_GATEWAY_ID: "gw" } }, { CLOUDFLARE_ACCOUNT_ID: "acct", CLOUDFLARE_GATEWAY_ID: "ignored" });
    expect(prepared.model.baseUrl).toBe("https://gateway.ai.cloudflare.com/v1/acct/gw/compat");
    expect(prepared.options.apiKey).toBe("");
    expect(prepared.options.headers).toEqual({ "cf-aig-authorization": "Bearer cfk" });
    const workers = model({ provider: "cloudflare-workers-ai", baseUrl: "https://api.cloudflare.com/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1" });
    const direct = prepareProviderRequest(workers, context, { apiKey: "cfk" }, { CLOUDFLARE_ACCOUNT_ID: "acct" });
    expect(direct.model.baseUrl).toBe("https://api.cloudflare.com/client/v4/accounts/acct/ai/v1");
    expect(direct.options.apiKey).toBe("cfk");
  });

  test("a missing account id is an error naming the variable and both places to set it", () => {
    const workers = { id: "@cf/x", provider: "cloudflare-workers-ai", baseUrl: "https://api.cloudflare.com/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1" };
    expect(() => resolveCloudflareBaseUrl(workers, envLookup({}))).toThrow(
      `cloudflare-workers-ai: model "@cf/x" needs CLOUDFLARE_ACCOUNT_ID (its base URL is ${workers.baseUrl}). Set CLOUDFLARE_ACCOUNT_ID in the environment, or store it with the key in auth.json: {"cloudflare-workers-ai": {"type": "api_key", "key": "…", "env": {"CLOUDFLARE_ACCOUNT_ID": "…"}}}`,
    );
    expect(() => resolveCloudflareBaseUrl(workers, envLookup({ CLOUDFLARE_ACCOUNT_ID: "../x" }))).toThrow('CLOUDFLARE_ACCOUNT_ID must be an id (letters, digits, "-", "_"), not "../x"');
  });

  test("other providers pass unchanged", () => {
    const plain = model({});
    const options = { apiKey: "k" };
    const prepared = prepareProviderRequest(plain, context, options);
    expect(prepared.model).toBe(plain);
    expect(prepared.options).toBe(options);
  });
});

describe("auth.json env", () => {
  test("an API-key entry's env is read without a warning and kept when the key changes", () => {
    const path = join(tempDir(), "auth.json");
    writeFileSync(path, JSON.stringify({ "cloudflare-workers-ai": { type: "api_key", key: "old", env: { CLOUDFLARE_ACCOUNT_ID: "acct" } } }));
    const read = loadAuthFile(path, new Set(["cloudflare-workers-ai"]));
    expect(read.warnings).toEqual([]);
    expect(credentialEnv("cloudflare-workers-ai", read.auth)).toEqual({ CLOUDFLARE_ACCOUNT_ID: "acct" });
    saveApiKey(path, "cloudflare-workers-ai", "new");
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ "cloudflare-workers-ai": { type: "api_key", key: "new", env: { CLOUDFLARE_ACCOUNT_ID: "acct" } } });
    saveApiKey(path, "cloudflare-workers-ai", "newer", { CLOUDFLARE_ACCOUNT_ID: "b" });
    expect(JSON.parse(readFileSync(path, "utf8"))["cloudflare-workers-ai"].env).toEqual({ CLOUDFLARE_ACCOUNT_ID: "b" });
  });

  test("an env that is not a map of strings is named and the entry left out", () => {
    const path = join(tempDir(), "auth.json");
    writeFileSync(path, JSON.stringify({ "cloudflare-workers-ai": { type: "api_key", key: "k", env: { CLOUDFLARE_ACCOUNT_ID: 5 } } }));
    const read = loadAuthFile(path);
    expect(read.auth).toEqual({});
    expect(read.problems[0]!.what).toContain('"cloudflare-workers-ai.env.CLOUDFLARE_ACCOUNT_ID"');
  });
});

describe("GitHub Copilot over Responses", () => {
  test("thinking off sends no reasoning at all (Copilot takes no effort \"none\"); other providers send it", async () => {
    const { buildResponsesRequest } = await import("../../src/ai/providers/openai-responses-request.ts");
    const reasoner = model({ api: "openai-responses", reasoning: true });
    expect(buildResponsesRequest({ ...reasoner, provider: "github-copilot" }, context, { apiKey: "k" }).body.reasoning).toBeUndefined();
    expect(buildResponsesRequest(reasoner, context, { apiKey: "k" }).body.reasoning).toEqual({ effort: "none" });
  });
});
