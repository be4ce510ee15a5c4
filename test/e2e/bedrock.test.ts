/**
 * Amazon Bedrock (ConverseStream) through the built binary, against the fake LLM server, which
 * speaks AWS's binary event stream and checks every request's SigV4 signature (with pig's signer,
 * given the test's credentials) or bearer token: answers, a tool round trip, thinking, usage and
 * cost in the session file; credentials from the environment, a profile file, a Bedrock API key
 * and the container credentials endpoint; HTTP and in-stream errors and an abort, each with a
 * clear message and no secret printed or stored.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import type { BedrockAuth } from "../helpers/fake-llm/bedrock.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { sessionMessages, sessionText } from "../helpers/session-file.ts";

const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const KEYS = { accessKeyId: "AKIDPIGTEST00001", secretAccessKey: "pig-test-secret-6f1d2c9a7b", sessionToken: "pig-test-session-token-33e1" };
const ENV_KEYS = { AWS_ACCESS_KEY_ID: KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey, AWS_SESSION_TOKEN: KEYS.sessionToken };
const BEARER = "bedrock-api-key-test-5a9e0c";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

type Json = Record<string, unknown>;

/** A world whose models.json has one Bedrock provider (ambient credentials) pointing at the fake server. */
async function world(script: Script, bedrockAuth: BedrockAuth, files: Record<string, string> = {}): Promise<PigWorld> {
  const w = await createWorld({ llm: { script, bedrockAuth }, files });
  worlds.push(w);
  const models = {
    providers: {
      "amazon-bedrock": {
        baseUrl: w.llm.url,
        api: "bedrock-converse-stream",
        apiKey: "<authenticated>",
        models: [
          {
            id: MODEL,
            name: "Claude Sonnet 4.5 (US)",
            reasoning: true,
            input: ["text", "image"],
            contextWindow: 200000,
            maxTokens: 64000,
            cost: { input: 3.3, output: 16.5, cacheRead: 0.33, cacheWrite: 4.125 },
          },
        ],
      },
    },
  };
  writeFileSync(join(w.agentDir, "models.json"), JSON.stringify(models));
  return w;
}

const ARGS = ["--provider", "amazon-bedrock", "--model", MODEL];

/** The region and service a request was signed for, from its Authorization header. */
function scope(w: PigWorld, index: number): string | undefined {
  return /Credential=[^/]+\/\d{8}\/([^/]+\/[^/]+)\/aws4_request/.exec(w.llm.requests[index]?.headers.authorization ?? "")?.[1];
}

function expectNoSecret(...texts: string[]): void {
  for (const text of texts) for (const secret of [KEYS.secretAccessKey, KEYS.sessionToken, BEARER]) expect(text).not.toContain(secret);
}

