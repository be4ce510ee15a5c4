/**
 * A ChatGPT subscriber's session through the built binary: an `openai-codex` provider of the
 * `openai-codex-responses` API (models.json) pointing at the fake server's Codex endpoint, and
 * an auth.json OAuth login holding an unsigned test JWT. The fake server refuses any request
 * whose bearer token, `chatgpt-account-id`, `originator` or `OpenAI-Beta` is not what the
 * backend requires, so every answer below also proves those headers.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { fakeCodexAuthJson, fakeCodexToken, FAKE_CODEX_ACCOUNT_ID, fakeJwt } from "../helpers/fake-jwt.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { sessionMessages } from "../helpers/session-file.ts";

type Json = Record<string, unknown>;

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

const PRICES = { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0 };
const MODEL_ARGS = ["--provider", "openai-codex", "--model", "gpt-5.5", "--thinking", "high"];

/** A world whose only provider is `openai-codex` at the fake server, signed in with `token`. */
async function codexWorld(script: Script, token = fakeCodexToken()): Promise<PigWorld> {
  const w = await createWorld({ llm: { script }, files: { "notes.txt": "hello from the notes file\n" } });
  worlds.push(w);
  const models = {
    providers: {
      "openai-codex": {
        baseUrl: `${w.llm.url}/backend-api`,
        api: "openai-codex-responses",
        // The sign-in in auth.json comes first; a provider pig does not know needs a key here.
        apiKey: "unused-the-sign-in-is-in-auth-json",
        models: [
          {
            id: "gpt-5.5",
            name: "GPT-5.5",
            reasoning: true,
            thinkingLevelMap: { xhigh: "xhigh", minimal: "low" },
            input: ["text", "image"],
            contextWindow: 272000,
            maxTokens: 128000,
            cost: PRICES,
          },
        ],
      },
    },
  };
  writeFileSync(join(w.agentDir, "models.json"), JSON.stringify(models, null, 2));
  writeFileSync(join(w.agentDir, "auth.json"), JSON.stringify(fakeCodexAuthJson(token), null, 2), { mode: 0o600 });
  writeFileSync(join(w.agentDir, "settings.json"), JSON.stringify({ quietStartup: true }, null, 2));
  return w;
}

describe("openai-codex through dist/pig", () => {
  test("a subscriber gets an answer after thinking and a read tool round trip, with usage and cost in the session", async () => {
    const w = await codexWorld([
      { thinking: "I should read the file.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }], usage: { prompt_tokens: 1000, completion_tokens: 20 } },
      { thinking: "It is a greeting.", text: "notes.txt says hello.", usage: { prompt_tokens: 1100, completion_tokens: 10, cached_tokens: 800 } },
    ]);
    const run = await w.run([...MODEL_ARGS, "-p", "Read notes.txt and tell me what it says."]);
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("notes.txt says hello.");
    expect(run.code).toBe(0);

    expect(w.llm.requests.map((r) => [r.method, r.path])).toEqual([
      ["POST", "/backend-api/codex/responses"],
      ["POST", "/backend-api/codex/responses"],
    ]);
    const [first, second] = w.llm.requests;
    expect(first!.headers).toMatchObject({
      "chatgpt-account-id": FAKE_CODEX_ACCOUNT_ID,
      originator: "pi",
      "openai-beta": "responses=experimental",
      "content-encoding": "zstd",
      accept: "text/event-stream",
    });
    expect(first!.body).toMatchObject({ model: "gpt-5.5", store: false, stream: true, reasoning: { effort: "high", summary: "auto" } });
    expect(JSON.stringify((second!.body as Json).input)).toContain('"type":"function_call_output"');
    expect(JSON.stringify((second!.body as Json).input)).toContain("hello from the notes file");

    const all = sessionMessages(w);
    const answers = all.filter((m) => m.role === "assistant");
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatchObject({
      api: "openai-codex-responses",
      provider: "openai-codex",
      model: "gpt-5.5",
      stopReason: "toolUse",
      content: [{ type: "thinking", thinking: "I should read the file." }, { type: "toolCall", name: "read", arguments: { path: "notes.txt" } }],
    });
    expect(all.find((m) => m.role === "toolResult")).toMatchObject({ toolName: "read", isError: false, content: [{ type: "text", text: "hello from the notes file\n" }] });
    expect(answers[1]).toMatchObject({
      stopReason: "stop",
      content: [{ type: "thinking", thinking: "It is a greeting." }, { type: "text", text: "notes.txt says hello." }],
      usage: { input: 300, output: 10, cacheRead: 800, cacheWrite: 0, totalTokens: 1110 },
    });
    const cost = (answers[1]!.usage as { cost: { input: number; output: number; cacheRead: number; total: number } }).cost;
    expect(cost.input).toBeCloseTo((300 * PRICES.input) / 1e6, 12);
    expect(cost.cacheRead).toBeCloseTo((800 * PRICES.cacheRead) / 1e6, 12);
    expect(cost.output).toBeCloseTo((10 * PRICES.output) / 1e6, 12);
    expect(cost.total).toBeCloseTo(cost.input + cost.output + cost.cacheRead, 12);
  });

  test("a usage limit says so, with the plan and when it resets, and is not retried", async () => {
    const w = await codexWorld([{ error: { status: 429, message: "The usage limit has been reached", code: "usage_limit_reached" } }]);
    const run = await w.run([...MODEL_ARGS, "-p", "hello"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/You have hit your ChatGPT usage limit \(plus plan\)\. Try again in ~(59|60) min\./);
    expect(w.llm.requests).toHaveLength(1);
    expect(sessionMessages(w).at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
  });

  test("a refused sign-in (401) names the server's message and how to sign in again", async () => {
    const w = await codexWorld([{ error: { status: 401, message: "Your authentication token has expired." } }]);
    const run = await w.run([...MODEL_ARGS, "-p", "hello"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("401 Your authentication token has expired. Your ChatGPT sign-in was refused: run /login openai-codex to sign in again");
    expect(run.stderr).not.toContain(fakeCodexToken());
  });

  test("a stored token that names no ChatGPT account fails before any request, saying to sign in again", async () => {
    const token = fakeJwt({ sub: "someone" });
    const w = await codexWorld([{ text: "never sent" }], token);
    const run = await w.run([...MODEL_ARGS, "-p", "hello"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("sign in again with /login openai-codex");
    expect(run.stderr).not.toContain(token);
    expect(w.llm.requests).toHaveLength(0);
  });

  test("Ctrl+C mid-stream ends the answer as aborted, its streamed text kept", async () => {
    const w = await codexWorld([{ text: "streaming slowly forever and ever", chunkSize: 4, stallAfterChunks: 5 }]);
    const proc = Bun.spawn([pigBinary(), ...MODEL_ARGS, "--mode", "json", "go"], { cwd: w.cwd, env: w.env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const stderr = new Response(proc.stderr).text();
    // created, in_progress, item added, part added, then the first text delta: the stream stalls after "stre".
    const decoder = new TextDecoder();
    let seen = "";
    for await (const chunk of proc.stdout) {
      seen += decoder.decode(chunk, { stream: true });
      if (seen.includes('"delta":"stre"')) break;
    }
    expect(seen).toContain('"delta":"stre"');
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    await stderr;
    expect(sessionMessages(w).at(-1)).toMatchObject({
      role: "assistant",
      api: "openai-codex-responses",
      stopReason: "aborted",
      errorMessage: "Request was aborted",
      content: [{ type: "text", text: "stre" }],
    });
  });
});
