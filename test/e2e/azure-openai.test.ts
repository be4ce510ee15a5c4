/**
 * Azure OpenAI's Responses API through the built binary, against the fake server's Azure route
 * (which refuses a request without an `api-key` header or an `api-version` query, as Azure does):
 * an answer after thinking and a tool call, usage and cost in the session file, the endpoint and
 * deployment from the environment, an HTTP error with Azure's message, and an abort mid-stream.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { sessionMessages } from "../helpers/session-file.ts";

const KEY = "azure-e2e-key-61d0f3a9";
const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

/** A world whose only provider is Azure, its model defined in models.json, its key in AZURE_OPENAI_API_KEY. */
async function azureWorld(script: Script, baseUrl?: string): Promise<PigWorld> {
  const w = await createWorld({ llm: { script }, files: { "notes.txt": "hello from the notes\n" } });
  worlds.push(w);
  const model = {
    id: "gpt-5-mini",
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
    contextWindow: 400000,
    maxTokens: 128000,
  };
  const provider = { baseUrl: baseUrl ?? `${w.llm.url}/openai/v1`, api: "azure-openai-responses", apiKey: "AZURE_OPENAI_API_KEY", models: [model] };
  writeFileSync(join(w.agentDir, "models.json"), JSON.stringify({ providers: { "azure-openai-responses": provider } }));
  writeFileSync(join(w.agentDir, "settings.json"), JSON.stringify({ defaultProvider: "azure-openai-responses", defaultModel: "gpt-5-mini", quietStartup: true, retry: { enabled: false } }));
  w.env.AZURE_OPENAI_API_KEY = KEY;
  return w;
}

type Json = Record<string, unknown>;

describe("azure-openai-responses through pig -p", () => {
  test("thinks, calls read, answers; the requests carry api-key and api-version; usage and cost are stored", async () => {
    const w = await azureWorld({
      responses: [
        { thinking: "I should read the notes.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }], usage: { prompt_tokens: 1000, completion_tokens: 40 } },
        { thinking: "It is a greeting.", text: "The notes say hello.", usage: { prompt_tokens: 1200, completion_tokens: 20, cached_tokens: 1000 } },
      ],
    });
    const run = await w.run(["--thinking", "high", "-p", "What do the notes say?"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("The notes say hello.");

    expect(w.llm.requests.map((r) => [r.api, r.path, r.query])).toEqual([
      ["azure", "/openai/v1/responses", "?api-version=v1"],
      ["azure", "/openai/v1/responses", "?api-version=v1"],
    ]);
    for (const request of w.llm.requests) {
      expect(request.headers["api-key"]).toBe(KEY);
      expect(request.headers.authorization).toBeUndefined();
      expect(request.body).toMatchObject({ model: "gpt-5-mini", reasoning: { effort: "high", summary: "auto" }, store: false });
    }
    const second = w.llm.requests[1]!.body as { input: Json[] };
    expect(second.input.find((item) => item.type === "function_call_output")).toMatchObject({ output: "hello from the notes\n" });

    const [first, answer] = sessionMessages(w).filter((m) => m.role === "assistant");
    expect(first).toMatchObject({ role: "assistant", api: "azure-openai-responses", provider: "azure-openai-responses", stopReason: "toolUse" });
    expect((first!.content as Json[]).map((block) => block.type)).toEqual(["thinking", "toolCall"]);
    expect(answer).toMatchObject({ role: "assistant", stopReason: "stop", content: [{ type: "thinking", thinking: "It is a greeting." }, { type: "text", text: "The notes say hello." }] });
    // 1200 input tokens of which 1000 cached: 200 × $0.25 + 1000 × $0.025 + 20 × $2 per million.
    expect(answer!.usage).toMatchObject({ input: 200, cacheRead: 1000, output: 20 });
    expect((answer!.usage as { cost: { total: number } }).cost.total).toBeCloseTo((200 * 0.25 + 1000 * 0.025 + 20 * 2) / 1e6, 12);
  });

  test("AZURE_OPENAI_BASE_URL, _API_VERSION and _DEPLOYMENT_NAME_MAP win over models.json", async () => {
    const w = await azureWorld({ responses: [{ text: "deployed" }] }, "https://unused.openai.azure.com");
    const run = await w.run(["-p", "hi"], {
      env: { AZURE_OPENAI_BASE_URL: `${w.llm.url}/openai/v1`, AZURE_OPENAI_API_VERSION: "2025-04-01-preview", AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-5-mini=team-mini" },
    });
    expect(run.stdout.trim()).toBe("deployed");
    expect(w.llm.requests).toHaveLength(1);
    expect(w.llm.requests[0]!.query).toBe("?api-version=2025-04-01-preview");
    expect(w.llm.requests[0]!.body).toMatchObject({ model: "team-mini" });
    // The session keeps the model's own id.
    expect(sessionMessages(w).at(-1)).toMatchObject({ model: "gpt-5-mini", stopReason: "stop" });
  });

  test("an HTTP error says the status and Azure's message", async () => {
    const message = "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.";
    const w = await azureWorld({ responses: [{ error: { status: 400, code: "content_filter", message } }] });
    const run = await w.run(["-p", "hi"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`400 ${message}`);
    expect(run.stderr).not.toContain(KEY);
    expect(sessionMessages(w).at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: `400 ${message}` });
  });

  test("Ctrl+C mid-stream stops the answer and stores it as aborted", async () => {
    const w = await azureWorld({ responses: [{ text: "streaming slowly forever and ever", chunkSize: 4, stallAfterChunks: 5 }] });
    const proc = Bun.spawn([pigBinary(), "--mode", "json", "go"], { cwd: w.cwd, env: w.env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const stderr = new Response(proc.stderr).text();
    let seen = "";
    const decoder = new TextDecoder();
    // Wait for the first text delta on pig's event stream, then interrupt.
    for await (const chunk of proc.stdout) {
      seen += decoder.decode(chunk, { stream: true });
      if (seen.includes('"type":"text_delta"')) break;
    }
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    await stderr;
    const last = sessionMessages(w).at(-1)!;
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Request was aborted" });
    expect(String((last.content as Json[])[0]?.text ?? "")).toStartWith("stre");
  });
});
