/** The request log, "text" mode, setScript, onRequest and the CLI used by benchmarks. */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { type FakeLlm, type RecordedRequest, startFakeLlm } from "../helpers/fake-llm/server.ts";
import { tempDir } from "../helpers/tmp.ts";
import { anthropicRequest } from "./sse-client.ts";

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function chatText(client: OpenAI, content: string): Promise<string> {
  let text = "";
  const messages = [{ role: "user" as const, content }];
  const stream = await client.chat.completions.create({ model: "fake-model", messages, stream: true });
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
  return text;
}

describe("request log", () => {
  test("one entry per model request, shaped like the fixtures' requests.jsonl", async () => {
    const seen: RecordedRequest[] = [];
    llm = await startFakeLlm({
      script: [{ text: "a", label: "first" }, { toolCalls: [{ name: "read", arguments: {} }] }],
      onRequest: (r) => seen.push(r),
    });
    const client = new OpenAI({ baseURL: `${llm.url}/v1`, apiKey: "fake-key", maxRetries: 0 });
    const before = Date.now();
    expect(await chatText(client, "hello")).toBe("a");
    await (await anthropicRequest(llm.url, { model: "m", max_tokens: 5, stream: true, messages: [] })).text();
    for await (const _event of await client.responses.create({ model: "m", input: "x", stream: true })) {
      // drain
    }
    await client.models.list();

    expect(llm.requests.map((r) => [r.seq, r.api, r.method, r.path])).toEqual([
      [1, "chat", "POST", "/v1/chat/completions"],
      [2, "anthropic", "POST", "/v1/messages"],
      [3, "responses", "POST", "/v1/responses"],
    ]);
    expect(llm.requests.map((r) => r.served)).toEqual([
      { source: "script[0]", kind: "text", label: "first" },
      { source: "script[1]", kind: "toolCalls" },
      { source: "fallback", kind: "text" },
    ]);
    const [chat, anthropic] = llm.requests;
    expect(Object.keys(chat!)).toEqual(["seq", "time", "api", "method", "path", "headers", "body", "served"]);
    expect(Date.parse(chat!.time)).toBeGreaterThanOrEqual(before - 1000);
    expect(chat!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(chat!.body).toEqual({ model: "fake-model", messages: [{ role: "user", content: "hello" }], stream: true });
    expect(chat!.headers.authorization).toBe("Bearer fake-key");
    expect(chat!.headers["content-type"]).toBe("application/json");
    expect(anthropic!.headers["x-api-key"]).toBe("fake-key");
    expect(anthropic!.headers["anthropic-version"]).toBe("2023-06-01");
    expect(seen).toEqual(llm.requests);
  });

  test("a body that is not JSON is kept as text", async () => {
    llm = await startFakeLlm();
    await (await fetch(`${llm.url}/v1/chat/completions`, { method: "POST", body: "not json" })).text();
    expect(llm.requests[0]?.body).toBe("not json");
    expect(llm.requests[0]?.served).toEqual({ source: "fallback", kind: "text" });
  });
});

describe("modes", () => {
  test('"text" mode answers every request with "ok" and ignores the script', async () => {
    llm = await startFakeLlm({ mode: "text", script: [{ text: "scripted" }] });
    const client = new OpenAI({ baseURL: `${llm.url}/v1`, apiKey: "k", maxRetries: 0 });
    expect([await chatText(client, "NEXT: continue"), await chatText(client, "again")]).toEqual(["ok", "ok"]);
    expect(llm.requests.map((r) => r.served)).toEqual([
      { source: "text", kind: "text" },
      { source: "text", kind: "text" },
    ]);
  });

  test("setScript swaps in a new script (from a value or a file) and leaves text mode", async () => {
    llm = await startFakeLlm({ mode: "text" });
    const client = new OpenAI({ baseURL: `${llm.url}/v1`, apiKey: "k", maxRetries: 0 });
    llm.setScript([{ text: "one" }]);
    expect(await chatText(client, "x")).toBe("one");
    const file = join(tempDir(), "s.script.json");
    writeFileSync(file, JSON.stringify({ responses: [{ text: "from file" }], fallback: { text: "fb" } }));
    llm.setScript(file);
    expect([await chatText(client, "x"), await chatText(client, "x")]).toEqual(["from file", "fb"]);
    expect(() => llm!.setScript([{ txt: "typo" }] as never)).toThrow(/\[0\]\.txt: unknown field/);
    expect(llm.requests.map((r) => r.seq)).toEqual([1, 2, 3]);
  });

  test("a script file given to startFakeLlm", async () => {
    const file = join(tempDir(), "s.script.json");
    writeFileSync(file, JSON.stringify([{ text: "from file" }]));
    llm = await startFakeLlm({ script: file });
    expect(await chatText(new OpenAI({ baseURL: `${llm.url}/v1`, apiKey: "k" }), "x")).toBe("from file");
  });
});

describe("CLI", () => {
  test("prints the URL, serves the script, and stops on SIGTERM", async () => {
    const file = join(tempDir(), "cli.script.json");
    writeFileSync(file, JSON.stringify([{ text: "from the cli" }]));
    const main = join(import.meta.dir, "..", "helpers", "fake-llm", "main.ts");
    const child = Bun.spawn([process.execPath, main, file], { stdout: "pipe", stderr: "pipe" });
    try {
      const reader = child.stdout.getReader();
      const { value } = await reader.read();
      const url = new TextDecoder().decode(value).trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "k", maxRetries: 0 });
      expect(await chatText(client, "x")).toBe("from the cli");
      expect(await chatText(client, "x")).toBe("ok");
      reader.releaseLock();
    } finally {
      child.kill("SIGTERM");
    }
    expect(await child.exited).toBe(0);
  });

  test("--text and --port; a bad script exits with the validation message", async () => {
    const main = join(import.meta.dir, "..", "helpers", "fake-llm", "main.ts");
    const child = Bun.spawn([process.execPath, main, "--text", "--port", "0"], { stdout: "pipe" });
    try {
      const { value } = await child.stdout.getReader().read();
      const url = new TextDecoder().decode(value).trim();
      expect(await chatText(new OpenAI({ baseURL: `${url}/v1`, apiKey: "k" }), "x")).toBe("ok");
    } finally {
      child.kill("SIGTERM");
    }
    await child.exited;

    const bad = join(tempDir(), "bad.script.json");
    writeFileSync(bad, JSON.stringify([{ repeat: 0 }]));
    const failing = Bun.spawnSync([process.execPath, main, bad], { stderr: "pipe" });
    expect(failing.exitCode).toBe(1);
    expect(failing.stderr.toString()).toContain("[0].repeat");
  });
});
