/**
 * Mistral (`mistral-conversations`) and Pi's message protocol (`pi-messages`) through the built
 * binary, each as a models.json provider pointing at the fake LLM server: an answer with
 * thinking after a `read` round trip, usage and cost in the session file, an HTTP error with the
 * server's message, and Ctrl+C mid-stream.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { sessionMessages } from "../helpers/session-file.ts";

type Json = Record<string, unknown>;

interface Case {
  api: "mistral-conversations" | "pi-messages";
  provider: string;
  model: string;
  baseUrl: (url: string) => string;
  /** The error a 400 answer with the message "Invalid model: nope" becomes. */
  httpError: string;
}

const CASES: Case[] = [
  {
    api: "mistral-conversations",
    provider: "lab-mistral",
    model: "magistral-medium-latest",
    baseUrl: (url) => `${url}/mistral`,
    httpError: 'Mistral API error (400): {"object":"error","message":"Invalid model: nope","type":"invalid_request_error","param":null,"code":null}',
  },
  {
    api: "pi-messages",
    provider: "lab-radius",
    model: "balanced",
    baseUrl: (url) => `${url}/pi-messages/v1`,
    httpError: "400 Bad Request: Invalid model: nope (request_failed)",
  },
];

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(c: Case, script: Script): Promise<PigWorld> {
  const w = await createWorld({ llm: { script }, files: { "notes.txt": "The launch code is PIG-42.\n" } });
  worlds.push(w);
  const model = {
    id: c.model,
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 128000,
    maxTokens: 16384,
    cost: { input: 2, output: 5, cacheRead: 0.2, cacheWrite: 0 },
  };
  const models = { providers: { [c.provider]: { baseUrl: c.baseUrl(w.llm.url), api: c.api, apiKey: "LAB_KEY", models: [model] } } };
  writeFileSync(join(w.agentDir, "models.json"), JSON.stringify(models, null, 2));
  return w;
}

function args(c: Case, ...rest: string[]): string[] {
  return ["--model", `${c.provider}/${c.model}`, "--thinking", "high", ...rest];
}

const ENV = { LAB_KEY: "lab-secret-key-123456" };

/** Resolves once `check` holds; fails with `what` if it never does. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

for (const c of CASES) {
  describe(c.api, () => {
    test("thinks, reads a file, answers; usage and cost are in the session file", async () => {
      const w = await world(c, [
        { thinking: "I should read the notes.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }], usage: { prompt_tokens: 1000, completion_tokens: 40 } },
        { thinking: "It names the code.", text: "The notes say PIG-42.", usage: { prompt_tokens: 1200, completion_tokens: 20, cached_tokens: 1000 } },
      ]);
      const run = await w.run(args(c, "-p", "What do the notes say?"), { env: ENV });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("The notes say PIG-42.\n");
      expect(run.code).toBe(0);

      const [first, result, second] = sessionMessages(w).filter((m) => m.role !== "user" && m.role !== "system");
      expect(first).toMatchObject({ role: "assistant", api: c.api, provider: c.provider, stopReason: "toolUse" });
      const blocks = first!.content as Json[];
      expect(blocks[0]).toMatchObject({ type: "thinking", thinking: "I should read the notes." });
      expect(blocks[1]).toMatchObject({ type: "toolCall", name: "read", arguments: { path: "notes.txt" } });
      if (c.api === "mistral-conversations") expect(blocks[1]!.id).toMatch(/^[a-zA-Z0-9]{9}$/);
      expect(result).toMatchObject({ role: "toolResult", toolCallId: blocks[1]!.id, isError: false });
      expect(JSON.stringify(result!.content)).toContain("PIG-42");
      expect(second).toMatchObject({ role: "assistant", stopReason: "stop", content: [{ type: "thinking", thinking: "It names the code." }, { type: "text", text: "The notes say PIG-42." }] });
      expect(second!.usage).toMatchObject({ input: 200, output: 20, cacheRead: 1000, cacheWrite: 0, totalTokens: 1220 });
      // Mistral is priced by pig from the model's prices; the gateway prices its own answers.
      const cost = (second!.usage as { cost: { total: number } }).cost.total;
      expect(cost).toBeCloseTo(c.api === "pi-messages" ? (3 * 200 + 15 * 20 + 0.3 * 1000) / 1e6 : (2 * 200 + 5 * 20 + 0.2 * 1000) / 1e6, 12);

      // The second request carries the thinking, the call and its result back.
      const replay = JSON.stringify(w.llm.requests[1]!.body);
      expect(replay).toContain("I should read the notes.");
      expect(replay).toContain(blocks[1]!.id as string);
      expect(replay).toContain("The launch code is PIG-42.");
      expect(w.llm.requests[0]!.headers.authorization).toBe(`Bearer ${ENV.LAB_KEY}`);
    });

    test("an HTTP error ends the run with the status and the server's message", async () => {
      const w = await world(c, [{ error: { status: 400, message: "Invalid model: nope" } }]);
      const run = await w.run(args(c, "-p", "hello"), { env: ENV });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(c.httpError);
      expect(run.stderr).not.toContain(ENV.LAB_KEY);
      expect(sessionMessages(w).at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: c.httpError });
    });

    test("Ctrl+C mid-stream saves the partial answer as aborted", async () => {
      const w = await world(c, [{ text: "streaming slowly forever and ever", chunkSize: 4, stallAfterChunks: 3 }]);
      const proc = Bun.spawn([pigBinary(), ...args(c, "--mode", "json", "go")], { cwd: w.cwd, env: { ...w.env, ...ENV }, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
      const events: Json[] = [];
      const reading = (async () => {
        const decoder = new TextDecoder();
        let rest = "";
        for await (const chunk of proc.stdout) {
          rest += decoder.decode(chunk, { stream: true });
          for (let nl = rest.indexOf("\n"); nl >= 0; nl = rest.indexOf("\n")) {
            events.push(JSON.parse(rest.slice(0, nl)) as Json);
            rest = rest.slice(nl + 1);
          }
        }
      })();
      const streamed = () =>
        events
          .map((e) => (e.type === "message_update" ? (e.assistantMessageEvent as { type: string; delta?: string }) : undefined))
          .flatMap((d) => (d?.type === "text_delta" ? [d.delta ?? ""] : []))
          .join("");
      // Mistral: role chunk, then two text chunks; pi-messages: start, text_start, one text delta.
      const expected = c.api === "mistral-conversations" ? "streamin" : "stre";
      await until(() => streamed() === expected, "the first text of the answer");
      proc.kill("SIGINT");
      expect(await proc.exited).toBe(130);
      await reading;
      expect(sessionMessages(w).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Request was aborted", content: [{ type: "text", text: expected }] });
    });
  });
}
