/**
 * A Pi-style extension that runs an `Agent` of `@earendil-works/pi-agent-core` inside one of its
 * tools, through the built binary: the inner agent's requests reach the fake model with pig's
 * providers — in the extension's process with a key of its own, or made by pig with pig's key
 * when it has the one `ctx.modelRegistry` gives — its own tool runs, and its answer becomes the
 * tool's result in the main conversation.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import type { PigWorld } from "../helpers/pig-env.ts";

const { world } = extensionWorlds();

type Json = Record<string, any>;

/**
 * The extension, with `keySetup` run in the tool before the Agent is made and `getApiKey` as the
 * Agent's option (a key the extension has, or the handle pig gave it).
 */
const extension = (keySetup: string, getApiKey: string) => `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "@earendil-works/pi-agent-core";
import { convertToLlm } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function (pi) {
  pi.registerTool({
    name: "consult",
    label: "Consult",
    description: "Asks for a second opinion",
    parameters: Type.Object({ question: Type.String() }),
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      ${keySetup}
      const lookups = [];
      const lookup = {
        name: "lookup",
        label: "Lookup",
        description: "Looks a term up",
        parameters: Type.Object({ term: Type.String() }),
        async execute(id, args) {
          lookups.push({ id, term: args.term });
          return { content: [{ type: "text", text: "a kumquat is a small citrus fruit" }], details: {} };
        },
      };
      const agent = new Agent({
        initialState: { systemPrompt: "You are the inner reviewer.", model: ctx.model, tools: [lookup] },
        convertToLlm,
        getApiKey: ${getApiKey},
        toolExecution: "sequential",
      });
      const events = [];
      agent.subscribe((event) => { events.push(event.type); });
      signal?.addEventListener("abort", () => agent.abort(), { once: true });
      await agent.prompt(params.question);
      const answer = agent.state.messages.at(-1);
      const text = answer.content.filter((b) => b.type === "text").map((b) => b.text).join("");
      const keysHere = Object.keys(process.env).filter((k) => /KEY|TOKEN|SECRET/.test(k));
      writeFileSync(join(ctx.cwd, "agent-run.json"), JSON.stringify({ events, lookups, keysHere, roles: agent.state.messages.map((m) => m.role), stopReason: answer.stopReason, errorMessage: agent.state.errorMessage ?? null }));
      return { content: [{ type: "text", text: "second opinion: " + text }], details: {} };
    },
  });
}
`;

const OWN_KEY = extension("", '(provider) => (provider === ctx.model.provider ? "fake-key" : undefined)');
// As registry packages do: the key from ctx.modelRegistry, which in pig is its handle.
const PIGS_KEY = extension(
  "const auth = await ctx.modelRegistry.getApiKeyAndHeaders(ctx.model); if (!auth.ok) throw new Error(auth.error);",
  "(provider) => (provider === ctx.model.provider ? auth.apiKey : undefined)",
);
const PIG_KEY = "sk-pig-only-51c9";

/** The OpenAI chat messages of request `index`. */
function messages(w: PigWorld, index: number): Json[] {
  return (w.llm.requests[index]!.body as { messages: Json[] }).messages;
}

function chatText(message: Json): string {
  return typeof message.content === "string" ? message.content : (message.content ?? []).map((p: Json) => p.text ?? "").join("");
}