describe("Bedrock through pig -p", () => {
  test("thinking, a read tool round trip and the answer, signed with keys from the environment; usage and cost stored", async () => {
    const w = await world(
      [
        { thinking: "I should read the notes.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
        { thinking: "It says Tuesday.", text: "The launch is on Tuesday.", usage: { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 1000 } },
      ],
      { credentials: KEYS },
      { "notes.txt": "launch on Tuesday\n" },
    );
    const run = await w.run(["-p", ...ARGS, "--thinking", "high", "What do the notes say?"], { env: { ...ENV_KEYS, AWS_REGION: "eu-central-1" } });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("The launch is on Tuesday.");
    expect(run.code).toBe(0);
    expect(w.llm.requests.map((r) => r.path)).toEqual([
      "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream",
      "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream",
    ]);
    expect([scope(w, 0), scope(w, 1)]).toEqual(["eu-central-1/bedrock", "eu-central-1/bedrock"]);
    expect(w.llm.requests[0]!.headers["x-amz-security-token"]).toBe(KEYS.sessionToken);
    const second = w.llm.requests[1]!.body as { messages: Json[]; additionalModelRequestFields: Json };
    expect(second.additionalModelRequestFields).toMatchObject({ thinking: { type: "enabled", budget_tokens: 16384 } });
    expect(JSON.stringify(second.messages)).toContain('"toolResult":{"toolUseId"');
    expect(JSON.stringify(second.messages)).toContain("launch on Tuesday");

    const stored = sessionMessages(w);
    const first = stored.find((m) => m.role === "assistant") as Json;
    expect(first).toMatchObject({ api: "bedrock-converse-stream", provider: "amazon-bedrock", model: MODEL, stopReason: "toolUse" });
    expect(first.content).toMatchObject([
      { type: "thinking", thinking: "I should read the notes." },
      { type: "toolCall", name: "read", arguments: { path: "notes.txt" } },
    ]);
    expect(((first.content as Json[])[0]!.thinkingSignature as string).startsWith("fakesig_")).toBe(true);
    expect(stored.find((m) => m.role === "toolResult")).toMatchObject({ toolName: "read", isError: false });
    const last = stored.at(-1) as { stopReason: string; content: Json[]; usage: { input: number; output: number; cacheRead: number; cost: { total: number } } };
    expect(last.stopReason).toBe("stop");
    expect(last.content).toMatchObject([{ type: "thinking", thinking: "It says Tuesday." }, { type: "text", text: "The launch is on Tuesday." }]);
    expect(last.usage).toMatchObject({ input: 200, output: 30, cacheRead: 1000 });
    expect(last.usage.cost.total).toBeCloseTo((200 * 3.3 + 30 * 16.5 + 1000 * 0.33) / 1e6, 12);
    expectNoSecret(run.stdout, run.stderr, sessionText(w));
  });

  test("a wrong secret is Bedrock's 403, named, with no secret in the output or the session", async () => {
    const w = await world([{ text: "never" }], { credentials: { ...KEYS, secretAccessKey: "the-server-knows-another-secret" } });
    const run = await w.run(["-p", ...ARGS, "hello"], { env: ENV_KEYS });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("AccessDeniedException: The request signature we calculated does not match");
    expectNoSecret(run.stdout, run.stderr, sessionText(w));
  });

  test("AWS_PROFILE reads keys from the credentials file and the region from the config file", async () => {
    const w = await world([{ text: "from the profile" }], { credentials: { accessKeyId: "AKIDPROFILE0001", secretAccessKey: "profile-secret-71c3" } });
    const credentials = join(w.agentDir, "aws-credentials");
    const config = join(w.agentDir, "aws-config");
    writeFileSync(credentials, "[default]\naws_access_key_id = AKIDWRONG\naws_secret_access_key = wrong\n\n[work]\naws_access_key_id = AKIDPROFILE0001\naws_secret_access_key = profile-secret-71c3\n");
    writeFileSync(config, "[profile work]\nregion = ap-southeast-2\n");
    const run = await w.run(["-p", ...ARGS, "hello"], {
      env: { AWS_PROFILE: "work", AWS_SHARED_CREDENTIALS_FILE: credentials, AWS_CONFIG_FILE: config },
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("from the profile");
    expect(scope(w, 0)).toBe("ap-southeast-2/bedrock");
  });

  test("a profile that is in neither file is an error naming the profile and both files", async () => {
    const w = await world([{ text: "never" }], { credentials: KEYS });
    const run = await w.run(["-p", ...ARGS, "hello"], {
      env: { AWS_PROFILE: "missing", AWS_SHARED_CREDENTIALS_FILE: join(w.agentDir, "nope-credentials"), AWS_CONFIG_FILE: join(w.agentDir, "nope-config") },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`AWS_PROFILE names profile "missing", which is neither in ${join(w.agentDir, "nope-credentials")} nor in ${join(w.agentDir, "nope-config")}`);
    expect(w.llm.requests).toHaveLength(0);
  });

  test("AWS_BEARER_TOKEN_BEDROCK is sent as a bearer token, unsigned", async () => {
    const w = await world([{ text: "bearer works" }], { bearerToken: BEARER });
    const run = await w.run(["-p", ...ARGS, "hello"], { env: { AWS_BEARER_TOKEN_BEDROCK: BEARER } });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("bearer works");
    expect(w.llm.requests[0]!.headers.authorization).toBe(`Bearer ${BEARER}`);
    expect(w.llm.requests[0]!.headers["x-amz-date"]).toBeUndefined();
    expectNoSecret(run.stdout, sessionText(w));
  });

  test("the container credentials endpoint gives the keys (with its authorization token)", async () => {
    const served = { accessKeyId: "AKIDCONTAINER01", secretAccessKey: "container-secret-4b8e", sessionToken: "container-token-90af" };
    const seen: string[] = [];
    const endpoint = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        seen.push(request.headers.get("authorization") ?? "");
        return Response.json({ AccessKeyId: served.accessKeyId, SecretAccessKey: served.secretAccessKey, Token: served.sessionToken, Expiration: "2099-01-01T00:00:00Z" });
      },
    });
    try {
      const w = await world([{ text: "container works" }], { credentials: served });
      const run = await w.run(["-p", ...ARGS, "hello"], {
        env: { AWS_CONTAINER_CREDENTIALS_FULL_URI: `http://127.0.0.1:${endpoint.port}/creds`, AWS_CONTAINER_AUTHORIZATION_TOKEN: "pod-identity-token" },
      });
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain("container works");
      expect(seen).toEqual(["pod-identity-token"]);
      expect(w.llm.requests[0]!.headers["x-amz-security-token"]).toBe(served.sessionToken);
    } finally {
      await endpoint.stop(true);
    }
  });

  test("no credentials at all: a message saying what to set, and no request", async () => {
    const w = await world([{ text: "never" }], { credentials: KEYS });
    const run = await w.run(["-p", ...ARGS, "hello"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("No AWS credentials for Amazon Bedrock: set AWS_BEARER_TOKEN_BEDROCK, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE");
    expect(w.llm.requests).toHaveLength(0);
  });

  test("an HTTP error is Bedrock's kind and message", async () => {
    const w = await world([{ error: { status: 400, message: "messages.0.content: must not be empty" } }], { credentials: KEYS });
    const run = await w.run(["-p", ...ARGS, "hello"], { env: ENV_KEYS });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("Validation error: messages.0.content: must not be empty");
    expect(sessionMessages(w).at(-1)).toMatchObject({ stopReason: "error", errorMessage: "Validation error: messages.0.content: must not be empty" });
  });

  test("an exception in the stream ends the answer with its kind and message", async () => {
    const w = await world([{ text: "partial answer", midStreamError: "The model stopped unexpectedly" }], { credentials: KEYS });
    const run = await w.run(["-p", ...ARGS, "hello"], { env: ENV_KEYS });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("Model stream error: The model stopped unexpectedly");
    expect(sessionMessages(w).at(-1)).toMatchObject({ stopReason: "error", content: [{ type: "text", text: "partial answer" }] });
  });

  test("Ctrl+C mid-stream saves the partial answer as aborted", async () => {
    const w = await world([{ text: "streaming slowly forever", chunkSize: 4, stallAfterChunks: 3 }], { credentials: KEYS });
    const proc = Bun.spawn([pigBinary(), "--mode", "json", ...ARGS, "go"], { cwd: w.cwd, env: { ...w.env, ...ENV_KEYS }, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    // messageStart and two text deltas arrive, then the stream stalls: wait for the second delta's text.
    let out = "";
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      out += decoder.decode(chunk, { stream: true });
      if (out.includes('"delta":"amin"')) break;
    }
    expect(out).toContain('"delta":"amin"');
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    expect(sessionMessages(w).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Request was aborted", content: [{ type: "text", text: "streamin" }] });
  });
});
