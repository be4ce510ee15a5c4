/**
 * The extension side of model calls pig makes (`model.auth`, `model.stream`), in the runner
 * against a scripted host: what `ctx.modelRegistry` answers, what `completeSimple`, the registry's
 * own `streamSimple` and an `Agent` without a key send to pig (never a key, never a function), how
 * pig's progress and answer become the stream's events and result, and that an abort cancels the
 * request. A key of the extension's own still streams in its process, with no request to pig.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestContext } from "../../../src/extensions/connection.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { RunnerHarness } from "./harness.ts";

type Json = Record<string, any>;

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

const MODEL = { id: "m1", name: "m1", api: "openai-completions", provider: "p1", baseUrl: "http://127.0.0.1:1/v1", reasoning: true, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };

const EXTENSION = `
import { completeSimple, streamSimple } from "@earendil-works/pi-ai";
import { Agent } from "@earendil-works/pi-agent-core";

const tell = (ctx, value) => ctx.ui.notify(JSON.stringify(value));
const context = { systemPrompt: "be brief", messages: [{ role: "user", content: "hi", timestamp: 1 }], tools: [{ name: "look", description: "Looks", parameters: { type: "object" }, execute: () => {} }] };

export default function (pi) {
  pi.registerCommand("auth", { handler: async (_a, ctx) => {
    const other = { ...ctx.model, provider: "p2" };
    tell(ctx, {
      mine: await ctx.modelRegistry.getApiKeyAndHeaders(ctx.model),
      other: await ctx.modelRegistry.getApiKeyAndHeaders(other),
      forProvider: await ctx.modelRegistry.getApiKeyForProvider("p1"),
      configured: [ctx.modelRegistry.hasConfiguredAuth(ctx.model), ctx.modelRegistry.hasConfiguredAuth(other)],
      oauth: ctx.modelRegistry.isUsingOAuth(ctx.model),
      status: ctx.modelRegistry.getProviderAuthStatus("p2"),
      available: ctx.modelRegistry.getAvailable().map((m) => m.id),
    });
  } });
  pi.registerCommand("complete", { handler: async (_a, ctx) => {
    const auth = await ctx.modelRegistry.getApiKeyAndHeaders(ctx.model);
    const events = [];
    const stream = streamSimple(ctx.model, context, { apiKey: auth.apiKey, reasoning: "low", maxTokens: 5, headers: { "x-trace": "t" }, onPayload: () => {}, sessionId: "s9" });
    for await (const e of stream) events.push(e.type);
    tell(ctx, { events, result: await stream.result() });
  } });
  pi.registerCommand("registry", { handler: async (_a, ctx) => {
    tell(ctx, await ctx.modelRegistry.complete(ctx.model, context, { apiKey: "sk-ignored" }));
  } });
  pi.registerCommand("abort", { handler: async (_a, ctx) => {
    const controller = new AbortController();
    const stream = streamSimple(ctx.model, context, { signal: controller.signal });
    for await (const e of stream) if (e.type === "text_delta") controller.abort();
    tell(ctx, await stream.result());
  } });
  pi.registerCommand("own-key", { handler: async (_a, ctx) => {
    tell(ctx, await completeSimple(ctx.model, context, { apiKey: "sk-extension-own" }));
  } });
  pi.registerCommand("agent", { handler: async (_a, ctx) => {
    const agent = new Agent({ initialState: { systemPrompt: "inner", model: ctx.model } });
    await agent.prompt("question");
    tell(ctx, agent.state.messages.at(-1));
  } });
}
`;

function answer(text: string): Json {
  return { role: "assistant", content: [{ type: "text", text }], api: "openai-completions", provider: "p1", model: "m1", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 2 };
}

/** pig's side of a model call: a start and a delta as progress, then the answer; `hold` waits for the cancel instead. */
function streamAnswer(text: string, seen: { cancelled: boolean }, hold = false) {
  return async (_params: Json, ctx: RequestContext) => {
    const partial = { ...answer(text), stopReason: "pending" };
    ctx.progress({ type: "start", partial: { ...partial, content: [] } });
    ctx.progress({ type: "text_delta", contentIndex: 0, delta: text, partial });
    if (hold) {
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      seen.cancelled = true;
      return { message: { ...answer(text), stopReason: "aborted", errorMessage: "Request was aborted" } };
    }
    return { message: answer(text) };
  };
}

