/**
 * GitHub Copilot and Cloudflare through the built binary, against the fake server. Copilot: the
 * token stored by a subscription login (auth.json `github-copilot` OAuth entry) names its host
 * (`proxy-ep`), reached over HTTPS through a TLS front; every request carries the editor
 * identity, `X-Initiator` (user, then agent after a tool), `Openai-Intent`, and
 * `Copilot-Vision-Request` with an image. Cloudflare: the account (and gateway) ids fill the base
 * URL from the environment or from auth.json; AI Gateway gets its own key header; a missing
 * account id is an error naming the variable.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { startTlsFront, type TlsFront } from "../helpers/tls-front.ts";

const PIC_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const TOOL_SCRIPT: Script = {
  responses: [{ toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] }, { text: "The notes say hello." }],
};

interface ProviderSetup {
  provider: string;
  api: string;
  baseUrl: string;
  apiKey?: string;
  modelId: string;
  auth?: object;
}

async function world(script: Script, setup: (w: PigWorld) => ProviderSetup): Promise<PigWorld> {
  const w = await createWorld({ llm: { script }, files: { "notes.txt": "hello from the notes\n", "pic.png": PIC_PNG } });
  closers.push(() => w.close());
  const s = setup(w);
  const model = { id: s.modelId, input: ["text", "image"], cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } };
  writeFileSync(join(w.agentDir, "models.json"), JSON.stringify({ providers: { [s.provider]: { baseUrl: s.baseUrl, api: s.api, apiKey: s.apiKey ?? "unused", models: [model] } } }));
  writeFileSync(join(w.agentDir, "settings.json"), JSON.stringify({ defaultProvider: s.provider, defaultModel: s.modelId, quietStartup: true, retry: { enabled: false } }));
  if (s.auth) writeFileSync(join(w.agentDir, "auth.json"), JSON.stringify(s.auth), { mode: 0o600 });
  return w;
}

const EDITOR = {
  "user-agent": "GitHubCopilotChat/0.35.0",
  "editor-version": "vscode/1.107.0",
  "editor-plugin-version": "copilot-chat/0.35.0",
  "copilot-integration-id": "vscode-chat",
  "openai-intent": "conversation-edits",
};

describe("github-copilot", () => {
  test("over Chat Completions: the token's proxy-ep host over HTTPS, the editor identity, X-Initiator user then agent", async () => {
    let front: TlsFront | undefined;
    const w = await world(TOOL_SCRIPT, (w) => {
      front = startTlsFront(w.llm.url);
      closers.push(() => front!.close());
      // What a login stores: the Copilot token, whose proxy-ep names the API host (`proxy.` becomes `api.`; here the front itself).
      const access = `tid=e2e;exp=4102444800;sku=copilot;proxy-ep=${front.host};8kp=1:copilot-e2e-secret`;
      return {
        provider: "github-copilot",
        api: "openai-completions",
        baseUrl: "http://unused.invalid",
        modelId: "gemini-3.5-flash",
        auth: { "github-copilot": { type: "oauth", access, refresh: "ghu_refresh", expires: 4102444800000 } },
      };
    });
    const run = await w.run(["-p", "What do the notes say?"], { env: front!.trustEnv });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("The notes say hello.");
    expect(w.llm.requests.map((r) => [r.path, r.headers["x-initiator"]])).toEqual([
      ["/chat/completions", "user"],
      ["/chat/completions", "agent"],
    ]);
    for (const request of w.llm.requests) {
      expect(request.headers).toMatchObject(EDITOR);
      expect(request.headers.authorization).toStartWith("Bearer tid=e2e;");
      expect(request.headers["copilot-vision-request"]).toBeUndefined();
    }
  });

  test("over Anthropic Messages: the model's base URL when the token names no host, a bearer token and no x-api-key, the vision flag with an image", async () => {
    const w = await world({ responses: [{ text: "A red square." }] }, (w) => ({
      provider: "github-copilot",
      api: "anthropic-messages",
      baseUrl: w.llm.url,
      modelId: "claude-sonnet-4.6",
      auth: { "github-copilot": { type: "oauth", access: "tid=e2e;exp=4102444800;copilot-e2e-secret", refresh: "ghu_refresh", expires: 4102444800000 } },
    }));
    const run = await w.run(["-p", "@pic.png", "What is this?"]);
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("A red square.");
    expect(w.llm.requests).toHaveLength(1);
    const [request] = w.llm.requests;
    expect(request!.path).toBe("/v1/messages");
    expect(request!.headers).toMatchObject({ ...EDITOR, "x-initiator": "user", "copilot-vision-request": "true", authorization: "Bearer tid=e2e;exp=4102444800;copilot-e2e-secret" });
    expect(request!.headers["x-api-key"]).toBeUndefined();
  });
});

describe("cloudflare", () => {
  const workersAi = (w: PigWorld): ProviderSetup => ({
    provider: "cloudflare-workers-ai",
    api: "openai-completions",
    baseUrl: `${w.llm.url}/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1`,
    apiKey: "CLOUDFLARE_API_KEY",
    modelId: "@cf/moonshotai/kimi-k2.6",
  });

  test("Workers AI: the account id from the environment fills the URL; the key is a bearer token", async () => {
    const w = await world(TOOL_SCRIPT, workersAi);
    const run = await w.run(["-p", "What do the notes say?"], { env: { CLOUDFLARE_API_KEY: "cf-e2e-key-77", CLOUDFLARE_ACCOUNT_ID: "acct-e2e" } });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("The notes say hello.");
    expect(w.llm.requests.map((r) => r.path)).toEqual(["/client/v4/accounts/acct-e2e/ai/v1/chat/completions", "/client/v4/accounts/acct-e2e/ai/v1/chat/completions"]);
    expect(w.llm.requests[0]!.headers.authorization).toBe("Bearer cf-e2e-key-77");
  });

  test("Workers AI without an account id: an error naming CLOUDFLARE_ACCOUNT_ID, and no request", async () => {
    const w = await world(TOOL_SCRIPT, workersAi);
    const run = await w.run(["-p", "hi"], { env: { CLOUDFLARE_API_KEY: "cf-e2e-key-77" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cloudflare-workers-ai: model "@cf/moonshotai/kimi-k2.6" needs CLOUDFLARE_ACCOUNT_ID');
    expect(run.stderr).toContain('"env": {"CLOUDFLARE_ACCOUNT_ID": "…"}');
    expect(run.stderr).not.toContain("cf-e2e-key-77");
    expect(w.llm.requests).toHaveLength(0);
  });

  test("AI Gateway: account and gateway from auth.json's env; the key in cf-aig-authorization and no provider key header", async () => {
    const w = await world(TOOL_SCRIPT, (w) => ({
      provider: "cloudflare-ai-gateway",
      api: "anthropic-messages",
      baseUrl: `${w.llm.url}/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/anthropic`,
      modelId: "claude-sonnet-4.6",
      auth: { "cloudflare-ai-gateway": { type: "api_key", key: "cf-gw-key-31", env: { CLOUDFLARE_ACCOUNT_ID: "acct-e2e", CLOUDFLARE_GATEWAY_ID: "gw-e2e" } } },
    }));
    const run = await w.run(["-p", "What do the notes say?"]);
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("The notes say hello.");
    expect(w.llm.requests.map((r) => r.path)).toEqual(["/v1/acct-e2e/gw-e2e/anthropic/v1/messages", "/v1/acct-e2e/gw-e2e/anthropic/v1/messages"]);
    for (const request of w.llm.requests) {
      expect(request.headers["cf-aig-authorization"]).toBe("Bearer cf-gw-key-31");
      expect(request.headers["x-api-key"]).toBeUndefined();
      expect(request.headers.authorization).toBeUndefined();
    }
  });
});
