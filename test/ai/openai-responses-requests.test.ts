/**
 * pig's OpenAI Responses requests against the ones Pi 0.87.1 sent for the same conversations
 * (test/fixtures/pi-0.87.1-wire/openai-responses, made by scripts/compat/wire/openai-responses.ts):
 * the built-in `openai` provider, GPT-5.5 at high effort thinking, calling `read` and answering;
 * given an image in the prompt; and reading an image, so a tool result carries it. The context is
 * rebuilt from Pi's session file, the model is the catalogue's (made from Pi 0.87.1's). The headers
 * are the ones pig's stream really sends (to the fake server over loopback).
 */
import { describe, expect, test } from "bun:test";
import { catalogueModels } from "../../src/ai/catalogue/index.ts";
import { buildResponsesRequest } from "../../src/ai/providers/openai-responses-request.ts";
import type { Model } from "../../src/ai/types.ts";
import { pigUserAgent } from "../../src/ai/user-agent.ts";
import { pickHeaders, sentRequest } from "../helpers/sent-request.ts";
import { CREDENTIAL_MARKER, recordedExchanges } from "../helpers/wire-fixtures.ts";

const API = "openai-responses";
const BASE_URL = "http://127.0.0.1:4010/v1";

function model(id: string): Model {
  const found = catalogueModels("openai").find((m) => m.id === id);
  if (!found) throw new Error(`the catalogue has no openai/${id}`);
  return { ...found, baseUrl: BASE_URL };
}

const RUNS: [string, number][] = [
  ["openai-thinking-tool", 2],
  ["openai-image", 1],
  ["openai-tool-image", 2],
];

describe.each(RUNS)("openai-responses, Pi 0.87.1 recording %s", (run, count) => {
  const exchanges = recordedExchanges(API, run);

  test("every request body equals Pi's", () => {
    expect(exchanges.length).toBe(count);
    for (const { request, context, thinkingLevel, sessionId, modelId } of exchanges) {
      const { body } = buildResponsesRequest(model(modelId), context, { apiKey: CREDENTIAL_MARKER, reasoning: thinkingLevel, sessionId });
      expect(JSON.stringify(body, null, 1)).toBe(JSON.stringify(request.body, null, 1));
    }
  });
});

/** The headers OpenAI reads. */
const HEADERS = ["accept", "authorization", "content-type", "session_id", "x-client-request-id"];

describe("openai-responses, Pi 0.87.1's headers", () => {
  test("the request pig sends carries Pi's headers; the user agent names pig", async () => {
    const { request, context, thinkingLevel, sessionId, modelId } = recordedExchanges(API, "openai-thinking-tool")[0]!;
    const sent = await sentRequest(model(modelId), context, { apiKey: CREDENTIAL_MARKER, reasoning: thinkingLevel, sessionId });
    expect(sent.path).toBe(request.path);
    expect(pickHeaders(sent.headers, HEADERS)).toEqual(pickHeaders(request.headers, HEADERS));
    expect(JSON.stringify(sent.body)).toBe(JSON.stringify(request.body));
    // The one deliberate difference: the agent's name (docs/decisions.md).
    expect(request.headers["user-agent"]).toBe("pi (linux <os-release>; x64)");
    expect(sent.headers["user-agent"]).toBe(pigUserAgent());
  });
});
