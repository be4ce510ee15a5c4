/**
 * pig's Gemini API requests against the ones Pi 0.87.1 sent for the same conversation
 * (test/fixtures/pi-0.87.1-wire/google-generative-ai/): the context rebuilt from Pi's session
 * file, the system prompt and tools from the recorded body; body, path and credential header
 * must be Pi's. The tools ask for JSON-schema sampling, which Gemini 2.5 does not get: plain
 * schemas, no calling mode. Pi's client also sends its identity (`user-agent: pi (…)`,
 * `x-goog-api-client: google-genai-sdk/…`), which pig does not (docs/decisions.md).
 */
import { describe, expect, test } from "bun:test";
import type { Model } from "../../src/ai/types.ts";
import { buildGoogleBody } from "../../src/ai/providers/google-request.ts";
import { geminiUrl } from "../../src/ai/providers/google-generative-ai.ts";
import { recordedCalls } from "../helpers/google-wire.ts";

/** Pi 0.87.1's catalogue entry for google/gemini-2.5-flash (pi-ai providers/data/google.json). */
const GEMINI_25_FLASH: Model = {
  id: "gemini-2.5-flash",
  name: "Gemini 2.5 Flash",
  api: "google-generative-ai",
  provider: "google",
  baseUrl: "http://127.0.0.1:9/v1beta",
  reasoning: true,
  input: ["text", "image"],
  cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
  contextWindow: 1048576,
  maxTokens: 65536,
};

describe.each(["tools", "image"])("google-generative-ai, Pi 0.87.1 run %s", (run) => {
  const calls = recordedCalls("google-generative-ai", run);

  test("every request body equals Pi's", () => {
    expect(calls.length).toBe(run === "tools" ? 2 : 1);
    for (const { request, context, thinkingLevel, sessionId } of calls) {
      const body = buildGoogleBody(GEMINI_25_FLASH, context, { apiKey: "k", reasoning: thinkingLevel, sessionId }, "gemini");
      expect(JSON.stringify(body)).toBe(JSON.stringify(request.body));
    }
  });

  test("path, method and credential header are Pi's", () => {
    for (const { request } of calls) {
      expect(request.method).toBe("POST");
      expect(new URL(geminiUrl(GEMINI_25_FLASH.baseUrl, GEMINI_25_FLASH.id)).pathname).toBe(request.path);
      expect(request.headers["x-goog-api-key"]).toBe("<credential>");
      expect(request.headers["content-type"]).toBe("application/json");
    }
  });
});
