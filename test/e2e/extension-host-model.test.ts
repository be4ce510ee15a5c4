/**
 * A Pi-style extension that makes its own model calls the way registry packages do —
 * `ctx.modelRegistry.getApiKeyAndHeaders(model)`, then `completeSimple` / `streamSimple` with
 * the key it got — through the built binary. pig makes the calls with its own providers and
 * key; the extension's process never holds the key. Also: an abort from the extension stops
 * pig's request, and a provider without credentials in pig is refused with a message saying how
 * to add them, with no request made.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();

type Json = Record<string, any>;

const PIG_KEY = "sk-pig-only-7f3a";
const INNER = "You are the inner reviewer.";

const EXTENSION = `
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { completeSimple, getModel, streamSimple } from "@earendil-works/pi-ai";
import { convertToLlm } from "@earendil-works/pi-coding-agent";

const keysHere = () => Object.keys(process.env).filter((k) => /KEY|TOKEN|SECRET/.test(k) && !k.startsWith("PIG_EXT"));
const save = (ctx, name, value) => writeFileSync(join(ctx.cwd, name), JSON.stringify(value));
const context = (text) => ({ systemPrompt: ${JSON.stringify(INNER)}, messages: convertToLlm([{ role: "user", content: text, timestamp: Date.now() }]) });

export default function (pi) {
  pi.registerCommand("review", {
    description: "Asks the model through pig",
    handler: async (args, ctx) => {
      const auth = await ctx.modelRegistry.getApiKeyAndHeaders(ctx.model);
      if (!auth.ok) throw new Error(auth.error);
      const answer = await completeSimple(ctx.model, context(args), { apiKey: auth.apiKey, headers: auth.headers, maxTokens: 77 });
      save(ctx, "review.json", {
        auth,
        hasConfiguredAuth: ctx.modelRegistry.hasConfiguredAuth(ctx.model),
        keysHere: keysHere(),
        envKey: process.env.FAKE_API_KEY ?? null,
        answer,
      });
    },
  });

  pi.registerCommand("interrupt", {
    description: "Starts a call and aborts it mid-stream",
    handler: async (_args, ctx) => {
      const auth = await ctx.modelRegistry.getApiKeyAndHeaders(ctx.model);
      const controller = new AbortController();
      const stream = streamSimple(ctx.model, context("stream slowly"), { apiKey: auth.apiKey, signal: controller.signal });
      const deltas = [];
      for await (const event of stream) {
        if (event.type === "text_delta") {
          deltas.push(event.delta);
          controller.abort();
        }
      }
      const answer = await stream.result();
      save(ctx, "interrupted.json", { deltas, answer });
      // Held until the test has seen the fake server's answer closed while pig still runs.
      while (!existsSync(join(ctx.cwd, "release"))) await new Promise((r) => setTimeout(r, 20));
    },
  });

  pi.registerCommand("elsewhere", {
    description: "Asks a model of a provider pig has no credentials for",
    handler: async (_args, ctx) => {
      const model = getModel("anthropic", "claude-haiku-4-5");
      const auth = await ctx.modelRegistry.getApiKeyAndHeaders(model);
      const answer = await completeSimple(model, context("anyone there?"));
      save(ctx, "elsewhere.json", { auth, hasConfiguredAuth: ctx.modelRegistry.hasConfiguredAuth(model), answer });
    },
  });
}
`;

async function reviewWorld(script: Parameters<typeof world>[0]) {
  return world(script, { files: { "reviewer.ts": EXTENSION } });
}

function read(cwd: string, name: string): Json {
  return JSON.parse(readFileSync(join(cwd, name), "utf8"));
}

/** Resolves once `check` holds (a state of the run), failing with `what` and pig's output if pig exits first. */
async function until(check: () => boolean, what: string, proc: { exitCode: number | null }): Promise<void> {
  while (!check()) {
    if (proc.exitCode !== null) throw new Error(`pig exited (${proc.exitCode}) before ${what}`);
    await Bun.sleep(20);
  }
}

