/**
 * pig's Anthropic requests against the ones Pi 0.87.1 sent for the same conversations
 * (test/fixtures/pi-0.87.1-wire/anthropic-messages, made by scripts/compat/wire/anthropic-messages.ts):
 * the built-in `anthropic` provider with an API key and with a Claude Pro/Max login (an OAuth
 * token, so the request identifies as Claude Code), Claude Opus 4.8 thinking adaptively, calling
 * `read` and answering, and Claude Sonnet 4.5 thinking on a budget, given an image. The context
 * is rebuilt from Pi's session file; the models are the catalogue's (made from Pi 0.87.1's).
 */
import { describe, expect, test } from "bun:test";
import { catalogueModels } from "../../src/ai/catalogue/index.ts";
import { buildAnthropicRequest, streamAnthropicMessages } from "../../src/ai/providers/anthropic-messages.ts";
import type { AssistantMessage, Model } from "../../src/ai/types.ts";
import { pigUserAgent } from "../../src/ai/user-agent.ts";
import { startFakeLlm } from "../helpers/fake-llm/server.ts";
import { CREDENTIAL_MARKER, recordedExchanges } from "../helpers/wire-fixtures.ts";

const API = "anthropic-messages";
const BASE_URL = "http://127.0.0.1:4010";
/** The token the OAuth recordings carry in place of the fake `sk-ant-oat01-…` one. */
const OAUTH_TOKEN = `sk-ant-oat01-${CREDENTIAL_MARKER}`;
const USER_AGENT = pigUserAgent({ platform: "linux", release: "<os-release>", arch: "x64" });

function model(id: string): Model {
  const found = catalogueModels("anthropic").find((m) => m.id === id);
  if (!found) throw new Error(`the catalogue has no anthropic/${id}`);
  return { ...found, baseUrl: BASE_URL };
}

const RUNS = ["anthropic-thinking-tool", "anthropic-image", "anthropic-oauth-thinking-tool", "anthropic-oauth-image"];

describe.each(RUNS)("anthropic-messages, Pi 0.87.1 recording %s", (run) => {
  const oauth = run.includes("oauth");
  const exchanges = recordedExchanges(API, run);

  test("every request body equals Pi's", () => {
    expect(exchanges.length).toBe(run.endsWith("thinking-tool") ? 2 : 1);
    for (const { request, context, thinkingLevel, sessionId, modelId } of exchanges) {
      const ours = buildAnthropicRequest(model(modelId), context, { apiKey: oauth ? OAUTH_TOKEN : CREDENTIAL_MARKER, reasoning: thinkingLevel, sessionId });
      expect(JSON.stringify(ours.body, null, 1)).toBe(JSON.stringify(request.body, null, 1));
    }
  });

  test("the headers Anthropic reads equal Pi's; the user agent names pig, or Claude Code with a subscription login", () => {
    for (const { request, context, thinkingLevel, sessionId, modelId } of exchanges) {
      const ours = buildAnthropicRequest(model(modelId), context, { apiKey: oauth ? OAUTH_TOKEN : CREDENTIAL_MARKER, reasoning: thinkingLevel, sessionId }, USER_AGENT);
      expect(request.method).toBe("POST");
      expect(new URL(ours.url).pathname).toBe(request.path);
      const names = ["accept", "anthropic-beta", "anthropic-dangerous-direct-browser-access", "anthropic-version", "authorization", "content-type", "x-api-key", "x-app"];
      const pick = (headers: Record<string, string>) =>
        Object.fromEntries(names.map((name) => [name, Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? "(absent)"]));
      const recorded = pick(request.headers);
      if (oauth) recorded.authorization = recorded.authorization!.replace(CREDENTIAL_MARKER, OAUTH_TOKEN);
      expect(pick(ours.headers)).toEqual(recorded);
      if (oauth) {
        expect(ours.headers["user-agent"]).toBe(request.headers["user-agent"]!);
      } else {
        // The one deliberate difference: the agent's name (docs/decisions.md).
        expect(request.headers["user-agent"]).toBe("pi (linux <os-release>; x64)");
        expect(ours.headers["user-agent"]).toBe("pig (linux <os-release>; x64)");
      }
    }
  });
});

describe("a model whose effort changes mid-conversation (Claude Opus 5)", () => {
  test("the answer keeps the effort it was given where Pi keeps it, and the next request tells it back", async () => {
    const opus5 = catalogueModels("anthropic").find((m) => m.id === "claude-opus-5")!;
    const llm = await startFakeLlm({ script: [{ text: "first" }, { text: "second" }] });
    try {
      const m = { ...opus5, baseUrl: llm.url };
      const first = [{ role: "user" as const, content: "one", timestamp: 1 }];
      let answer: AssistantMessage | undefined;
      for await (const event of streamAnthropicMessages(m, { systemPrompt: "s", messages: first }, { apiKey: "k", reasoning: "max" })) {
        if (event.type === "done") answer = event.message;
      }
      expect(answer?.providerThinkingLevel).toBe("max");
      expect(Object.keys(answer!).slice(0, 7)).toEqual(["role", "content", "api", "provider", "model", "providerThinkingLevel", "usage"]);
      const messages = [...first, answer!, { role: "user" as const, content: "two", timestamp: 2 }];
      for await (const _event of streamAnthropicMessages(m, { systemPrompt: "s", messages }, { apiKey: "k", reasoning: "low" }));
      const sent = llm.requests[1]!.body as { messages: { role: string; output_config?: { effort: string } }[] };
      expect(sent.messages.map((message) => message.output_config?.effort ?? message.role)).toEqual(["user", "max", "assistant", "user", "low"]);
    } finally {
      await llm.close();
    }
  });
});
