/**
 * Thinking on pig's three original wire APIs against Pi 0.87.1 itself:
 * test/fixtures/pi-0.87.1-thinking/requests.json holds the request Pi's own `streamSimple` built
 * for catalogue models of every chat-completions `thinkingFormat` (and compat variants no
 * catalogue model has yet), OpenAI Responses and Anthropic models, at the levels off, low, high
 * and max, made by scripts/compat/thinking-requests.ts. pig builds its request for the same model,
 * level (clamped as pig's agent clamps it) and session, and must send the same body and the
 * headers that carry the session, the betas and the credential.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { endpointUrl } from "../../src/ai/endpoint.ts";
import { buildAnthropicRequest } from "../../src/ai/providers/anthropic-request.ts";
import { buildCompletionsRequest } from "../../src/ai/providers/openai-completions.ts";
import { buildResponsesRequest } from "../../src/ai/providers/openai-responses-request.ts";
import { clampThinkingLevel } from "../../src/ai/thinking.ts";
import type { LlmContext, Model, StreamOptions, ThinkingLevel } from "../../src/ai/types.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "pi-0.87.1-thinking", "requests.json");

const Case = v.object({
  name: v.string(),
  model: v.custom<Model>((value) => typeof value === "object" && value !== null && typeof (value as Model).api === "string"),
  level: v.picklist(["off", "low", "high", "max"]),
  pi: v.object({ url: v.string(), headers: v.record(v.string(), v.string()), body: v.record(v.string(), v.unknown()) }),
});
const Fixture = v.object({ pi: v.literal("0.87.1"), sessionId: v.string(), cases: v.array(Case) });
const fixture = v.parse(Fixture, JSON.parse(readFileSync(FIXTURE, "utf8")));

const CONTEXT: LlmContext = { systemPrompt: "You are a test.", messages: [{ role: "user", content: "hi", timestamp: 2 }] };
/** Headers that carry the session, the betas and the credential (the client's own are not compared). */
const HEADERS = ["anthropic-beta", "authorization", "session_id", "x-api-key", "x-client-request-id", "x-session-affinity", "x-session-id"];

function pick(headers: Record<string, string>, withCredential: boolean): Record<string, string> {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return Object.fromEntries(
    HEADERS.filter((name) => withCredential || (name !== "authorization" && name !== "x-api-key")).flatMap((name) => (lower[name] === undefined ? [] : [[name, lower[name]]])),
  );
}

function build(model: Model, options: StreamOptions): { url: string; body: Record<string, unknown>; headers: Record<string, string>; complete: boolean } {
  if (model.api === "anthropic-messages") {
    const request = buildAnthropicRequest(model, CONTEXT, options);
    return { url: request.url, body: request.body as unknown as Record<string, unknown>, headers: request.headers, complete: true };
  }
  const build = model.api === "openai-responses" ? buildResponsesRequest : buildCompletionsRequest;
  // The OpenAI client adds the credential and its own headers to these.
  const { body, headers } = build(model, CONTEXT, options);
  return { url: endpointUrl(model), body, headers, complete: false };
}

describe("thinking requests against Pi 0.87.1's own builders", () => {
  test("the fixture covers every thinking format and the three APIs", () => {
    const formats = new Set(fixture.cases.map((c) => (c.model.api === "openai-completions" ? String(c.model.compat?.thinkingFormat ?? "openai") : c.model.api)));
    expect([...formats].sort()).toEqual(
      ["ant-ling", "anthropic-messages", "baseten", "chat-template", "deepseek", "openai", "openai-responses", "openrouter", "qwen", "qwen-chat-template", "string-thinking", "together", "zai"].sort(),
    );
  });

  test.each(fixture.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const level = clampThinkingLevel(c.model, c.level as ThinkingLevel);
    const ours = build(c.model, { apiKey: "fake-key", sessionId: fixture.sessionId, reasoning: level });
    expect(new URL(ours.url).pathname).toBe(new URL(c.pi.url).pathname);
    expect(JSON.stringify(ours.body, null, 1)).toBe(JSON.stringify(c.pi.body, null, 1));
    expect(pick(ours.headers, ours.complete)).toEqual(pick(c.pi.headers, ours.complete));
  });
});
