/**
 * pig's chat-completions requests against the ones Pi 0.87.1 sent for the same conversations
 * (test/fixtures/pi-0.87.1-wire/openai-completions, made by scripts/compat/wire/openai-completions.ts):
 * catalogue providers whose models carry compat flags — DeepSeek (thinking format `deepseek`),
 * Z.AI (`zai`, tool streaming) and OpenRouter's default Kimi K2.6 (`openrouter`, session
 * affinity) — each thinking, calling `read` and answering, and given an image. The context is
 * rebuilt from Pi's session file, the models are the catalogue's (made from Pi 0.87.1's). The
 * headers are the ones pig's stream really sends (to the fake server over loopback).
 */
import { describe, expect, test } from "bun:test";
import { catalogueModels } from "../../src/ai/catalogue/index.ts";
import { estimateRequestTokens } from "../../src/ai/output-room.ts";
import { buildCompletionsRequest } from "../../src/ai/providers/openai-completions.ts";
import type { LlmContext, Model } from "../../src/ai/types.ts";
import { pigUserAgent } from "../../src/ai/user-agent.ts";
import { pickHeaders, sentRequest } from "../helpers/sent-request.ts";
import { CREDENTIAL_MARKER, recordedExchanges } from "../helpers/wire-fixtures.ts";

const API = "openai-completions";
const FAKE = "http://127.0.0.1:4010";

/** Each provider: the base URL Pi was given, and its two runs. */
const PROVIDERS: [string, string][] = [
  ["deepseek", FAKE],
  ["zai", `${FAKE}/api/coding/paas/v4`],
  ["openrouter", `${FAKE}/api/v1`],
];

function model(provider: string, id: string, baseUrl: string): Model {
  const found = catalogueModels(provider).find((m) => m.id === id);
  if (!found) throw new Error(`the catalogue has no ${provider}/${id}`);
  return { ...found, baseUrl };
}

/**
 * Where Pi kept the output cap inside the room the window left, the figure rests on the length of
 * the request Pi estimated, before the paths in it were made neutral: ours must follow the rule
 * for what we send and be near Pi's, and is then taken as equal.
 */
function withRoomChecked(ours: Record<string, unknown>, theirs: Record<string, unknown>, m: Model, context: LlmContext): Record<string, unknown> {
  const field = "max_tokens" in theirs ? "max_tokens" : "max_completion_tokens";
  const recorded = theirs[field] as number | undefined;
  if (recorded === undefined || recorded >= m.maxTokens) return ours;
  expect(ours[field]).toBe(m.contextWindow - estimateRequestTokens(context) - 4096);
  expect(Math.abs((ours[field] as number) - recorded)).toBeLessThan(100);
  return { ...ours, [field]: recorded };
}

describe.each(PROVIDERS)("openai-completions, Pi 0.87.1 recordings of %s", (provider, baseUrl) => {
  test.each(["thinking-tool", "image"])("%s: every request body equals Pi's", (run) => {
    const exchanges = recordedExchanges(API, `${provider}-${run}`);
    expect(exchanges.length).toBe(run === "thinking-tool" ? 2 : 1);
    for (const { request, context, thinkingLevel, sessionId, modelId } of exchanges) {
      const m = model(provider, modelId, baseUrl);
      const { body } = buildCompletionsRequest(m, context, { apiKey: CREDENTIAL_MARKER, reasoning: thinkingLevel, sessionId });
      expect(JSON.stringify(withRoomChecked(body, request.body, m, context), null, 1)).toBe(JSON.stringify(request.body, null, 1));
    }
  });
});

/** The headers the servers read. */
const HEADERS = ["accept", "authorization", "content-type", "session_id", "x-client-request-id", "x-session-affinity", "x-session-id"];

describe.each(PROVIDERS)("openai-completions, Pi 0.87.1's headers for %s", (provider, baseUrl) => {
  test("the request pig sends carries Pi's headers and body; the user agent names pig", async () => {
    const { request, context, thinkingLevel, sessionId, modelId } = recordedExchanges(API, `${provider}-thinking-tool`)[0]!;
    const m = model(provider, modelId, baseUrl);
    const sent = await sentRequest(m, context, { apiKey: CREDENTIAL_MARKER, reasoning: thinkingLevel, sessionId });
    expect(sent.path).toBe(request.path);
    expect(pickHeaders(sent.headers, HEADERS)).toEqual(pickHeaders(request.headers, HEADERS));
    const { body } = buildCompletionsRequest(m, context, { apiKey: CREDENTIAL_MARKER, reasoning: thinkingLevel, sessionId });
    expect(JSON.stringify(sent.body)).toBe(JSON.stringify(body));
    // The one deliberate difference: the agent's name (docs/decisions.md).
    expect(request.headers["user-agent"]).toBe("pi (linux <os-release>; x64)");
    expect(sent.headers["user-agent"]).toBe(pigUserAgent());
  });
});