async function start(answers: NonNullable<ConstructorParameters<typeof RunnerHarness>[0]["answers"]>, env: Record<string, string | undefined> = {}) {
  const dir = tempDir();
  const path = join(dir, "caller.ts");
  writeFileSync(path, EXTENSION);
  harness = new RunnerHarness({ load: [path], answers, env: { P1_API_KEY: undefined, ...env } });
  await harness.start();
  await harness.ready();
  harness.notify("state", {
    cwd: dir,
    sessionId: "s1",
    model: MODEL,
    thinkingLevel: "off",
    activeTools: [],
    allTools: [],
    commands: [],
    isIdle: true,
    hasPendingMessages: false,
    systemPrompt: "",
    credentials: { p1: "key" },
  });
  const h = harness;
  return {
    h,
    /** Runs command `name` and returns what it told through `ui.notify`. */
    async run(name: string): Promise<Json> {
      const before = h.all("ui.notify").length;
      await h.request("command.run", { extension: path, name, args: "" });
      const told = await h.waitFor(() => h.all("ui.notify")[before], `${name} to answer`);
      return JSON.parse(String(told.params.message));
    },
  };
}

describe("ctx.modelRegistry", () => {
  test("a model pig can call gets the handle, one it cannot gets pig's reason; the synchronous answers follow the state's credentials", async () => {
    const refusal = 'No credentials for provider "p2" in pig (set P2_API_KEY, store a key with /login, or give the provider an "apiKey" in models.json)';
    const { run, h } = await start({
      "model.auth": (p) => (p.provider === "p1" ? { ok: true, oauth: false } : { ok: false, error: refusal }),
    });
    expect(await run("auth")).toEqual({
      mine: { ok: true, apiKey: "pig-host-credentials" },
      other: { ok: false, error: refusal },
      forProvider: "pig-host-credentials",
      configured: [true, false],
      oauth: false,
      status: { configured: false },
      available: ["m1"],
    });
    expect(h.all("model.auth").map((r) => r.params)).toEqual([{ provider: "p1", id: "m1" }, { provider: "p2", id: "m1" }, { provider: "p1" }]);
  });
});

describe("model calls through pig", () => {
  test("completeSimple with the handle: pig gets the model's name, the context and the plain options; its progress and answer are the stream", async () => {
    const seen = { cancelled: false };
    const { run, h } = await start({ "model.auth": () => ({ ok: true, oauth: false }), "model.stream": streamAnswer("hello", seen) });
    const told = await run("complete");
    expect(told.events).toEqual(["start", "text_delta", "done"]);
    expect(told.result).toEqual(answer("hello"));
    const [call] = h.all("model.stream");
    expect(call!.kind).toBe("request");
    expect(call!.params).toEqual({
      model: { provider: "p1", id: "m1" },
      context: { systemPrompt: "be brief", messages: [{ role: "user", content: "hi", timestamp: 1 }], tools: [{ name: "look", description: "Looks", parameters: { type: "object" } }] },
      options: { reasoning: "low", maxTokens: 5, sessionId: "s9", headers: { "x-trace": "t" } },
    });
    expect(JSON.stringify(call!.params)).not.toContain("pig-host-credentials");
  });

  test("the registry's own complete is made by pig whatever key it is given", async () => {
    const { run, h } = await start({ "model.stream": streamAnswer("from pig", { cancelled: false }) });
    expect(await run("registry")).toEqual(answer("from pig"));
    expect(h.all("model.stream")).toHaveLength(1);
    expect(JSON.stringify(h.all("model.stream")[0]!.params)).not.toContain("sk-ignored");
  });

  test("an abort mid-stream cancels pig's request; the result is aborted, with what had arrived", async () => {
    const seen = { cancelled: false };
    const { run } = await start({ "model.stream": streamAnswer("partial", seen, true) });
    const result = await run("abort");
    expect(result).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Request was aborted", content: [{ type: "text", text: "partial" }] });
    await harness!.waitFor(() => seen.cancelled, "pig to see the cancel");
  });

  test("an Agent without a key or stream function of its own has pig make its requests", async () => {
    const { run, h } = await start({ "model.stream": streamAnswer("inner answer", { cancelled: false }) });
    expect(await run("agent")).toMatchObject({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: "inner answer" }] });
    const [call] = h.all("model.stream");
    expect(call!.params.context).toMatchObject({ systemPrompt: "inner", messages: [{ role: "user", content: [{ type: "text", text: "question" }] }] });
  });

  test("a key of the extension's own streams in its process: pig is not asked", async () => {
    const { run, h } = await start({ "model.stream": () => ({ message: answer("not this") }) });
    const result = await run("own-key");
    // The model's base URL answers nothing: the failure is the extension's own request's.
    expect(result).toMatchObject({ role: "assistant", stopReason: "error", provider: "p1" });
    expect(result.errorMessage).not.toContain("pig");
    expect(h.all("model.stream")).toHaveLength(0);
  });
});
