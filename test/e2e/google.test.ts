/**
 * Google's two APIs through the built binary, against the fake LLM server speaking Gemini's
 * stream: the Gemini API with a key (an answer, a tool call round trip, thinking with its
 * signature sent back, usage and cost in the session file, an HTTP error, an abort) and Vertex AI
 * with Application Default Credentials — a service-account key file and gcloud's user login —
 * traded at a fake token endpoint on loopback.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { serviceAccountKeys, startFakeTokenEndpoint, type FakeTokenEndpoint } from "../helpers/fake-google-token.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { sessionMessages, sessionText } from "../helpers/session-file.ts";

const GEMINI_KEY = "gemini-e2e-key-0123456789";
const PROJECT = "proj-e2e";
const LOCATION = "us-central1";
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

const cost = (input: number, output: number, cacheRead: number) => ({ input, output, cacheRead, cacheWrite: 0 });

/** A world whose models.json has a Gemini API provider and a Vertex AI one, both at the fake server. */
async function world(script: Script, settings: Record<string, unknown> = {}): Promise<PigWorld> {
  const w = await createWorld({ llm: { script }, files: { "notes.txt": "hello from the notes file\n" }, settings: { retry: { enabled: false }, ...settings } });
  cleanups.push(() => w.close());
  const models = {
    providers: {
      gem: {
        baseUrl: `${w.llm.url}/v1beta`,
        api: "google-generative-ai",
        apiKey: GEMINI_KEY,
        models: [{ id: "gemini-2.5-flash", reasoning: true, input: ["text", "image"], contextWindow: 1048576, maxTokens: 65536, cost: cost(0.3, 2.5, 0.03) }],
      },
      vtx: {
        // `{location}` is filled in, and the path names project and location, as on Google's own hosts.
        baseUrl: `${w.llm.url}/{location}`,
        api: "google-vertex",
        apiKey: "<authenticated>",
        models: [
          {
            id: "gemini-3-flash-preview",
            reasoning: true,
            thinkingLevelMap: { off: null, minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: null, max: null },
            input: ["text", "image"],
            contextWindow: 1048576,
            maxTokens: 65536,
            cost: cost(0.5, 3, 0.05),
          },
        ],
      },
    },
  };
  writeFileSync(join(w.agentDir, "models.json"), JSON.stringify(models, null, 2));
  return w;
}