describe("model calls an extension makes through pig", () => {
  test("getApiKeyAndHeaders gives a handle, and completeSimple with it is answered through pig's provider with pig's key", async () => {
    const w = await reviewWorld([{ when: INNER, text: "looks good to me" }]);
    const result = await w.run(["-p", "-e", join(w.cwd, "reviewer.ts"), "/review is this fine?"], { env: { FAKE_API_KEY: PIG_KEY } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const review = read(w.cwd, "review.json");
    expect(review.auth).toEqual({ ok: true, apiKey: "pig-host-credentials" });
    expect(review.hasConfiguredAuth).toBe(true);
    // The extension's process had no key: not pig's, not any other.
    expect(review.envKey).toBeNull();
    expect(review.keysHere).toEqual([]);
    expect(review.answer).toMatchObject({ role: "assistant", stopReason: "stop", provider: "fake", model: "fake-model", content: [{ type: "text", text: "looks good to me" }] });

    // One request, made by pig with its key, carrying the extension's prompt and options.
    expect(w.llm.requests).toHaveLength(1);
    const request = w.llm.requests[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${PIG_KEY}`);
    const body = request.body as Json;
    expect(body.messages.map((m: Json) => [m.role, typeof m.content === "string" ? m.content : m.content.map((p: Json) => p.text).join("")])).toEqual([
      ["system", INNER],
      ["user", "is this fine?"],
    ]);
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(77);
    expect(JSON.stringify(review)).not.toContain(PIG_KEY);
  });

  test("an abort in the extension ends its call as aborted and closes pig's request to the provider", async () => {
    const w = await reviewWorld([{ when: INNER, text: "streaming slowly forever and ever", chunkSize: 4, stallAfterChunks: 2 }]);
    const proc = Bun.spawn([pigBinary(), "-p", "-e", join(w.cwd, "reviewer.ts"), "/interrupt"], {
      cwd: w.cwd,
      env: { ...w.env, FAKE_API_KEY: PIG_KEY },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    await until(() => existsSync(join(w.cwd, "interrupted.json")), "the extension saw its call end", proc);
    const interrupted = read(w.cwd, "interrupted.json");
    expect(interrupted.deltas).toEqual(["stre"]);
    expect(interrupted.answer).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Request was aborted", content: [{ type: "text", text: "stre" }] });
    expect(w.llm.requests).toHaveLength(1);
    expect(w.llm.requests[0]!.headers.authorization).toBe(`Bearer ${PIG_KEY}`);
    // The stalled answer is closed by pig while pig (and the command) still run.
    await until(() => w.llm.openStreamCount() === 0, "pig closed its request", proc);
    expect(proc.exitCode).toBeNull();
    writeFileSync(join(w.cwd, "release"), "");
    const [, stderr] = await output;
    expect(await proc.exited).toBe(0);
    expect(stderr).toBe("");
  });

  test("a provider without credentials in pig: the handle is refused with how to add them, and the call is an error with no request made", async () => {
    const w = await reviewWorld([]);
    const result = await w.run(["-p", "-e", join(w.cwd, "reviewer.ts"), "/elsewhere"], { env: { FAKE_API_KEY: PIG_KEY } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const elsewhere = read(w.cwd, "elsewhere.json");
    const how = 'No credentials for provider "anthropic" in pig (set ANTHROPIC_API_KEY, sign in or store a key with /login, or give the provider an "apiKey" in models.json)';
    expect(elsewhere.auth).toEqual({ ok: false, error: how });
    expect(elsewhere.hasConfiguredAuth).toBe(false);
    expect(elsewhere.answer).toMatchObject({
      role: "assistant",
      stopReason: "error",
      provider: "anthropic",
      model: "claude-haiku-4-5",
      errorMessage: `anthropic/claude-haiku-4-5: ${how}`,
    });
    expect(w.llm.requests).toHaveLength(0);
  });
});