describe("an extension's own Agent", () => {
  test("runs inside a tool: its requests and its tool call go through pig's providers, and its answer is the tool's result", async () => {
    const inner = "You are the inner reviewer.";
    const w = await world(
      [
        { when: inner, toolCalls: [{ name: "lookup", arguments: { term: "kumquat" }, id: "call_lookup" }] },
        { when: inner, text: "inner verdict: a kumquat is fine" },
        { toolCalls: [{ name: "consult", arguments: { question: "is a kumquat fine?" }, id: "call_consult" }] },
        { text: "main done" },
      ],
      { files: { "agent-ext.ts": OWN_KEY } },
    );
    const result = await w.run(["-p", "-e", join(w.cwd, "agent-ext.ts"), "ask for a second opinion"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("main done\n");

    // main, inner, inner, main: the inner agent's two requests come while the tool runs.
    expect(w.llm.requests.map((_, i) => chatText(messages(w, i)[0]!) === inner)).toEqual([false, true, true, false]);
    const [first, second] = [messages(w, 1), messages(w, 2)];
    expect(first.map((m) => m.role)).toEqual(["system", "user"]);
    expect(chatText(first[0]!)).toBe(inner);
    expect(chatText(first[1]!)).toBe("is a kumquat fine?");
    expect((w.llm.requests[1]!.body as Json).tools.map((t: Json) => t.function.name)).toEqual(["lookup"]);
    expect(w.llm.requests[1]!.headers.authorization).toBe("Bearer fake-key");
    // The inner tool ran in the extension's process and its result went back to the model.
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second[3]).toMatchObject({ tool_call_id: "call_lookup" });
    expect(chatText(second[3]!)).toBe("a kumquat is a small citrus fruit");

    const run = JSON.parse(readFileSync(join(w.cwd, "agent-run.json"), "utf8"));
    expect(run.lookups).toEqual([{ id: "call_lookup", term: "kumquat" }]);
    expect(run.roles).toEqual(["system", "user", "assistant", "toolResult", "assistant"]);
    expect(run).toMatchObject({ stopReason: "stop", errorMessage: null });
    expect(run.events.filter((t: string) => t !== "message_update")).toEqual([
      "agent_start",
      "turn_start",
      "message_start",
      "message_end",
      "message_start",
      "message_end",
      "tool_execution_start",
      "tool_execution_end",
      "message_start",
      "message_end",
      "turn_end",
      "turn_start",
      "message_start",
      "message_end",
      "turn_end",
      "agent_end",
    ]);

    // The inner answer is the consult tool's result in the main conversation.
    const last = messages(w, 3);
    const toolResult = last.find((m) => m.role === "tool" && m.tool_call_id === "call_consult");
    expect(chatText(toolResult!)).toBe("second opinion: inner verdict: a kumquat is fine");
  });

  test("with the key ctx.modelRegistry gives, the Agent's requests are made by pig with pig's key, which its process never has", async () => {
    const inner = "You are the inner reviewer.";
    const w = await world(
      [
        { when: inner, toolCalls: [{ name: "lookup", arguments: { term: "kumquat" }, id: "call_lookup" }] },
        { when: inner, text: "inner verdict: through pig" },
        { toolCalls: [{ name: "consult", arguments: { question: "is a kumquat fine?" }, id: "call_consult" }] },
        { text: "main done" },
      ],
      { files: { "agent-ext.ts": PIGS_KEY } },
    );
    const result = await w.run(["-p", "-e", join(w.cwd, "agent-ext.ts"), "ask for a second opinion"], { env: { FAKE_API_KEY: PIG_KEY } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("main done\n");

    expect(w.llm.requests.map((_, i) => chatText(messages(w, i)[0]!) === inner)).toEqual([false, true, true, false]);
    expect(w.llm.requests.map((r) => r.headers.authorization)).toEqual(Array(4).fill(`Bearer ${PIG_KEY}`));
    // The inner tool still ran in the extension's process, between pig's two requests for it.
    expect(messages(w, 2).map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(chatText(messages(w, 2)[3]!)).toBe("a kumquat is a small citrus fruit");
    const run = JSON.parse(readFileSync(join(w.cwd, "agent-run.json"), "utf8"));
    expect(run).toMatchObject({ lookups: [{ id: "call_lookup", term: "kumquat" }], keysHere: [], stopReason: "stop", errorMessage: null });
    const toolResult = messages(w, 3).find((m) => m.role === "tool" && m.tool_call_id === "call_consult");
    expect(chatText(toolResult!)).toBe("second opinion: inner verdict: through pig");
  });
});