const READ_THEN_ANSWER: Script = [
  { thinking: "I will read notes.txt first.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }], usage: { prompt_tokens: 1000, completion_tokens: 20 } },
  { thinking: "It greets.", text: "notes.txt says hello.", usage: { prompt_tokens: 1200, completion_tokens: 10, cached_tokens: 800 } },
];

describe("Gemini API (google-generative-ai)", () => {
  test("a tool call round trip with thinking: the answer, the signature sent back, usage and cost stored", async () => {
    const w = await world(READ_THEN_ANSWER);
    const result = await w.run(["-p", "--model", "gem/gemini-2.5-flash", "--thinking", "high", "Read notes.txt"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("notes.txt says hello.\n");
    expect(result.code).toBe(0);

    const [first, second] = w.llm.requests;
    expect(w.llm.requests).toHaveLength(2);
    expect(first!.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
    expect(first!.headers["x-goog-api-key"]).toBe(GEMINI_KEY);
    expect((first!.body as { generationConfig: unknown }).generationConfig).toEqual({
      maxOutputTokens: 65536,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 24576 },
    });
    const turns = (second!.body as { contents: { role: string; parts: Record<string, unknown>[] }[] }).contents;
    expect(turns.map((t) => t.role)).toEqual(["user", "model", "user"]);
    expect(turns[1]!.parts[0]).toMatchObject({ text: "I will read notes.txt first.", thought: true, thoughtSignature: expect.any(String) });
    expect(turns[1]!.parts[1]).toMatchObject({ functionCall: { args: { path: "notes.txt" }, name: "read" }, thoughtSignature: expect.any(String) });
    expect(turns[2]!.parts).toEqual([{ functionResponse: { name: "read", response: { output: "hello from the notes file\n" } } }]);

    const stored = sessionMessages(w).filter((m) => m.role === "assistant");
    expect(stored.map((m) => m.stopReason)).toEqual(["toolUse", "stop"]);
    expect(stored[0]!.content).toMatchObject([{ type: "thinking", thinking: "I will read notes.txt first." }, { type: "toolCall", name: "read", arguments: { path: "notes.txt" } }]);
    // 1200 prompt tokens of which 800 cached; 10 answer tokens and ceil(10/4) = 3 of thought.
    expect(stored[1]!.usage).toMatchObject({ input: 400, output: 13, cacheRead: 800, reasoning: 3, totalTokens: 1213 });
    expect((stored[1]!.usage as { cost: { total: number } }).cost.total).toBeCloseTo((400 * 0.3 + 13 * 2.5 + 800 * 0.03) / 1e6, 12);
    expect(sessionText(w)).not.toContain(GEMINI_KEY);
  });

  test("an HTTP error ends the run with Google's message and status", async () => {
    const w = await world([{ error: { status: 429, message: "Resource has been exhausted (e.g. check quota)." } }]);
    const result = await w.run(["-p", "--model", "gem/gemini-2.5-flash", "hi"]);
    // A rate limit's own exit code (docs/cli-integration.md).
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("429 Resource has been exhausted (e.g. check quota). (RESOURCE_EXHAUSTED)");
    expect(sessionMessages(w).at(-1)).toMatchObject({ stopReason: "error", errorMessage: "429 Resource has been exhausted (e.g. check quota). (RESOURCE_EXHAUSTED)" });
  });

  test("Ctrl+C mid-stream keeps the partial answer as aborted", async () => {
    const w = await world([{ text: "streaming slowly forever", chunkSize: 4, stallAfterChunks: 1 }]);
    const proc = Bun.spawn([pigBinary(), "--mode", "json", "--model", "gem/gemini-2.5-flash", "go"], { cwd: w.cwd, env: w.env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const decoder = new TextDecoder();
    let seen = "";
    for await (const chunk of proc.stdout) {
      seen += decoder.decode(chunk, { stream: true });
      if (seen.includes('"type":"text_delta"')) break;
    }
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    expect(sessionMessages(w).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Request was aborted", content: [{ type: "text", text: "stre" }] });
  });
});

describe("Vertex AI (google-vertex) with Application Default Credentials", () => {
  const keys = serviceAccountKeys();
  const EMAIL = "pig-e2e@proj-e2e.iam.gserviceaccount.com";
  const USER = { clientId: "e2e.apps.googleusercontent.com", clientSecret: "e2e-client-secret", refreshToken: "1//e2e-refresh-token" };

  function tokenEndpoint(): FakeTokenEndpoint {
    const endpoint = startFakeTokenEndpoint({ serviceAccount: { email: EMAIL, publicKey: keys.publicKey }, user: USER, accessToken: "ya29.e2e-token" });
    cleanups.push(() => endpoint.close());
    return endpoint;
  }

  test("a service-account key file: the JWT traded once, the token used for every request", async () => {
    const endpoint = tokenEndpoint();
    const w = await world(READ_THEN_ANSWER);
    const keyFile = join(w.cwd, "..", `sa-${Date.now()}.json`);
    writeFileSync(keyFile, JSON.stringify({ type: "service_account", project_id: PROJECT, private_key_id: "k1", private_key: keys.privateKeyPem, client_email: EMAIL, token_uri: endpoint.url }));
    const env = { GOOGLE_APPLICATION_CREDENTIALS: keyFile, GOOGLE_CLOUD_PROJECT: PROJECT, GOOGLE_CLOUD_LOCATION: LOCATION };
    const result = await w.run(["-p", "--model", "vtx/gemini-3-flash-preview", "--thinking", "low", "Read notes.txt"], { env });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("notes.txt says hello.\n");

    expect(endpoint.grants.map((g) => g.grant_type)).toEqual(["urn:ietf:params:oauth:grant-type:jwt-bearer"]);
    expect(endpoint.grants[0]!.claims).toMatchObject({ iss: EMAIL, aud: endpoint.url });
    expect(w.llm.requests).toHaveLength(2);
    for (const request of w.llm.requests) {
      expect(request.path).toBe(`/${LOCATION}/v1/projects/${PROJECT}/locations/${LOCATION}/publishers/google/models/gemini-3-flash-preview:streamGenerateContent`);
      expect(request.headers.authorization).toBe("Bearer ya29.e2e-token-1");
    }
    const second = w.llm.requests[1]!.body as { contents: { parts: Record<string, unknown>[] }[]; generationConfig: unknown };
    expect(second.generationConfig).toEqual({ maxOutputTokens: 65536, thinkingConfig: { includeThoughts: true, thinkingLevel: "LOW" } });
    // Gemini 3 gets the call's id back with its result.
    const call = second.contents[1]!.parts[1]!.functionCall as { id: string };
    expect(second.contents[2]!.parts[0]!.functionResponse).toMatchObject({ name: "read", id: call.id });
    const session = sessionText(w);
    expect(session).not.toContain("ya29.e2e-token");
    expect(session).not.toContain("PRIVATE KEY");
  });

  test("gcloud's user login from ~/.config/gcloud, refreshed at PIG_GOOGLE_TOKEN_URL, quota project sent", async () => {
    const endpoint = tokenEndpoint();
    const w = await world([{ text: "hi from vertex" }]);
    mkdirSync(join(w.agentDir, ".config", "gcloud"), { recursive: true });
    writeFileSync(
      join(w.agentDir, ".config", "gcloud", "application_default_credentials.json"),
      JSON.stringify({ type: "authorized_user", client_id: USER.clientId, client_secret: USER.clientSecret, refresh_token: USER.refreshToken, quota_project_id: "billing-e2e" }),
    );
    const env = { PIG_GOOGLE_TOKEN_URL: endpoint.url, GCLOUD_PROJECT: PROJECT, GOOGLE_CLOUD_LOCATION: LOCATION };
    const result = await w.run(["-p", "--model", "vtx/gemini-3-flash-preview", "--thinking", "off", "hello"], { env });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("hi from vertex\n");
    expect(endpoint.grants.map((g) => g.form)).toEqual([{ grant_type: "refresh_token", client_id: USER.clientId, client_secret: USER.clientSecret, refresh_token: USER.refreshToken }]);
    expect(w.llm.requests[0]!.headers.authorization).toBe("Bearer ya29.e2e-token-1");
    expect(w.llm.requests[0]!.headers["x-goog-user-project"]).toBe("billing-e2e");
    // This model cannot turn thinking off: "off" becomes the lowest level it offers, as in Pi.
    expect((w.llm.requests[0]!.body as { generationConfig: unknown }).generationConfig).toEqual({
      maxOutputTokens: 65536,
      thinkingConfig: { includeThoughts: true, thinkingLevel: "MINIMAL" },
    });
  });

  test("a refused login and a missing project are clear errors, and no request reaches the model", async () => {
    const endpoint = tokenEndpoint();
    endpoint.refuse({ status: 400, error: "invalid_grant", description: "Token has been expired or revoked." });
    const w = await world([{ text: "never" }]);
    const adc = join(w.agentDir, "adc.json");
    writeFileSync(adc, JSON.stringify({ type: "authorized_user", client_id: USER.clientId, client_secret: USER.clientSecret, refresh_token: USER.refreshToken, token_uri: endpoint.url }));
    const refused = await w.run(["-p", "--model", "vtx/gemini-3-flash-preview", "hello"], {
      env: { GOOGLE_APPLICATION_CREDENTIALS: adc, GOOGLE_CLOUD_PROJECT: PROJECT, GOOGLE_CLOUD_LOCATION: LOCATION },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The Google token endpoint ${endpoint.url} (credentials ${adc}) refused: 400 invalid_grant: Token has been expired or revoked.`);
    expect(refused.stderr).not.toContain(USER.refreshToken);
    const noProject = await w.run(["-p", "--model", "vtx/gemini-3-flash-preview", "hello"], { env: { GOOGLE_APPLICATION_CREDENTIALS: adc, GOOGLE_CLOUD_LOCATION: LOCATION } });
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toContain("Vertex AI needs a project: set GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT)");
    expect(w.llm.requests).toHaveLength(0);
  });
});
